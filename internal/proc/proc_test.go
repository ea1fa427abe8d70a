package proc

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestChain(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no process information here")
	}
	self, ok := Self()
	if !ok {
		t.Fatal("Self: nothing")
	}
	if self.PID != os.Getpid() || self.PPID != os.Getppid() {
		t.Errorf("Self = %+v, pid %d ppid %d", self, os.Getpid(), os.Getppid())
	}
	if d := time.Since(self.Start); d < 0 || d > time.Hour {
		t.Errorf("started %v ago", d)
	}
	chain := Chain()
	if len(chain) == 0 || chain[0].PID != self.PID {
		t.Fatalf("Chain = %+v", chain)
	}
	// A child in a session of its own has no controlling terminal, and
	// names its parent.
	if runtime.GOOS == "linux" {
		cmd := exec.Command("setsid", "sleep", "1")
		if err := cmd.Start(); err != nil {
			t.Skip("no setsid")
		}
		defer cmd.Wait()
		time.Sleep(100 * time.Millisecond)
		p, ok := Get(cmd.Process.Pid)
		if !ok || p.TTY || p.SID != p.PID || p.PPID != os.Getpid() {
			t.Errorf("setsid child = %+v, %v", p, ok)
		}
	}
}

// The host of a process run through a shell and env is the process that
// ran the shell: the shell and env only pass the call on.
func TestHost(t *testing.T) {
	if os.Getenv("INTENTHOOK_PROC_HOST") == "1" {
		h, ok := Host()
		fmt.Printf("host %d %v\n", h.PID, ok)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("process names are read from /proc here")
	}
	// "; true" keeps the shell from replacing itself with env.
	out, err := exec.Command("sh", "-c", `env INTENTHOOK_PROC_HOST=1 "$0" -test.run='^TestHost$' -test.count=1; true`, os.Args[0]).Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if want := fmt.Sprintf("host %d true\n", os.Getpid()); !strings.HasPrefix(string(out), want) {
		t.Errorf("helper printed %q, want %q first", out, want)
	}
}
