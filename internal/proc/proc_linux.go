package proc

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTicks is USER_HZ, in which /proc/<pid>/stat counts: 100 on every
// Linux architecture Go builds for.
const clockTicks = 100

var bootTime = sync.OnceValue(func() time.Time {
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
})

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
