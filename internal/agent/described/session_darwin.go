package described

import (
	"strconv"

	"golang.org/x/sys/unix"
)

// processInfo reads a process's name, parent and start time through
// sysctl kern.proc.pid.
func processInfo(pid int) (name string, parent int, start string, ok bool) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return "", 0, "", false
	}
	b := kp.Proc.P_comm[:]
	n := 0
	for n < len(b) && b[n] != 0 {
		n++
	}
	tv := kp.Proc.P_starttime
	return string(b[:n]), int(kp.Eproc.Ppid), strconv.FormatInt(int64(tv.Sec), 10) + "." + strconv.FormatInt(int64(tv.Usec), 10), true
}
