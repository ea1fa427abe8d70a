package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// The held numbers (WAVE rule 7; docs/performance.md): the most each ratio
// may be, on the ruler the tables use.
const (
	heldPre      = 1.6  // a Write's pre / the floor
	heldPost     = 1.75 // its post / the floor
	heldReadBash = 1.2  // a read-only Bash's pre+post / a Write's
	heldBigPost  = 1.2  // post on 1 000 000 records / on an empty ledger
	// heldAgentSpread is how far above Claude Code's any agent's pre may
	// be, each against the floor fed its own payload.
	heldAgentSpread = 0.05
)

// The performance issue's targets, on the same ruler: printed beside the
// held numbers, met or not, and not held yet (a run that misses one does
// not fail).
const (
	targetPre      = 1.25 // a Write's pre, and each agent's, / the floor
	targetPost     = 1.35 // its post / the floor
	targetReadBash = 1.1  // a read-only Bash's pre+post / a Write's
	targetBigPost  = 1.1  // post on 1 000 000 records / on an empty ledger
	targetSelect   = 1.5  // the pre of an agent's intenthook select / the floor
)

// A check is one ratio a run measured, against its held number (limit; 0:
// none) and the performance issue's target for it (0: none).
type check struct {
	name                 string
	ratio, limit, target float64
}

func (c check) met() bool { return c.limit == 0 || c.ratio <= c.limit }

func (c check) onTarget() bool { return c.target == 0 || c.ratio <= c.target }

// holds gathers the checks of a run, in the order the rows were printed.
type holds struct{ checks []check }

// held is the run's checks: the rows add to it as they are measured.
var held holds

func (h *holds) add(name string, ratio, limit, target float64) {
	h.checks = append(h.checks, check{name, ratio, limit, target})
}

// ratio is s's time over against's.
func ratio(s, against summary) float64 { return float64(s.d) / float64(against.d) }

// report prints each check and the load the machine was under, and says
// whether the run fails: a held number exceeded on a quiet machine, whose
// load average was below quiet at the start and below quiet+1 at the end
// (the benchmark's own processes, one at a time, add about 1). On a busy
// machine the figures are noise, and it is said. Beside each, the
// performance issue's target, met or missed, which never fails the run.
func (h *holds) report(w io.Writer, loadBefore, loadAfter, quiet float64) (fail bool) {
	if len(h.checks) == 0 {
		return false
	}
	fmt.Fprintf(w, "\nheld numbers and the performance issue's targets (load average %.2f at the start, %.2f at the end; quiet: below %.2f, then %.2f):\n", loadBefore, loadAfter, quiet, quiet+1)
	exceeded, targets, missed := 0, 0, 0
	for _, c := range h.checks {
		held := "                 "
		if c.limit != 0 {
			verdict := "met"
			if !c.met() {
				verdict = "EXCEEDED"
				exceeded++
			}
			held = fmt.Sprintf("held %4.2fx  %-8s", c.limit, verdict)
		}
		target := ""
		if c.target != 0 {
			targets++
			verdict := "met"
			if !c.onTarget() {
				verdict = "missed"
				missed++
			}
			target = fmt.Sprintf("  target %4.2fx  %s", c.target, verdict)
		}
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  %-48s %5.2fx  %s%s", c.name, c.ratio, held, target), " "))
	}
	switch {
	case targets == 0:
	case missed == 0:
		fmt.Fprintf(w, "every target met (%d)\n", targets)
	default:
		fmt.Fprintf(w, "%d of %d targets missed\n", missed, targets)
	}
	switch {
	case exceeded == 0:
		fmt.Fprintln(w, "every held number met")
	case loadBefore < 0 || loadBefore >= quiet || loadAfter >= quiet+1:
		fmt.Fprintf(w, "%d held number(s) exceeded on a busy machine: not a verdict; run make bench again on a quiet one\n", exceeded)
	default:
		fmt.Fprintf(w, "%d held number(s) exceeded on a quiet machine\n", exceeded)
		fail = true
	}
	return fail
}

// loadAverage is the machine's one-minute load average; -1 where it cannot
// be read (then no run counts as quiet).
func loadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f, err := strconv.ParseFloat(strings.Fields(string(data) + " x")[0], 64)
	if err != nil {
		return -1
	}
	return f
}
