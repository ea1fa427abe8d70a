package acceptance

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// subreaper makes this process the child subreaper of what it starts: a
// descendant of a check whose parent ends (one that left the check's
// process group and session, start_new_session=True) becomes this
// process's child instead of init's, so that reap finds it. It reports
// whether the kernel agreed.
func subreaper() bool {
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	return errno == 0
}

// reapTimeout bounds the kills and waits after one check: a descendant
// that forks as fast as it is killed is left, and said.
const reapTimeout = 5 * time.Second

// reap kills and waits for every child this process has once a check has
// ended: the check's own process was waited for, so each is a descendant
// the check left running, re-parented here. Its children come here in turn
// as it dies, until none remain. It returns how many it ended and whether
// none remain. The checks run one at a time and nothing else of the
// process starts programs meanwhile.
func reap() (ended int, clear bool) {
	self := os.Getpid()
	deadline := time.Now().Add(reapTimeout)
	for time.Now().Before(deadline) {
		kids := children(self)
		if len(kids) == 0 {
			return ended, true
		}
		for _, pid := range kids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		for _, pid := range kids {
			var ws syscall.WaitStatus
			if p, err := syscall.Wait4(pid, &ws, 0, nil); err == nil && p == pid {
				ended++
			}
		}
	}
	return ended, len(children(self)) == 0
}

// children lists the processes whose parent is pid, from /proc.
func children(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil || child == pid {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// "pid (comm) state ppid …": comm may hold spaces and parentheses.
		i := strings.LastIndexByte(string(data), ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(data[i+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}
