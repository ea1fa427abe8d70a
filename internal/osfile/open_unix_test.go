//go:build unix

package osfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO (or any file that is not regular or a directory) is refused at
// once: opening one with no writer would otherwise wait for ever.
func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	for name, open := range map[string]func() error{
		"Open":       func() error { _, err := Open(fifo); return err },
		"ReadFile":   func() error { _, err := ReadFile(fifo); return err },
		"AppendFile": func() error { return AppendFile(fifo, []byte("x\n"), 0o644) },
		"OpenFD": func() error {
			fd, err := OpenFD(fifo, os.O_RDONLY|os.O_CREATE, 0o600)
			if err == nil {
				syscall.Close(fd)
			}
			return err
		},
		"OpenFile append": func() error {
			_, err := OpenFile(fifo, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			return err
		},
	} {
		done := make(chan error, 1)
		go func() { done <- open() }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) && !errors.Is(err, syscall.ENXIO) {
				t.Errorf("%s of a FIFO: %v, want ErrNotRegular", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s of a FIFO did not return", name)
		}
	}
	// A directory opens, and a file opened blocking reads as one.
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	path := filepath.Join(dir, "f")
	os.WriteFile(path, []byte("x"), 0o644)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	flags, _ := fcntl(int(f.Fd()), syscall.F_GETFL, 0)
	if flags&syscall.O_NONBLOCK != 0 {
		t.Error("a regular file was left non-blocking")
	}
}

// A null device reads as a missing file: an agent's OS sandbox puts one
// in the place of a read-only path that does not exist. Where the sandbox
// mounts it so that it cannot be opened (bubblewrap: EACCES), the device
// is recognised by its number.
func TestNullStandIn(t *testing.T) {
	if _, err := ReadFile("/dev/null"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(/dev/null) = %v, want a missing file", err)
	}
	if !nullStandIn("/dev/null", nil) {
		t.Error("nullStandIn(/dev/null) = false")
	}
	for _, name := range []string{"/dev/zero", t.TempDir(), filepath.Join(t.TempDir(), "none")} {
		if nullStandIn(name, nil) {
			t.Errorf("nullStandIn(%s) = true", name)
		}
	}
	if _, err := ReadFile("/dev/zero"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFile(/dev/zero) = %v, want ErrNotRegular", err)
	}
}
