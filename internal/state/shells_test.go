package state

import (
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/proc"
)

func TestAgentAct(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	windows := parseWindows([]byte(
		"+ YjE czE "+itoa(at(0))+" 500 400 0\n"+ // s1's command b1, 10:00:00 to 10:00:10
			"- YjE "+itoa(at(10))+"\n"+
			"+ YjI czI "+itoa(at(100))+" 700 700 1\n"+ // s2's, run in a terminal, never closed
			"+ YjM czI "+itoa(at(200))+" 700 700 1\n"+ // s2's next: b2 ends here
			"+ YjQ czM "+itoa(at(250))+" 900 900 0\n"+ // s3's, headless (no terminal), still running
			"@ YjQ 90 "+itoa(at(-1000))+"\n"+ // its host: process 90
			"@ Yjk 91 "+itoa(at(-1000))+"\n", // a host line for no command: skipped
	), at(300))
	if len(windows) != 4 || !windows[1].End.Equal(at(200)) || !windows[2].End.IsZero() || !windows[3].End.IsZero() {
		t.Fatalf("windows %+v", windows)
	}
	if w := windows[3]; w.HostPID != 90 || !w.HostStart.Equal(at(-1000)) || windows[0].HostPID != 0 {
		t.Fatalf("hosts %+v", windows)
	}
	host := proc.Info{PID: 90, PPID: 80, PGID: 90, SID: 900, Start: at(-1000)}
	orphan := func(p proc.Info) bool { return p.PPID == 1 }
	for _, c := range []struct {
		name    string
		chain   []proc.Info
		session string
	}{
		{"a setsid child of s1's command, reparented to init", []proc.Info{{PID: 9, PPID: 8, PGID: 9, SID: 9, Start: at(50)}, {PID: 8, PPID: 1, PGID: 8, SID: 8, Start: at(5)}}, "s1"},
		{"the same, still its parent's", []proc.Info{{PID: 9, PPID: 8, Start: at(50)}, {PID: 8, PPID: 7, Start: at(5)}, {PID: 7, PPID: 1, Start: at(-50)}}, ""},
		{"started after the window", []proc.Info{{PID: 8, PPID: 1, Start: at(20)}}, ""},
		{"a person's terminal opened during the window", []proc.Info{{PID: 9, PPID: 8, PGID: 9, SID: 8, TTY: true, Start: at(5)}, {PID: 8, PPID: 1, SID: 8, Start: at(5)}}, ""},
		{"in the group of s2's agent, which has a terminal", []proc.Info{{PID: 9, PPID: 1, PGID: 700, SID: 7, TTY: true, Start: at(1000)}}, "s2"},
		{"in the group of s1's agent, which has none", []proc.Info{{PID: 9, PPID: 3, PGID: 500, SID: 400, Start: at(1000)}}, ""},
		{"an open window runs until now", []proc.Info{{PID: 9, PPID: 1, Start: at(250)}}, "s2"},
		{"make -> sh -> intenthook-full under a headless agent, variables cleared", []proc.Info{
			{PID: 13, PPID: 12, PGID: 11, SID: 900, Start: at(260)}, {PID: 12, PPID: 11, PGID: 11, SID: 900, Start: at(259)},
			{PID: 11, PPID: 90, PGID: 11, SID: 900, Start: at(251)}, host}, "s3"},
		{"a session of its own and a terminal it made, still under the host", []proc.Info{
			{PID: 13, PPID: 12, PGID: 13, SID: 13, TTY: true, Start: at(260)}, {PID: 12, PPID: 11, PGID: 12, SID: 12, Start: at(259)},
			{PID: 11, PPID: 90, PGID: 11, SID: 900, Start: at(251)}, host}, "s3"},
		{"a process whose pid the host's had, started later", []proc.Info{
			{PID: 13, PPID: 90, PGID: 13, SID: 13, Start: at(260)}, {PID: 90, PPID: 1, SID: 90, Start: at(-5)}}, ""},
		{"the headless agent's session while its command runs", []proc.Info{{PID: 13, PPID: 50, PGID: 13, SID: 900, Start: at(290)}, {PID: 50, PPID: 1, SID: 900, Start: at(-10)}}, "s3"},
		{"the same session, behind a person's terminal", []proc.Info{{PID: 13, PPID: 50, PGID: 13, SID: 13, TTY: true, Start: at(290)}, {PID: 50, PPID: 1, SID: 900, Start: at(-10)}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, why, ok := agentAct(windows, c.chain, at(300), orphan)
			if ok != (c.session != "") || w.Session != c.session {
				t.Errorf("agentAct = %q, %q, %v; want session %q", w.Session, why, ok, c.session)
			}
		})
	}
}

func itoa(t time.Time) string { return strconv.FormatInt(t.UnixNano(), 10) }

// A window's command runs while its agent's process has a child started
// during it; a window closed, or one whose agent has no such child (a
// call the user declined), does not; one with no recorded host counts
// while it is open.
func TestRunning(t *testing.T) {
	self, ok := proc.Self()
	if !ok {
		t.Skip("no process information here")
	}
	start := time.Now()
	open := Window{Session: "s1", Call: "b1", Start: start, HostPID: self.PID, HostStart: self.Start}
	if _, running := Running([]Window{open}); running {
		t.Error("running with no child started during the window")
	}
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep")
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	time.Sleep(50 * time.Millisecond)
	if w, running := Running([]Window{open}); !running || w.Call != "b1" {
		t.Error("not running with a child started during the window")
	}
	closed := open
	closed.End = time.Now()
	if _, running := Running([]Window{closed}); running {
		t.Error("a closed window runs")
	}
	later := open
	later.Start = time.Now().Add(time.Second)
	if _, running := Running([]Window{later}); running {
		t.Error("running on a child started before the window")
	}
	if _, running := Running([]Window{{Session: "s2", Call: "b2", Start: start}}); !running {
		t.Error("an open window with no host does not run")
	}
}
