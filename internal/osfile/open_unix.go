//go:build unix

package osfile

import (
	"io"
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

// ReadFile reads the whole file, as os.ReadFile does, from a descriptor of
// its own: opened without waiting, checked to be a regular file (ErrNotRegular
// otherwise; a directory reads as EISDIR), read to its end and closed, with
// no *os.File (which would cost two more system calls and a cleanup).
//
// A null device at name reads as a missing file: it is how an agent's OS
// sandbox (Claude Code's bubblewrap) keeps a read-only path that does not
// exist from being created, and opening it there fails with EACCES.
func ReadFile(name string) ([]byte, error) {
	fd, err := retry(func() (int, error) {
		return syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	})
	if err != nil {
		if err == syscall.EACCES && nullStandIn(name, nil) {
			err = syscall.ENOENT
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
	case syscall.S_IFDIR:
		return nil, &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
	default:
		if nullStandIn(name, &st) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	size := 512
	if st.Size > 0 && st.Size < 1<<30 {
		size = int(st.Size) + 1 // one more: EOF is seen without growing
	}
	data := make([]byte, 0, size)
	for {
		n, err := retry(func() (int, error) { return syscall.Read(fd, data[len(data):cap(data)]) })
		if err != nil {
			return data, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if n == 0 {
			return data, nil
		}
		data = data[:len(data)+n]
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// AppendFile appends data to the regular file name, created with perm when
// missing, and closes it, as OpenFile with O_WRONLY|O_APPEND|O_CREATE, a
// Write and a Close would, without an *os.File: the descriptor stays
// non-blocking, which a regular file ignores, and saves the two fcntl calls
// OpenFile and os.NewFile make. Anything but a regular file is refused with
// ErrNotRegular before a byte is written.
func AppendFile(name string, data []byte, perm fs.FileMode) error {
	fd, err := OpenFD(name, syscall.O_WRONLY|syscall.O_APPEND|syscall.O_CREAT, perm)
	if err != nil {
		return err
	}
	werr := writeAll(fd, data)
	if err := syscall.Close(fd); werr == nil && err != nil {
		werr = err
	}
	if werr != nil {
		return &fs.PathError{Op: "write", Path: name, Err: werr}
	}
	return nil
}

// OpenFD opens the regular file name as a bare descriptor, for the caller
// to close with syscall.Close: close-on-exec and non-blocking, which a
// regular file ignores (no *os.File, so no fcntl to undo it). Anything but
// a regular file is refused with ErrNotRegular.
func OpenFD(name string, flag int, perm fs.FileMode) (int, error) {
	fd, err := retry(func() (int, error) {
		return syscall.Open(name, flag|syscall.O_CLOEXEC|syscall.O_NONBLOCK, uint32(perm.Perm()))
	})
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return -1, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return -1, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	return fd, nil
}

// writeAll writes data as os.File.Write does: again after a short write
// or a signal, until it is all written or the write fails.
func writeAll(fd int, data []byte) error {
	for len(data) > 0 {
		n, err := retry(func() (int, error) { return syscall.Write(fd, data) })
		if err != nil {
			return err
		}
		if n == 0 {
			return io.ErrUnexpectedEOF
		}
		data = data[n:]
	}
	return nil
}

// ReadTo writes the regular file name's bytes to w, through a buffer the
// size of the file up to 32 KiB (a hook hashes mostly small files, and each
// fresh page of memory costs it more than the read). Anything but a regular
// file is refused with ErrNotRegular, a directory too.
func ReadTo(w io.Writer, name string) error {
	fd, err := retry(func() (int, error) {
		return syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	})
	if err != nil {
		return &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	buf := make([]byte, min(max(st.Size+1, 512), 32<<10))
	for {
		n, err := retry(func() (int, error) { return syscall.Read(fd, buf) })
		if err != nil {
			return &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if n == 0 {
			return nil
		}
		if _, err := w.Write(buf[:n]); err != nil {
			return err
		}
	}
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

// nullStandIn reports whether name (st, when its status is at hand) is a
// character device with /dev/null's device number.
func nullStandIn(name string, st *syscall.Stat_t) bool {
	if st == nil {
		st = new(syscall.Stat_t)
		if syscall.Lstat(name, st) != nil {
			return false
		}
	}
	var null syscall.Stat_t
	return st.Mode&syscall.S_IFMT == syscall.S_IFCHR && syscall.Stat("/dev/null", &null) == nil && st.Rdev == null.Rdev
}

// NullStandIn reports whether name is a null device standing in for a
// directory or file that did not exist when an agent's OS sandbox made it
// read-only: what lies below it is missing, not unreadable.
func NullStandIn(name string) bool { return nullStandIn(name, nil) }
