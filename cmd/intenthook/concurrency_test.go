package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/intenthook/intenthook/internal/ledger"
)

// binary returns the hook binary as make build makes it, intenthook-full
// beside it: processes of the race-instrumented test binary would take ten
// times as long, and what these tests hold (locks, the chain, the answers
// clients read) is the shipped binaries'.
func binary(t *testing.T) string {
	t.Helper()
	return buildShipped(t)
}

const concurrencyCatalog = `active_intents:
  - {id: INT-001, name: Shared, status: IN_PROGRESS, owned_scope: ["src/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
`

// TestConcurrentPostProcesses starts 8 workers, each running 40 real
// `intenthook post` processes back to back, all appending to one ledger at
// once: every line must parse, no record may be missing, seq must rise by
// one and the hash chain must hold.
func TestConcurrentPostProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 320 processes")
	}
	bin := binary(t)
	root := t.TempDir()
	mustWriteFile(t, filepath.Join(root, ".orchestration/active_intents.yaml"), concurrencyCatalog)
	mustWriteFile(t, filepath.Join(root, ".orchestration/state/default.json"), `{"intent_id":"INT-001"}`)
	// Under a loaded CI machine a 2 s lock wait can run out; records would
	// still be spooled, but the intent map would warn on stderr.
	mustWriteFile(t, filepath.Join(root, ".orchestration/config.yaml"), "lock_timeout: 20s\n")
	const workers, perWorker = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, workers*perWorker)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < perWorker; i++ {
				file := fmt.Sprintf("src/w%d/f%d.go", w, i)
				mustWriteFile(t, filepath.Join(root, file), fmt.Sprintf("package w%d\n", w))
				ev := fmt.Sprintf(`{"session_id":"s%d","cwd":%q,"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":%q},"tool_response":{"type":"create"},"tool_use_id":"t-%d-%d"}`,
					w, root, filepath.Join(root, file), w, i)
				cmd := exec.Command(bin, "post")
				cmd.Stdin = bytes.NewReader([]byte(ev))
				if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
					errs <- fmt.Errorf("post %s: %v %s", file, err, out)
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// A record that met a busy lock waits in the spool for the next writer;
	// be that writer, so that "nothing lost" is checked in the ledger.
	if err := (&ledger.Ledger{Root: root}).Append(context.Background()); err != nil {
		t.Fatal(err)
	}

	f := bytes.NewReader(ledgerFileBytes(t, root))
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var seq int64
	for sc.Scan() {
		var r ledger.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d does not parse: %v", seq+1, err)
		}
		seq++
		if r.Metadata.Intenthook.Seq != seq {
			t.Fatalf("line %d has seq %d", seq, r.Metadata.Intenthook.Seq)
		}
		if len(r.Files) != 1 || seen[r.Files[0].Path] {
			t.Fatalf("line %d: files %+v (duplicate or missing)", seq, r.Files)
		}
		seen[r.Files[0].Path] = true
	}
	if len(seen) != workers*perWorker {
		t.Fatalf("%d records, want %d", len(seen), workers*perWorker)
	}
	if rep := ledger.Verify(root); !rep.OK() || rep.Records != workers*perWorker {
		t.Fatalf("verify: %+v", rep)
	}
}

func mustWriteFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Error(err)
		return
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Error(err)
	}
}

// TestExclusiveSelectionRace: with exclusive_intents, sessions selecting the
// same intent at the same moment cannot both win.
func TestExclusiveSelectionRace(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 40 processes")
	}
	bin := binary(t)
	for round := 0; round < 10; round++ {
		root := t.TempDir()
		mustWriteFile(t, filepath.Join(root, ".orchestration/active_intents.yaml"), concurrencyCatalog)
		mustWriteFile(t, filepath.Join(root, ".orchestration/config.yaml"), "exclusive_intents: true\nlock_timeout: 20s\n")
		const sessions = 4
		codes := make([]int, sessions)
		var wg sync.WaitGroup
		for s := 0; s < sessions; s++ {
			wg.Add(1)
			go func(s int) {
				defer wg.Done()
				ev := fmt.Sprintf(`{"session_id":"s%d","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"intenthook select INT-001"},"tool_use_id":"t%d"}`, s, root, s)
				cmd := exec.Command(bin, "pre")
				cmd.Stdin = bytes.NewReader([]byte(ev))
				err := cmd.Run()
				if ee, ok := err.(*exec.ExitError); ok {
					codes[s] = ee.ExitCode()
				} else if err != nil {
					codes[s] = -1
				}
			}(s)
		}
		wg.Wait()
		winners := 0
		for _, c := range codes {
			switch c {
			case 0:
				winners++
			case 2:
			default:
				t.Fatalf("round %d: exit codes %v", round, codes)
			}
		}
		if winners != 1 {
			t.Fatalf("round %d: %d sessions hold the exclusive intent (exit codes %v)", round, winners, codes)
		}
	}
}
