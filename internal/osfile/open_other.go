//go:build !unix

package osfile

import (
	"io"
	"io/fs"
	"os"
)

// OpenFile is os.OpenFile here, after a look at what name is: a device
// (Windows' CON, COM1, a named pipe) is refused with ErrNotRegular before
// it is opened, since a read of one would hold the hook until the agent's
// timeout. There are no FIFOs in a Windows file system; the look and the
// open are two steps, but no agent can make a device of a file name.
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if err := refuseDevice(name); err != nil {
		return nil, err
	}
	return os.OpenFile(name, flag, perm)
}

// ReadFile is os.ReadFile here, a device refused as OpenFile does.
func ReadFile(name string) ([]byte, error) {
	if err := refuseDevice(name); err != nil {
		return nil, err
	}
	return os.ReadFile(name)
}

// refuseDevice returns ErrNotRegular for a device or pipe at name, nil
// for anything else (a missing file is the open's error to report).
func refuseDevice(name string) error {
	if st, err := os.Stat(name); err == nil && st.Mode()&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe|fs.ModeSocket) != 0 {
		return &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	return nil
}

// AppendFile appends data to the file name, created with perm when
// missing, and closes it; a device is refused as OpenFile does.
func AppendFile(name string, data []byte, perm fs.FileMode) error {
	f, err := OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if err := f.Close(); werr == nil {
		werr = err
	}
	return werr
}

// ReadTo writes the regular file name's bytes to w; anything but a regular
// file is refused with ErrNotRegular.
func ReadTo(w io.Writer, name string) error {
	f, err := OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return err
	} else if !st.Mode().IsRegular() {
		return &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	_, err = io.Copy(w, f)
	return err
}

// NullStandIn reports whether name is a null device an OS sandbox put in
// the place of a read-only path that did not exist: never, here.
func NullStandIn(string) bool { return false }
