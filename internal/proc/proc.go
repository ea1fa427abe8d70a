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
	"strings"
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

// Tick is how finely a process's start time is known: a clock tick
// (USER_HZ) on Linux; start times are rounded down to it.
const Tick = 10 * time.Millisecond

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

// Host is the process that started the caller's parent chain: the
// nearest ancestor that is not a shell or a launcher that only passes a
// call on (sh -c, env, nice, the npm package's node launcher, intenthook
// itself). An agent runs its hooks and its shell commands as children of
// its own process, so for a hook the host is the agent, and every process
// of the agent's commands descends from it. ok is false where the platform
// tells nothing or no such ancestor is left.
func Host() (Info, bool) {
	pid := os.Getppid()
	for range maxDepth {
		if pid <= 1 {
			return Info{}, false
		}
		p, ok := get(pid)
		if !ok {
			return Info{}, false
		}
		if !passesOn(p) {
			return p, true
		}
		pid = p.PPID
	}
	return Info{}, false
}

// passesOn reports whether p only starts the program after it: a shell
// running a hook's command line, a program that sets up how another runs,
// or intenthook's own launchers.
func passesOn(p Info) bool {
	switch p.Name {
	case "sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "ash", "busybox",
		"env", "nice", "nohup", "timeout", "stdbuf", "setsid", "sudo", "doas",
		"cmd.exe", "powershell.exe", "pwsh", "pwsh.exe",
		"intenthook", "intenthook-full", "npx":
		return true
	case "node", "node.exe", "bun":
		// The npm package's launcher runs the binary and waits for it.
		return strings.Contains(cmdline(p.PID), "intenthook/launcher.js")
	}
	return false
}

// Children lists the running processes whose parent is pid; nil where
// the platform tells nothing. It reads every process's entry: for a
// person's command, never a hook.
func Children(pid int) []Info { return children(pid) }

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
