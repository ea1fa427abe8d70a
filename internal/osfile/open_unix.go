//go:build unix

package osfile

import (
	"io/fs"
	"os"
	"syscall"
)

// OpenFile is os.OpenFile without the poller (close-on-exec, as os opens).
// It opens regular files and directories only: the file is opened without
// waiting (a FIFO with no writer would hold the open, and the hook, until
// the agent's timeout lets the call through), and anything else is refused
// with ErrNotRegular.
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, err := retry(func() (int, error) {
		return syscall.Open(name, flag|syscall.O_CLOEXEC|syscall.O_NONBLOCK, uint32(perm.Perm()))
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if mode := st.Mode & syscall.S_IFMT; mode != syscall.S_IFREG && mode != syscall.S_IFDIR {
		syscall.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	// Blocking again, as the caller asked: os.NewFile would hand a
	// non-blocking descriptor to the poller.
	if flag&syscall.O_NONBLOCK == 0 {
		// F_SETFL takes only the status flags (O_APPEND stays as asked).
		if _, err := retry(func() (int, error) { return fcntl(fd, syscall.F_SETFL, flag) }); err != nil {
			syscall.Close(fd)
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
	return os.NewFile(uintptr(fd), name), nil
}

func fcntl(fd, cmd, arg int) (int, error) {
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), uintptr(cmd), uintptr(arg))
	if errno != 0 {
		return 0, errno
	}
	return int(r), nil
}

// retry runs a system call again while a signal interrupts it.
func retry(call func() (int, error)) (int, error) {
	for {
		r, err := call()
		if err != syscall.EINTR {
			return r, err
		}
	}
}
