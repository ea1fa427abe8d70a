package osfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A file renamed over another has another file number, though its size
// and name are the same: the guard's fingerprint tells them apart by it.
func TestFileIDAndRename(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("same"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	id := func(p string) uint64 {
		st, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return FileID(p, st)
	}
	before, other := id(a), id(b)
	if before == 0 && runtime.GOOS != "plan9" {
		t.Fatal("no file number")
	}
	if before == other {
		t.Fatal("two files share a file number")
	}
	// Held open by a reader while it is replaced.
	f, err := os.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := Rename(b, a); err != nil {
		t.Fatal(err)
	}
	if got := id(a); got != other {
		t.Fatalf("after the rename: file number %d, want %d (the renamed file's)", got, other)
	}
}

// Two files of one directory lie on one device, which unix names.
func TestDeviceID(t *testing.T) {
	dir := t.TempDir()
	var devs []uint64
	for _, name := range []string{"a", "b"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		devs = append(devs, DeviceID(st))
	}
	if devs[0] != devs[1] {
		t.Fatalf("one directory, two devices: %v", devs)
	}
	if devs[0] == 0 && runtime.GOOS != "windows" && runtime.GOOS != "plan9" {
		t.Fatal("no device number")
	}
}
