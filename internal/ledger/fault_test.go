//go:build ledgerfault

package ledger

import (
	"context"
	"errors"
	"fmt"
	"github.com/intenthook/intenthook/internal/clocktest"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperClockEnv is the time the helper's ledger clock starts at.
const helperClockEnv = "INTENTHOOK_LEDGER_HELPER_CLOCK"

// TestHelperFault is not a test: it is a process TestKilled starts, which
// appends one record and is killed at the fault point its environment names.
func TestHelperFault(t *testing.T) {
	root := os.Getenv(helperRootEnv)
	if root == "" {
		t.Skip("helper process for TestKilled")
	}
	start, err := time.Parse(time.RFC3339Nano, os.Getenv(helperClockEnv))
	if err != nil {
		t.Fatalf("helper clock: %v", err)
	}
	c := &clocktest.Clock{Now: start, Step: time.Second}
	l := &Ledger{Root: root, ToolVersion: "test", SegmentBytes: 2500, Now: c.Read}
	if err := l.Append(context.Background(), writeRecord("killed", "k.go")); err != nil {
		t.Fatal(err)
	}
	t.Fatal("not killed")
}

// A process killed with SIGKILL while it appends a line, or while it seals
// a segment and starts the next, loses no line already written: the next
// append repairs what it left (a torn line goes to state/), every chain
// verifies, and no segment is written to after it was sealed. The killed
// process's clock is the test's, or a month ahead of it: the post that
// repairs was stamped in November before it waited on the lock, the one
// killed opened a December segment.
func TestKilled(t *testing.T) {
	for _, point := range []string{faultAppend, faultSealCount, faultSealCreated} {
		for _, full := range []bool{false, true} {
			for _, ahead := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s full=%v ahead=%v", point, full, ahead), func(t *testing.T) {
					killed(t, point, full, ahead)
				})
			}
		}
	}
}

func killed(t *testing.T, point string, full, ahead bool) {
	l := newLedger(t)
	c := &clocktest.Clock{Now: clocktest.At(t, "2026-11-30T23:59:50Z"), Step: time.Second}
	l.Now = c.Read
	l.SegmentBytes = 2500
	n := 1
	if full {
		n = 3 // past 2500 bytes: the next append seals
	}
	for i := range n {
		mustAppend(t, l, writeRecord(fmt.Sprint("s", i), "a.go"))
	}
	helperStart := c.Now
	if ahead {
		helperStart = clocktest.At(t, "2026-12-01T00:00:00Z")
	}
	before := ledgerBytes(t, l.Root)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperFault$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperRootEnv+"="+l.Root, "INTENTHOOK_LEDGER_FAULT="+point,
		helperClockEnv+"="+helperStart.Format(time.RFC3339Nano))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		if point != faultAppend && !full {
			return // no seal happened: nothing to kill
		}
		t.Fatalf("helper not killed: %v\n%s", err, out)
	}
	mustAppend(t, l, writeRecord("after", "b.go"))
	mustAppend(t, l, writeRecord("after2", "b.go"))
	rep := mustVerify(t, l.Root)
	checkCalendar(t, l.Root)
	if !strings.HasPrefix(string(ledgerBytes(t, l.Root)), string(before)) && !full {
		t.Error("a line written before the kill changed")
	}
	recs, _ := Select(l.Root, Query{})
	var got []string
	for _, r := range recs {
		got = append(got, r.Metadata.Intenthook.SessionID+"/"+string(r.Metadata.Intenthook.Event))
	}
	want := n + 2
	if point == faultAppend {
		want++ // the repair record of the torn line
	}
	if rep.Records != want || len(recs) != want {
		t.Errorf("records %d (%q), want %d", rep.Records, got, want)
	}
	if len(rep.Roots()) != 1 {
		t.Errorf("%d chains start from nothing, want 1: %v", len(rep.Roots()), rep.Roots())
	}
}
