//go:build !unix

package osfile

import (
	"io"
	"io/fs"
	"os"
)

// OpenFile is os.OpenFile here.
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}

// ReadFile is os.ReadFile here.
func ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }

// ReadTo writes the regular file name's bytes to w; anything but a regular
// file is refused with ErrNotRegular.
func ReadTo(w io.Writer, name string) error {
	f, err := os.Open(name)
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
