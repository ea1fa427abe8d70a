package state

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/proc"
)

// ShellsFile is the log of agents' shell commands that may write: when each
// ran (its window, from its pre to its post) and the process group and
// session of the agent that ran it, as its hook saw them. People's levers
// read it to tell a person's act from one an agent's process made
// (AgentAct). Lines are appended with one write and no lock; the log is
// rotated to ShellsFile+".1" past shellsRotateAt, so it never grows with
// the ledger.
const ShellsFile = StateDir + "/shells.log"

const shellsRotateAt = 256 << 10

// Window is one agent's shell command, as its hooks recorded it.
type Window struct {
	Session, Call string
	Start, End    time.Time // End is zero while the command runs
	PGID, SID     int       // of the agent (the hook's own)
	TTY           bool      // the agent had a controlling terminal
	// Host is the agent's own process, found from the hook's parent
	// chain (proc.Host): its PID and start time; zero when unknown (an
	// older version's line, a platform that tells nothing).
	HostPID   int
	HostStart time.Time
}

// OpenWindow records that session's command call starts now (its pre),
// with the hook process's group, session and terminal, and the process
// that ran the hook: the agent's. The host goes on a line of its own
// ("@ call pid start"), which an older version's reader skips.
func (ss Sessions) OpenWindow(session, call string, now time.Time) error {
	self, _ := proc.Self()
	tty := 0
	if self.TTY {
		tty = 1
	}
	c := base64.RawURLEncoding.EncodeToString([]byte(call))
	line := fmt.Appendf(nil, "+ %s %s %d %d %d %d\n", c, base64.RawURLEncoding.EncodeToString([]byte(session)), now.UnixNano(), self.PGID, self.SID, tty)
	if host, ok := proc.Host(); ok {
		line = fmt.Appendf(line, "@ %s %d %d\n", c, host.PID, host.Start.UnixNano())
	}
	return ss.appendShells(line)
}

// CloseWindow records that command call ended now (its post).
func (ss Sessions) CloseWindow(call string, now time.Time) error {
	err := ss.appendShells(fmt.Appendf(nil, "- %s %d\n", base64.RawURLEncoding.EncodeToString([]byte(call)), now.UnixNano()))
	path := Path(ss.Root, "shells.log")
	if st, serr := os.Stat(path); serr == nil && st.Size() > shellsRotateAt {
		_ = os.Rename(path, path+".1")
	}
	return err
}

func (ss Sessions) appendShells(line []byte) error {
	path := Path(ss.Root, "shells.log")
	err := osfile.AppendFile(path, line, 0o644)
	if os.IsNotExist(err) {
		if err = Ensure(ss.Root); err == nil {
			err = osfile.AppendFile(path, line, 0o644)
		}
	}
	return err
}

// Windows reads the recorded commands, the rotated log's first.
func (ss Sessions) Windows(now time.Time) []Window {
	path := Path(ss.Root, "shells.log")
	var data []byte
	for _, p := range []string{path + ".1", path} {
		if b, err := osfile.ReadFile(p); err == nil {
			data = append(data, b...)
		}
	}
	return parseWindows(data, now)
}

func parseWindows(data []byte, now time.Time) []Window {
	var out []Window
	at := map[string]int{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		f := bytes.Fields(line)
		switch {
		case len(f) == 7 && string(f[0]) == "+":
			call, err1 := base64.RawURLEncoding.DecodeString(string(f[1]))
			session, err2 := base64.RawURLEncoding.DecodeString(string(f[2]))
			start, err3 := strconv.ParseInt(string(f[3]), 10, 64)
			pgid, err4 := strconv.Atoi(string(f[4]))
			sid, err5 := strconv.Atoi(string(f[5]))
			if err1 != nil || err2 != nil || err3 != nil || err4 != nil || err5 != nil {
				continue
			}
			at[string(call)] = len(out)
			out = append(out, Window{Session: string(session), Call: string(call), Start: time.Unix(0, start), PGID: pgid, SID: sid, TTY: string(f[6]) == "1"})
		case len(f) == 4 && string(f[0]) == "@":
			call, err1 := base64.RawURLEncoding.DecodeString(string(f[1]))
			pid, err2 := strconv.Atoi(string(f[2]))
			start, err3 := strconv.ParseInt(string(f[3]), 10, 64)
			i, ok := at[string(call)]
			if err1 != nil || err2 != nil || err3 != nil || !ok || pid <= 1 {
				continue
			}
			out[i].HostPID, out[i].HostStart = pid, time.Unix(0, start)
		case len(f) == 3 && string(f[0]) == "-":
			call, err1 := base64.RawURLEncoding.DecodeString(string(f[1]))
			end, err2 := strconv.ParseInt(string(f[2]), 10, 64)
			i, ok := at[string(call)]
			if err1 != nil || err2 != nil || !ok {
				continue
			}
			out[i].End = time.Unix(0, end)
		}
	}
	// A command whose post never came (a call the user declined, an agent
	// that stopped) ends where its session's next command starts, else
	// after PendingTTL.
	next := map[string]time.Time{}
	for i := len(out) - 1; i >= 0; i-- {
		w := &out[i]
		if w.End.IsZero() {
			if n, ok := next[w.Session]; ok {
				w.End = n
			} else if now.Sub(w.Start) > PendingTTL {
				w.End = w.Start.Add(PendingTTL)
			}
		}
		next[w.Session] = w.Start
	}
	return out
}

