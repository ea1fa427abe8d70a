package main

import (
	"fmt"
	"slices"
	"strconv"
	"time"
)

// timed is one run of a program, or a hook's pre and post summed:
// its wall-clock time and, where the platform reports them, its minor and
// major page faults.
type timed struct {
	d              time.Duration
	minflt, majflt int64
	faults         bool // the platform reported the run's page faults
}

// plus is r and o run one after the other.
func (r timed) plus(o timed) timed {
	return timed{d: r.d + o.d, minflt: r.minflt + o.minflt, majflt: r.majflt + o.majflt, faults: r.faults && o.faults}
}

// A summary is a workload's timed runs: their median time and their page
// faults averaged per run (faults false if a run's were not reported).
type summary struct {
	d              time.Duration
	minflt, majflt float64
	faults         bool
}

func summarize(rs []timed) summary {
	if len(rs) == 0 {
		return summary{}
	}
	ds := make([]time.Duration, len(rs))
	s := summary{faults: true}
	for i, r := range rs {
		ds[i] = r.d
		s.minflt += float64(r.minflt)
		s.majflt += float64(r.majflt)
		s.faults = s.faults && r.faults
	}
	s.d = median(ds)
	if !s.faults {
		s.minflt, s.majflt = 0, 0
		return s
	}
	s.minflt /= float64(len(rs))
	s.majflt /= float64(len(rs))
	return s
}

// The timed tables: a workload's name, then for each side its time and its
// minor and major page faults per run, then the ratio of the two times.
const nameWidth = 48

var ratioFormat = "%-" + strconv.Itoa(nameWidth) + "s %9s %7s %6s %9s %7s %6s %7s\n"

// ratioHeader is the header line of a table of ratioLines; time and
// against name the two times' columns.
func ratioHeader(time, against string) string {
	return fmt.Sprintf(ratioFormat, "workload", time, "minflt", "majflt", against, "minflt", "majflt", "ratio")
}

// ratioLine is a workload's row: its summary, the one it is measured
// against (the floor, or the other side of a shell row) and their ratio.
func ratioLine(name string, s, against summary) string {
	minor, major := faultCells(s)
	aminor, amajor := faultCells(against)
	return fmt.Sprintf(ratioFormat, name, round(s.d), minor, major, round(against.d), aminor, amajor,
		fmt.Sprintf("%.2fx", ratio(s, against)))
}

// timeFormat lays out the rows of a table of times alone (commit time).
var timeFormat = "%-60s %9s %7s %6s\n"

func timeHeader() string { return fmt.Sprintf(timeFormat, "workload", "time", "minflt", "majflt") }

func timeLine(name string, s summary) string {
	minor, major := faultCells(s)
	return fmt.Sprintf(timeFormat, name, round(s.d), minor, major)
}

// faultCells are a summary's page faults as the tables print them: minor
// ones to the unit, major ones to a hundredth (they are rare on a warm
// page cache, so their mean is a fraction), "-" for each where the
// platform reports none.
func faultCells(s summary) (minor, major string) {
	if !s.faults {
		return "-", "-"
	}
	return strconv.FormatFloat(s.minflt, 'f', 0, 64), strconv.FormatFloat(s.majflt, 'f', 2, 64)
}

// faultsLegend says what the fault columns count.
const faultsLegend = "minflt, majflt: minor and major page faults per timed run, the mean over the runs (the rusage wait4 reports for\n" +
	"the process and the children it waited for; \"-\" where the platform has none); a shell row's run is a pre and a post"

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func round(d time.Duration) string { return d.Round(10 * time.Microsecond).String() }
