package ledger

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	helperRootEnv   = "INTENTHOOK_LEDGER_HELPER_ROOT"
	helperWorkerEnv = "INTENTHOOK_LEDGER_HELPER_WORKER"
	helperWaitEnv   = "INTENTHOOK_LEDGER_HELPER_LOCK_TIMEOUT"
	helperSegEnv    = "INTENTHOOK_LEDGER_HELPER_SEGMENT_BYTES"
	helperProcs     = 8
	helperRecords   = 50
)

// TestHelperAppend is not a test: it is the body of one of the processes
// TestConcurrentProcesses starts, appending helperRecords records one by one,
// as hooks do, one process per tool call.
func TestHelperAppend(t *testing.T) {
	root := os.Getenv(helperRootEnv)
	if root == "" {
		t.Skip("helper process for TestConcurrentProcesses")
	}
	worker := os.Getenv(helperWorkerEnv)
	wait, _ := time.ParseDuration(os.Getenv(helperWaitEnv))
	segBytes, _ := strconv.ParseInt(os.Getenv(helperSegEnv), 10, 64)
	l := &Ledger{Root: root, ToolVersion: "test", LockTimeout: wait, SegmentBytes: segBytes}
	spooled := 0
	for i := range helperRecords {
		r := writeRecord(worker, fmt.Sprintf("w%s/%d.go", worker, i))
		r.Metadata.Intenthook.ToolUseID = strconv.Itoa(i)
		if err := l.Append(context.Background(), r); err != nil {
			t.Fatalf("append: %v", err)
		}
		if r.Metadata.Intenthook.Seq == 0 { // no place in the chain yet
			spooled++
		}
	}
	fmt.Printf("spooled=%d\n", spooled)
}

// Eight real processes append at once: every line is whole, none is lost,
// seq rises by one, the chain verifies, and each writer's records keep their
// order. With a lock timeout of a millisecond most records go through the
// spool, and still none is lost or reordered.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for _, wait := range []string{"2s", "1ms"} {
		t.Run("lock timeout "+wait, func(t *testing.T) { concurrentAppends(t, wait, helperProcs, 0) })
	}
	// Sixteen writers across rollovers: a segment is sealed every few
	// records, and still no line is lost, none written twice, and every
	// segment's chain holds.
	t.Run("16 writers across rollovers", func(t *testing.T) {
		concurrentAppends(t, "2s", 16, 8<<10)
	})
}

func concurrentAppends(t *testing.T, wait string, helperProcs int, segBytes int64) {
	root := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, helperProcs)
	spooled := make([]int, helperProcs)
	start := time.Now()
	for w := range helperProcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAppend$", "-test.count=1")
			cmd.Env = append(os.Environ(), helperRootEnv+"="+root, helperWorkerEnv+"="+strconv.Itoa(w), helperWaitEnv+"="+wait, helperSegEnv+"="+strconv.FormatInt(segBytes, 10))
			out, err := cmd.CombinedOutput()
			if err != nil {
				errs[w] = fmt.Errorf("worker %d: %v\n%s", w, err, out)
			}
			if _, n, ok := strings.Cut(string(out), "spooled="); ok {
				spooled[w], _ = strconv.Atoi(strings.Fields(n)[0])
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	for _, n := range spooled {
		total += n
	}
	t.Logf("%d processes × %d appends in %v, %d through the spool", helperProcs, helperRecords, time.Since(start), total)
	if wait == "1ms" && total == 0 {
		t.Error("no record went through the spool: the test does not test it")
	}

	// A writer that lost the lock race at the very end spooled; the next
	// writer, as in real use, drains it.
	if err := (&Ledger{Root: root}).Append(context.Background()); err != nil {
		t.Fatal(err)
	}

	recs := checkChain(t, ledgerLines(t, root))
	if len(recs) != helperProcs*helperRecords {
		t.Fatalf("%d lines, want %d", len(recs), helperProcs*helperRecords)
	}
	next := map[string]int{}
	for _, r := range recs {
		m := r.Metadata.Intenthook
		if want := strconv.Itoa(next[m.SessionID]); m.ToolUseID != want {
			t.Errorf("worker %s: record %s at seq %d, want %s", m.SessionID, m.ToolUseID, m.Seq, want)
		}
		next[m.SessionID]++
		if !strings.HasPrefix(r.Files[0].Path, "w"+m.SessionID+"/") {
			t.Errorf("seq %d: record mixed up: %+v", m.Seq, r)
		}
	}
	if len(next) != helperProcs {
		t.Errorf("%d writers in the ledger, want %d", len(next), helperProcs)
	}
	rep := mustVerify(t, root)
	if rep.Records != helperProcs*helperRecords || len(rep.Forks) != 0 {
		t.Errorf("verify: %d records, forks %v", rep.Records, rep.Forks)
	}
	segs, _, err := ListSegments(root)
	if err != nil {
		t.Fatal(err)
	}
	if segBytes > 0 && int64(len(segs)) < int64(len(ledgerBytes(t, root)))/(2*segBytes) {
		t.Errorf("%d segments for %d bytes at %d a segment", len(segs), len(ledgerBytes(t, root)), segBytes)
	}
	for _, s := range segs {
		st, _ := os.Stat(filepath.Join(root, filepath.FromSlash(s.Rel)))
		if segBytes > 0 && st.Size() > segBytes+MaxLine {
			t.Errorf("%s: %d bytes, past the segment size", s.Rel, st.Size())
		}
	}
}
