package main

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name string
		runs []timed
		want summary
	}{
		{"one run", []timed{{d: 3 * ms, minflt: 300, majflt: 1, faults: true}},
			summary{d: 3 * ms, minflt: 300, majflt: 1, faults: true}},
		{"median time, mean faults", []timed{
			{d: 5 * ms, minflt: 310, faults: true},
			{d: 2 * ms, minflt: 300, majflt: 3, faults: true},
			{d: 3 * ms, minflt: 320, faults: true},
		}, summary{d: 3 * ms, minflt: 310, majflt: 1, faults: true}},
		{"even count: the upper middle", []timed{{d: 4 * ms, faults: true}, {d: 1 * ms, faults: true}}, summary{d: 4 * ms, faults: true}},
		{"a run without faults: none", []timed{
			{d: 2 * ms, minflt: 300, faults: true},
			{d: 3 * ms},
			{d: 4 * ms, minflt: 320, faults: true},
		}, summary{d: 3 * ms}},
		{"no runs", nil, summary{}},
	} {
		if got := summarize(c.runs); got != c.want {
			t.Errorf("%s: summarize = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestPlus(t *testing.T) {
	pre := timed{d: time.Millisecond, minflt: 300, majflt: 1, faults: true}
	post := timed{d: 2 * time.Millisecond, minflt: 320, faults: true}
	if got, want := pre.plus(post), (timed{d: 3 * time.Millisecond, minflt: 620, majflt: 1, faults: true}); got != want {
		t.Errorf("plus = %+v, want %+v", got, want)
	}
	if got := pre.plus(timed{d: time.Millisecond}); got.faults {
		t.Errorf("plus of a run without faults = %+v, want no faults", got)
	}
}

func TestRatioLine(t *testing.T) {
	floor := summary{d: 2 * time.Millisecond, minflt: 212.4, majflt: 0, faults: true}
	for _, c := range []struct {
		name     string
		s, floor summary
		want     []string // the cells after the workload's name
	}{
		{"faults", summary{d: 3 * time.Millisecond, minflt: 306.5, majflt: 0.025, faults: true}, floor,
			[]string{"3ms", "306", "0.03", "2ms", "212", "0.00", "1.50x"}},
		{"major faults whole", summary{d: 2500 * time.Microsecond, minflt: 1000, majflt: 12, faults: true}, floor,
			[]string{"2.5ms", "1000", "12.00", "2ms", "212", "0.00", "1.25x"}},
		{"none reported", summary{d: 3210 * time.Microsecond}, summary{d: 2140 * time.Microsecond},
			[]string{"3.21ms", "-", "-", "2.14ms", "-", "-", "1.50x"}},
		{"one side reported", summary{d: 3 * time.Millisecond}, floor,
			[]string{"3ms", "-", "-", "2ms", "212", "0.00", "1.50x"}},
	} {
		name := "pre  (Write in scope, 200 intents, 100k)"
		line := ratioLine(name, c.s, c.floor)
		if !strings.HasPrefix(line, name+" ") || !strings.HasSuffix(line, "\n") {
			t.Errorf("%s: %q does not start with the workload or end a line", c.name, line)
			continue
		}
		if got := strings.Fields(line[len(name):]); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: cells %q, want %q", c.name, got, c.want)
		}
		// Every row's columns line up with the header's.
		header := ratioHeader("median", "floor")
		if len(line) != len(header) {
			t.Errorf("%s: row %q and header %q differ in width", c.name, line, header)
		}
		if i, j := strings.LastIndex(header, "ratio"), strings.LastIndex(line, "x"); i+len("ratio") != j+1 {
			t.Errorf("%s: the ratio ends at %d, its header at %d", c.name, j+1, i+len("ratio"))
		}
	}
}

func TestTimeLine(t *testing.T) {
	for _, c := range []struct {
		s    summary
		want []string
	}{
		{summary{d: 25 * time.Millisecond, minflt: 1500.4, majflt: 2, faults: true}, []string{"25ms", "1500", "2.00"}},
		{summary{d: 680 * time.Millisecond}, []string{"680ms", "-", "-"}},
	} {
		line := timeLine("ledger verify, 1000000 records", c.s)
		if got := strings.Fields(strings.TrimPrefix(line, "ledger verify, 1000000 records")); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("timeLine(%+v) cells %q, want %q", c.s, got, c.want)
		}
		if len(line) != len(timeHeader()) {
			t.Errorf("row %q and header %q differ in width", line, timeHeader())
		}
	}
}

// A process's page faults are read where the platform reports them: a Go
// process faults in some pages to start at all.
func TestPageFaults(t *testing.T) {
	if _, _, ok := pageFaults(nil); ok {
		t.Error("pageFaults(nil) reported faults")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	minflt, majflt, ok := pageFaults(cmd.ProcessState)
	switch runtime.GOOS {
	case "linux", "darwin", "freebsd", "netbsd", "openbsd", "dragonfly":
		if !ok || minflt+majflt == 0 {
			t.Errorf("pageFaults = %d, %d, %v; want the process's faults", minflt, majflt, ok)
		}
	case "windows", "plan9", "js", "wasip1":
		if ok {
			t.Errorf("pageFaults reported faults on %s", runtime.GOOS)
		}
	}
}
