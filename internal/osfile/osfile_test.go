package osfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 511, 512, 513, 4096, 100_000} {
		path := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("ab\n"), size/3+1)[:size]
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("size %d: got %d bytes, %v", size, len(got), err)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "absent")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absent: %v, want fs.ErrNotExist", err)
	}
	var pe *fs.PathError
	if _, err := ReadFile(filepath.Join(dir, "absent")); !errors.As(err, &pe) || pe.Op != "open" {
		t.Errorf("absent: %v, want a *fs.PathError of open", err)
	}
	// A directory opens, and reading it fails, as with os.ReadFile.
	_, err := ReadFile(dir)
	_, want := os.ReadFile(dir)
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("reading a directory: %v, want %v", err, want)
	}
}

func TestOpenFileFlags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	for _, line := range []string{"a\n", "b\n"} {
		f, err := OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(line); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	st, _ := os.Stat(path)
	if string(data) != "a\nb\n" || st.Mode().Perm() != 0o600 {
		t.Errorf("appended %q, mode %v", data, st.Mode())
	}
	if _, err := OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); !errors.Is(err, fs.ErrExist) {
		t.Errorf("O_EXCL on an existing file: %v", err)
	}
}

func TestCreateTemp(t *testing.T) {
	dir := t.TempDir()
	seen := map[string]bool{}
	for range 50 {
		f, err := CreateTemp(dir, ".x.tmp-*")
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f.Name())
		if seen[name] || !strings.HasPrefix(name, ".x.tmp-") || len(name) <= len(".x.tmp-") {
			t.Errorf("name %q", name)
		}
		seen[name] = true
		st, _ := f.Stat()
		if st.Mode().Perm() != 0o600 {
			t.Errorf("mode %v", st.Mode())
		}
		f.Close()
	}
	if _, err := CreateTemp(filepath.Join(dir, "absent"), "x*"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("in an absent directory: %v", err)
	}
}

func TestReadTo(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 511, 512, 40_000, 100_000} {
		path := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("xyz\n"), size/4+1)[:size]
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := ReadTo(&got, path); err != nil || !bytes.Equal(got.Bytes(), want) {
			t.Errorf("size %d: got %d bytes, %v", size, got.Len(), err)
		}
	}
	if err := ReadTo(io.Discard, dir); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory: %v, want ErrNotRegular", err)
	}
	if err := ReadTo(io.Discard, filepath.Join(dir, "absent")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absent: %v, want fs.ErrNotExist", err)
	}
}

func TestAppendFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log")
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB: written whole
	var want []byte
	for _, data := range [][]byte{[]byte("one\n"), {}, big, []byte("two\n")} {
		if err := AppendFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, data...)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Errorf("appended %d bytes, read %d (%v)", len(want), len(got), err)
	}
	if err := AppendFile(filepath.Join(dir, "absent", "log"), []byte("x"), 0o644); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("in a missing directory: %v, want fs.ErrNotExist", err)
	}
	if err := AppendFile(dir, []byte("x"), 0o644); err == nil {
		t.Error("a directory was appended to")
	}
}
