package proc

import (
	"time"

	"golang.org/x/sys/unix"
)

func get(pid int) (Info, bool) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return Info{}, false
	}
	sid, err := unix.Getsid(pid)
	if err != nil {
		return Info{}, false
	}
	tv := kp.Proc.P_starttime
	b := kp.Proc.P_comm[:]
	n := 0
	for n < len(b) && b[n] != 0 {
		n++
	}
	return Info{
		PID: pid, Name: string(b[:n]), PPID: int(kp.Eproc.Ppid), PGID: int(kp.Eproc.Pgid), SID: sid,
		TTY:   kp.Eproc.Tdev != -1 && kp.Eproc.Tdev != 0,
		Start: time.Unix(int64(tv.Sec), int64(tv.Usec)*1000),
	}, true
}

// cmdline is not read here: a launcher is known by its name alone.
func cmdline(int) string { return "" }

// children lists the processes whose parent is pid.
func children(pid int) []Info {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil
	}
	var out []Info
	for _, kp := range kps {
		if int(kp.Eproc.Ppid) == pid {
			if p, ok := get(int(kp.Proc.P_pid)); ok {
				out = append(out, p)
			}
		}
	}
	return out
}
