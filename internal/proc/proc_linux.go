package proc

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// clockTicks is USER_HZ, in which /proc/<pid>/stat counts: 100 on every
// Linux architecture Go builds for.
const clockTicks = 100

// bootTime is readBootTime's answer, read once: a function and a variable
// the linker lays out, where sync.OnceValue's call would run in the
// package's initialiser on every hook's start.
func bootTime() time.Time {
	boot.once.Do(func() { boot.at = readBootTime() })
	return boot.at
}

var boot struct {
	once sync.Once
	at   time.Time
}

// readBootTime returns when the system booted, on the wall clock: now
// less the time since boot (CLOCK_BOOTTIME, which /proc/<pid>/stat's start
// time counts from, suspend included), to the nanosecond; /proc/stat's
// btime, whole seconds, where that clock cannot be read. A start time
// computed from btime is up to a second early, which would put a process
// started just after an agent's command inside it.
func readBootTime() time.Time {
	var ts syscall.Timespec
	if clockGettime(clockBoottime, &ts) == nil {
		now := time.Now()
		return now.Add(-time.Duration(ts.Nano())).Round(0)
	}
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "btime "); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				return time.Unix(n, 0)
			}
		}
	}
	return time.Time{}
}

// clockBoottime is Linux's CLOCK_BOOTTIME, the same on every architecture.
const clockBoottime = 7

// clockGettime is clock_gettime(2). golang.org/x/sys/unix has it, but its
// package initialisation would run on every hook call; syscall's is done
// anyway (docs/performance.md).
func clockGettime(clock int, ts *syscall.Timespec) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(clock), uintptr(unsafe.Pointer(ts)), 0); errno != 0 {
		return errno
	}
	return nil
}

func get(pid int) (Info, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Info{}, false
	}
	s := string(data)
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return Info{}, false
	}
	// After the name: state(3) ppid(4) pgrp(5) session(6) tty_nr(7) …
	// starttime(22).
	f := strings.Fields(s[end+1:])
	if len(f) < 20 {
		return Info{}, false
	}
	num := func(i int) int {
		n, _ := strconv.Atoi(f[i])
		return n
	}
	boot := bootTime()
	if boot.IsZero() {
		return Info{}, false
	}
	ticks, err := strconv.ParseInt(f[19], 10, 64)
	if err != nil {
		return Info{}, false
	}
	start := boot.Add(time.Duration(ticks) * time.Second / clockTicks)
	name := ""
	if open := strings.IndexByte(s, '('); open >= 0 && open < end {
		name = s[open+1 : end]
	}
	return Info{PID: pid, Name: name, PPID: num(1), PGID: num(2), SID: num(3), TTY: num(4) != 0, Start: start}, true
}

// cmdline is the process's arguments, separated by NUL ("" when unknown).
func cmdline(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	return string(data)
}

// children lists the processes whose parent is pid, from /proc (the
// kernel's per-task children lists need a kernel option; a scan does
// not).
func children(pid int) []Info {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []Info
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil || n <= 1 {
			continue
		}
		if p, ok := get(n); ok && p.PPID == pid {
			out = append(out, p)
		}
	}
	return out
}
