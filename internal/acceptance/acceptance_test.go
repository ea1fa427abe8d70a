package acceptance

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/intents"
)

func TestRun(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "marker"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		c       intents.Criterion
		confirm bool
		want    Outcome
		code    int
		output  string
	}{
		{"check passes from root", intents.Criterion{Description: "d", Check: "test -f marker && echo found"}, false, Passed, 0, "found\n"},
		{"check fails", intents.Criterion{Description: "d", Check: "echo broken >&2; exit 3"}, false, Failed, 3, "broken\n"},
		{"check times out", intents.Criterion{Description: "d", Check: "sleep 5"}, false, TimedOut, -1, ""},
		{"string needs confirmation", intents.Criterion{Description: "reviewed"}, false, Manual, 0, ""},
		{"string confirmed", intents.Criterion{Description: "reviewed"}, true, Confirmed, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Room for a loaded machine, except where the timeout is the point.
			timeout := 20 * time.Second
			if tt.want == TimedOut {
				timeout = 300 * time.Millisecond
			}
			rs := Run(context.Background(), root, []intents.Criterion{tt.c}, timeout, tt.confirm)
			r := rs[0]
			if r.Outcome != tt.want || r.ExitCode != tt.code || r.Output != tt.output {
				t.Fatalf("got %+v", r)
			}
		})
	}
}

// TestTimeoutKillsTheCheck: a timed-out check's own children die with it.
func TestTimeoutKillsTheCheck(t *testing.T) {
	root := t.TempDir()
	pidFile := filepath.Join(root, "pid")
	rs := Run(context.Background(), root, []intents.Criterion{{Description: "d", Check: "sleep 30 & echo $! > pid; wait"}}, 300*time.Millisecond, false)
	if rs[0].Outcome != TimedOut {
		t.Fatalf("got %+v", rs[0])
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// Signal 0 probes: the process must be gone (reaped by init, or a zombie
	// no longer running sleep).
	deadline := time.Now().Add(5 * time.Second)
	for processRunning(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the check's child %d outlived the timeout", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func processRunning(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// State field after "(comm) ": Z is a zombie, already dead.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z'
}

func TestAllOKAndTail(t *testing.T) {
	if AllOK([]Result{{Outcome: Passed}, {Outcome: Manual}}) || !AllOK([]Result{{Outcome: Passed}, {Outcome: Confirmed}}) {
		t.Error("AllOK")
	}
	long := strings.Repeat("a", maxOutput) + "END"
	if got := tail([]byte(long)); !strings.HasSuffix(got, "END") || len(got) > maxOutput+len("…") {
		t.Errorf("tail kept %d bytes", len(got))
	}
}

func TestLesson(t *testing.T) {
	for _, tc := range []struct {
		name   string
		r      Result
		want   string
		failed bool
	}{
		{"passed", Result{Check: "true", Outcome: Passed}, "", false},
		{"manual", Result{Outcome: Manual}, "", false},
		{"failed, last lines", Result{Check: "go test", Outcome: Failed, ExitCode: 1, Output: "a\nb\n\nc\nd\n"}, "check `go test` failed (exit 1); last lines: b / c / d", true},
		{"no output", Result{Check: "false", Outcome: Failed, ExitCode: 1}, "check `false` failed (exit 1)", true},
		{"timed out", Result{Check: "sleep 9", Outcome: TimedOut, ExitCode: -1, Output: "x"}, "check `sleep 9` timed out; last lines: x", true},
		{"backquote", Result{Check: "echo `x`", Outcome: Failed, ExitCode: 2}, "check `echo 'x'` failed (exit 2)", true},
	} {
		got, failed := Lesson(tc.r)
		if got != tc.want || failed != tc.failed {
			t.Errorf("%s: Lesson = %q, %v; want %q, %v", tc.name, got, failed, tc.want, tc.failed)
		}
	}
}

// TestReapDetached: a check's process that left its group and session
// (setsid) is ended and waited for before Run returns, when Reap is set;
// a check that leaves nothing says nothing.
func TestReapDetached(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a child subreaper is Linux's")
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid here")
	}
	defer func(was bool) { Reap = was }(Reap)
	Reap = true
	root := t.TempDir()
	rs := Run(context.Background(), root, []intents.Criterion{
		{Description: "leaves one", Check: "setsid sh -c 'sleep 30' </dev/null >/dev/null 2>&1 & echo $! > pid; exit 1"},
		{Description: "leaves none", Check: "true"},
	}, 10*time.Second, false)
	if rs[0].Outcome != Failed || !strings.Contains(rs[0].Output, "the check left running]") {
		t.Fatalf("got %+v", rs[0])
	}
	if rs[1].Outcome != Passed || rs[1].Output != "" {
		t.Fatalf("got %+v", rs[1])
	}
	data, err := os.ReadFile(filepath.Join(root, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if processRunning(pid) {
		t.Fatalf("the detached process %d outlived Run", pid)
	}
}
