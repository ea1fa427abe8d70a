package lessons

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	helperRootEnv   = "INTENTHOOK_LESSONS_HELPER_ROOT"
	helperWorkerEnv = "INTENTHOOK_LESSONS_HELPER_WORKER"
	helperProcs     = 8
	helperLessons   = 20
)

// helperLesson is lesson i of a worker; lesson 0 is the same for every
// worker, so that all of them count it on one line. Nothing is folded
// (TestFold checks folding): every line must be there.
func helperLesson(worker string, i int) Lesson {
	l := Lesson{Time: t0, Code: "SCOPE_VIOLATION", Intent: "INT-001", Tool: "Write", Message: "outside", Keep: 10000}
	l.Path = fmt.Sprintf("w%s/f%02d.go", worker, i)
	if i == 0 {
		l.Path = "shared.go"
	}
	return l
}

// TestHelperProcess is not a test: it is the body of one of the processes
// TestConcurrentProcesses starts, recording its lessons one call at a time,
// as hooks do, one process per tool call.
func TestHelperProcess(t *testing.T) {
	root := os.Getenv(helperRootEnv)
	if root == "" {
		t.Skip("helper process for TestConcurrentProcesses")
	}
	worker := os.Getenv(helperWorkerEnv)
	for i := range helperLessons {
		if err := Record(context.Background(), root, "", 20*time.Second, helperLesson(worker, i)); err != nil {
			t.Fatal(err)
		}
	}
}

// Eight real processes record lessons at once: each distinct lesson is in
// the file exactly once, and the lesson they all share is counted once per
// process. A lost update (two read-modify-writes interleaved) loses lines or
// counts.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	root := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, helperProcs)
	for w := range helperProcs {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), helperRootEnv+"="+root, fmt.Sprintf("%s=%d", helperWorkerEnv, w))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[w] = fmt.Errorf("worker %d: %v\n%s", w, err, out)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(DefaultFile)))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for w := range helperProcs {
		for i := 1; i < helperLessons; i++ {
			line := "- [2026-11-22T10:00:00Z] SCOPE_VIOLATION: INT-001 Write `" + helperLesson(fmt.Sprint(w), i).Path + "`: outside\n"
			if n := strings.Count(text, line); n != 1 {
				t.Errorf("%q written %d times, want 1", line, n)
			}
		}
	}
	shared := fmt.Sprintf("- [2026-11-22T10:00:00Z] SCOPE_VIOLATION: INT-001 Write `shared.go`: outside (×%d, last 2026-11-22T10:00:00Z)\n", helperProcs)
	if n := strings.Count(text, "`shared.go`"); n != 1 || !strings.Contains(text, shared) {
		t.Errorf("the shared lesson is not one line %q", shared)
	}
	if want := helperProcs*(helperLessons-1) + 1; strings.Count(text, "\n- [") != want {
		t.Errorf("%d lessons, want %d", strings.Count(text, "\n- ["), want)
	}
	if t.Failed() {
		t.Logf("file:\n%s", text)
	}
}
