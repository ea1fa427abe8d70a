// Package proc reads what the kernel says about a process and its
// ancestors: its process group, its session, whether it has a controlling
// terminal, when it started. People's commands ask it whether they run
// inside an agent's shell command, whatever variables the process cleared
// (a program the agent left running in the background, reparented to
// init). It reads /proc on Linux and sysctl on macOS; elsewhere it knows
// nothing and says so. It decides nothing.
package proc

import (
	"os"
	"time"
)

// Info is one process as the kernel sees it.
type Info struct {
	PID, PPID int
	Name      string // the program's name, as the kernel keeps it
	PGID, SID int
	// TTY is set when the process has a controlling terminal.
	TTY bool
	// Start is when the process started (to the clock tick on Linux).
	Start time.Time
}

// Self is the calling process.
func Self() (Info, bool) { return Get(os.Getpid()) }

// Get reads process pid.
func Get(pid int) (Info, bool) { return get(pid) }

// Orphaned reports whether p's parent is the one orphans are handed to:
// init (pid 1), or a session's reaper (systemd --user): the process that
// started p is gone.
func Orphaned(p Info) bool {
	if p.PPID <= 1 {
		return true
	}
	parent, ok := get(p.PPID)
	return ok && (parent.Name == "systemd" || parent.Name == "init" || parent.Name == "launchd")
}

// maxDepth bounds a walk up the process tree.
const maxDepth = 64

// Chain is the calling process and its ancestors, nearest first, without
// init (pid 1); nil where the platform tells nothing.
func Chain() []Info {
	var out []Info
	for pid := os.Getpid(); pid > 1 && len(out) < maxDepth; {
		p, ok := get(pid)
		if !ok {
			break
		}
		out = append(out, p)
		if p.PPID == pid {
			break
		}
		pid = p.PPID
	}
	return out
}
