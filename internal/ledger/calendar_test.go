package ledger

import (
	"context"
	"github.com/intenthook/intenthook/internal/clocktest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// checkCalendar verifies the ledger and holds every segment to the rules
// of the calendar: its first line is stamped in the segment's month, the
// writer's numbers rise, and within each segment and
// across a writer's segments in number order no stamp goes back.
func checkCalendar(t *testing.T, root string) {
	t.Helper()
	mustVerify(t, root)
	segs, bad, err := ListSegments(root)
	if err != nil || len(bad) > 0 {
		t.Fatalf("segments: %v, bad %v", err, bad)
	}
	last, n := "", 0
	for _, s := range segs {
		if s.N <= n {
			t.Errorf("segment %s: number %d after %d", s.Rel, s.N, n)
		}
		n = s.N
		lines := segLines(t, root, s)
		if len(lines) == 0 || len(lines[0]) == 0 {
			continue
		}
		if m := month(string(stampBytes(lines[0]))); m != segMonth(s.Rel) {
			t.Errorf("%s opens with a record of %s", s.Rel, m)
		}
		for _, line := range lines {
			stamp := string(stampBytes(line))
			if stamp < last {
				t.Errorf("%s: stamp %s after %s", s.Rel, stamp, last)
			}
			last = stamp
		}
	}
}

// The ledger written across the year's last millisecond, a leap day and
// the end of a February without one: each segment is opened in the month
// of its first record, and the whole verifies.
func TestCalendarEdges(t *testing.T) {
	tests := []struct {
		name  string
		start string
		step  time.Duration
	}{
		{"year end", "2026-12-31T23:59:59.990Z", time.Millisecond},
		{"leap day", "2028-02-28T12:00:00Z", 6 * time.Hour},
		{"february", "2027-02-28T23:59:59.995Z", time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &clocktest.Clock{Now: clocktest.At(t, tt.start), Step: tt.step}
			l := newLedger(t)
			l.Now = c.Read
			l.SegmentBytes = 2500
			for i := range 12 {
				mustAppend(t, l, writeRecord("s", "a.go"))
				if i == 5 {
					// A torn line at the end of the month: the repair
					// record follows it.
					tear(t, l.Root)
				}
			}
			checkCalendar(t, l.Root)
			segs, _, _ := ListSegments(l.Root)
			first, last := segMonth(segs[0].Rel), segMonth(segs[len(segs)-1].Rel)
			if first == last {
				t.Errorf("every segment in %s: the test did not cross a month", first)
			}
		})
	}
}

// tear appends half a line to the active segment, as a process killed
// while it wrote leaves it.
func tear(t *testing.T, root string) {
	t.Helper()
	seg := ActiveSegment(root)
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(seg)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(`{"version":"0.1.0","id":"torn`); err != nil {
		t.Fatal(err)
	}
}

// A record spooled or a repair made after a later line is stamped no
// earlier than the line it follows: the spool drained by a writer whose
// clock is behind the tip's, and a torn segment another process opened
// in the next month, repaired by a process still in the month before.
func TestStampNoEarlierThanTip(t *testing.T) {
	t.Run("spool", func(t *testing.T) {
		l := newLedger(t)
		c := &clocktest.Clock{Now: clocktest.At(t, "2026-12-01T00:00:05Z"), Step: time.Second}
		l.Now = c.Read
		late := writeRecord("late", "a.go")
		late.Timestamp = "2026-11-30T23:59:58.000Z" // stamped before a wait
		if err := l.spool([]*Record{late}, context.DeadlineExceeded); err != nil {
			t.Fatal(err)
		}
		mustAppend(t, l, writeRecord("s1", "a.go"))
		c.Now = clocktest.At(t, "2026-11-30T23:59:50Z") // another process, behind
		l.SegmentBytes = 1                              // every record opens a segment
		mustAppend(t, l, writeRecord("s2", "a.go"))
		checkCalendar(t, l.Root)
	})
	t.Run("repair", func(t *testing.T) {
		l := newLedger(t)
		l.Now = (&clocktest.Clock{Now: clocktest.At(t, "2026-11-30T23:59:50Z"), Step: time.Second}).Read
		mustAppend(t, l, writeRecord("s1", "a.go"))
		// Another process opens the next segment in December and dies
		// in its first line.
		other := &Ledger{Root: l.Root, ToolVersion: "0.1.0", SegmentBytes: 1,
			Now: (&clocktest.Clock{Now: clocktest.At(t, "2026-12-01T00:00:01Z"), Step: time.Second}).Read}
		mustAppend(t, other, writeRecord("s2", "a.go"))
		tear(t, l.Root)
		if err := os.Truncate(filepath.Join(l.Root, filepath.FromSlash(ActiveSegment(l.Root))), 10); err != nil {
			t.Fatal(err)
		}
		mustAppend(t, l, writeRecord("s3", "a.go"))
		checkCalendar(t, l.Root)
	})
}

// A writer's clock steps back an hour across the first of the month
// between two branches' appends: the segment it opens next is in November,
// numbered after December's. Segments follow their numbers alone: the
// chain verifies, and a reading of records since a moment finds the
// December segment before the November one.
func TestClockStepsBackAcrossMonth(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	l := newLedger(t)
	c := &clocktest.Clock{Now: clocktest.At(t, "2026-11-30T23:50:00Z"), Step: time.Second}
	l.Now = c.Read
	git := func(args ...string) { t.Helper(); runGit(t, l.Root, args...) }
	git("init", "-q", "-b", "main")
	git("commit", "-q", "--allow-empty", "-m", "base")
	mustAppend(t, l, writeRecord("s1", "a.go"))
	git("checkout", "-q", "-b", "topic")
	c.Now = clocktest.At(t, "2026-12-01T00:10:00Z")
	mustAppend(t, l, writeRecord("s2", "a.go"))
	c.Now = clocktest.At(t, "2026-11-30T23:10:00Z") // NTP steps the clock back
	git("checkout", "-q", "main")
	mustAppend(t, l, writeRecord("s3", "a.go"))
	mustAppend(t, l, writeRecord("s4", "a.go"))

	segs, _, _ := ListSegments(l.Root)
	var got []string
	for _, s := range segs {
		got = append(got, segMonth(s.Rel))
	}
	if want := []string{"2026-11", "2026-12", "2026-11"}; !slices.Equal(got, want) {
		t.Fatalf("segments in months %v, want %v", got, want)
	}
	mustVerify(t, l.Root)
	if prev := previousSegment(l.Root, segs[2].Rel); prev != segs[1].Rel {
		t.Errorf("segment before %s: %q, want %s", segs[2].Rel, prev, segs[1].Rel)
	}
	// A head file naming the third segment (main's) reads back through
	// the second (topic's, December) to the first; the records come in
	// the order of their stamps, main's raised to its tip's (23:50:01).
	recs, err := ReadSince(l.Root, clocktest.At(t, "2026-11-30T00:00:00Z"), 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sessions(recs), []string{"s1#1", "s3#2", "s4#3", "s2#2"}; !slices.Equal(got, want) {
		t.Errorf("records since: %v, want %v", got, want)
	}
}
