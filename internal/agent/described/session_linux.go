package described

import (
	"os"
	"strconv"
	"strings"
)

// processInfo reads a process's name, parent and start time (in clock
// ticks since boot) from /proc/<pid>/stat.
func processInfo(pid int) (name string, parent int, start string, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, "", false
	}
	s := string(data)
	open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || close < open {
		return "", 0, "", false
	}
	name = s[open+1 : close]
	// After the name: state, ppid, …; the start time is field 22 of the
	// line, the 20th after the name.
	fields := strings.Fields(s[close+1:])
	if len(fields) < 20 {
		return "", 0, "", false
	}
	parent, err = strconv.Atoi(fields[1])
	if err != nil {
		return "", 0, "", false
	}
	return name, parent, fields[19], true
}