// startSlack is how much earlier than a window's start a process may
// seem to start and still be inside it: a clock tick, and the drift of
// the wall clock against the boot clock between the window's stamp and
// the reading (NTP slews the wall clock by up to half a millisecond a
// second).
const startSlack = 250 * time.Millisecond

// Running returns the newest open window whose command still runs: its
// agent's process is alive and has a child that started during the
// window. A window with no recorded host counts while it is open; one
// whose post never came (a call the user declined) stops counting once
// its agent has no such child.
func Running(windows []Window) (Window, bool) {
	for i := len(windows) - 1; i >= 0; i-- {
		w := windows[i]
		if !w.End.IsZero() {
			continue
		}
		if w.HostPID == 0 {
			return w, true
		}
		host, ok := proc.Get(w.HostPID)
		if !ok || !sameStart(host.Start, w.HostStart) {
			continue
		}
		for _, c := range proc.Children(w.HostPID) {
			if !c.Start.Before(w.Start.Add(-startSlack)) {
				return w, true
			}
		}
	}
	return Window{}, false
}

// sameStart reports whether two readings of a process's start, made by
// two processes, are the same process's: each computes it from the boot
// time as it reads it, which the wall clock's adjustments move a little.
// Another process under the same PID started within that margin would
// need the PIDs to wrap around in the meantime.
func sameStart(a, b time.Time) bool {
	d := a.Sub(b)
	return d > -2*time.Second && d < 2*time.Second
}

// CodeLeverByAgent is the violation recorded against a session when a
// person's lever (approve, reject, a scope request's approval, a binding
// of another session) runs in a process of that session's agent.
const CodeLeverByAgent = "lever_by_agent"

// AgentAct says whether a process chain (the caller first, then its
// ancestors: proc.Chain) is an agent's, by the recorded windows. It is the
// one answer every person's command asks. A process is the agent's when
//
//   - a process with no controlling terminal, up the chain to the first
//     that has one, started while a command ran and was handed to init
//     since (orphaned: a nohup … & or setsid child the agent's shell left
//     behind);
//   - the chain reaches the agent's own process (the window's host, the
//     process that ran its hooks) through a child the host started during
//     one of its commands: whatever its recipe runs (make → sh →
//     intenthook-full), with its variables cleared, in a session of its
//     own, with a terminal it made;
//   - the agent has no terminal (claude -p, codex exec, CI) and one of its
//     commands is running now, and a process of the chain, up to the first
//     that has a controlling terminal, is in the agent's session (the
//     kernel's): a child whose line to the host is lost;
//   - or a process of the chain is in the process group of an agent that
//     has a terminal (an agent run in a person's terminal: its shell's
//     background children keep the terminal, and the group; so does a
//     command typed in the agent's own shell mode).
//
// A person's own terminal, opened while an agent's tests ran, has a
// controlling terminal, another session and another group, and does not
// descend from the agent: it stays a person's; so does a terminal-less
// program a person runs (a test runner, an editor's task) while no
// command of a terminal-less agent in its session runs. It returns the
// window and why.
func AgentAct(windows []Window, chain []proc.Info, now time.Time) (Window, string, bool) {
	return agentAct(windows, chain, now, proc.Orphaned)
}

func agentAct(windows []Window, chain []proc.Info, now time.Time, orphaned func(proc.Info) bool) (Window, string, bool) {
	// A process's start is read to the clock tick, rounded down: a tick
	// and some slack before the window count, and a process started in
	// the last tick before a closed window's end does not (the agent's
	// command ended before its post hook started, well before its end).
	during := func(p proc.Info, w Window) bool {
		if p.Start.Before(w.Start.Add(-startSlack)) {
			return false
		}
		return w.End.IsZero() || p.Start.Before(w.End.Add(-proc.Tick))
	}
	for _, p := range chain {
		if p.TTY {
			break
		}
		for _, w := range windows {
			if during(p, w) && orphaned(p) {
				return w, fmt.Sprintf("process %d (%s) has no controlling terminal, started while the session's shell command ran and outlived it", p.PID, p.Name), true
			}
		}
	}
	for i := 1; i < len(chain); i++ {
		host := chain[i]
		for _, w := range windows {
			if w.HostPID == host.PID && sameStart(host.Start, w.HostStart) && during(chain[i-1], w) {
				return w, fmt.Sprintf("process %d (%s) descends from the agent's process %d (%s) through process %d (%s), which the session's shell command started", chain[0].PID, chain[0].Name, host.PID, host.Name, chain[i-1].PID, chain[i-1].Name), true
			}
		}
	}
	for _, p := range chain {
		if p.TTY {
			break
		}
		for _, w := range windows {
			if !w.TTY && w.SID > 1 && w.End.IsZero() && p.SID == w.SID {
				return w, fmt.Sprintf("process %d (%s) is in the session (%d) of an agent without a terminal, while its shell command runs", p.PID, p.Name, w.SID), true
			}
		}
	}
	for _, p := range chain {
		for _, w := range windows {
			if w.TTY && w.PGID > 1 && p.PGID == w.PGID {
				return w, fmt.Sprintf("process %d is in the process group (%d) of the agent that ran the session's shell commands", p.PID, w.PGID), true
			}
		}
	}
	return Window{}, "", false
}
