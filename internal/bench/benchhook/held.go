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

// A check is one held number against the ratio a run measured.
type check struct {
	name         string
	ratio, limit float64
}

func (c check) met() bool { return c.ratio <= c.limit }

// holds gathers the checks of a run, in the order the rows were printed.
type holds struct{ checks []check }

// held is the run's checks: the rows add to it as they are measured.
var held holds

func (h *holds) add(name string, ratio, limit float64) {
	h.checks = append(h.checks, check{name, ratio, limit})
}

// ratio is s's time over against's.
func ratio(s, against summary) float64 { return float64(s.d) / float64(against.d) }

// report prints each check and the load the machine was under, and says
// whether the run fails: a held number exceeded on a quiet machine, whose
// load average was below quiet at the start and below quiet+1 at the end
// (the benchmark's own processes, one at a time, add about 1). On a busy
// machine the figures are noise, and it is said.
func (h *holds) report(w io.Writer, loadBefore, loadAfter, quiet float64) (fail bool) {
	if len(h.checks) == 0 {
		return false
	}
	fmt.Fprintf(w, "\nheld numbers (load average %.2f at the start, %.2f at the end; quiet: below %.2f, then %.2f):\n", loadBefore, loadAfter, quiet, quiet+1)
	exceeded := 0
	for _, c := range h.checks {
		verdict := "met"
		if !c.met() {
			verdict = "EXCEEDED"
			exceeded++
		}
		fmt.Fprintf(w, "  %-48s %5.2fx  held %4.2fx  %s\n", c.name, c.ratio, c.limit, verdict)
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
