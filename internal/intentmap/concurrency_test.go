package intentmap

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
	helperRootEnv   = "INTENTHOOK_INTENTMAP_HELPER_ROOT"
	helperWorkerEnv = "INTENTHOOK_INTENTMAP_HELPER_WORKER"
	helperProcs     = 8
	helperChanges   = 20
	helperIntents   = 3
)

// helperChange is change i of a worker: files spread over a few intents, so
// that processes race to create the same sections, every fourth one an
// evolution.
func helperChange(worker string, i int) Change {
	id := fmt.Sprintf("INT-%03d", i%helperIntents+1)
	c := add(id, "Intent "+id, fmt.Sprintf("w%s/f%02d.go", worker, i))
	if i%4 == 3 {
		c.Kind = Evolved
	}
	return c
}

// TestHelperProcess is not a test: it is the body of one of the processes
// TestConcurrentProcesses starts, applying its changes one call at a time,
// as hooks do, one process per tool call.
func TestHelperProcess(t *testing.T) {
	root := os.Getenv(helperRootEnv)
	if root == "" {
		t.Skip("helper process for TestConcurrentProcesses")
	}
	worker := os.Getenv(helperWorkerEnv)
	for i := range helperChanges {
		if err := Apply(context.Background(), root, 20*time.Second, helperChange(worker, i)); err != nil {
			t.Fatal(err)
		}
	}
}

// Eight real processes apply changes at once: each change is in the map
// exactly once, in its intent's section, and the map has one section per
// intent. A lost update (two read-modify-writes interleaved) loses lines.
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

	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(File)))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for k := 1; k <= helperIntents; k++ {
		if n := strings.Count(text, fmt.Sprintf("\n## INT-%03d:", k)); n != 1 {
			t.Errorf("INT-%03d has %d sections, want 1", k, n)
		}
	}
	for w := range helperProcs {
		for i := range helperChanges {
			c := helperChange(fmt.Sprint(w), i)
			if n := strings.Count(text, "- `"+c.Path+"`\n"); n != 1 {
				t.Errorf("%s listed %d times, want 1", c.Path, n)
			}
			evolution := "`" + c.Path + "` — INTENT_EVOLUTION\n"
			if want := map[bool]int{true: 1}[c.Kind == Evolved]; strings.Count(text, evolution) != want {
				t.Errorf("%s has %d evolution lines, want %d", c.Path, strings.Count(text, evolution), want)
			}
			files, err := Files(root, c.IntentID)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(files, "\n")+"\n", c.Path+"\n") {
				t.Errorf("%s not under %s's Files", c.Path, c.IntentID)
			}
		}
	}
	if t.Failed() {
		t.Logf("map:\n%s", text)
	}
}
