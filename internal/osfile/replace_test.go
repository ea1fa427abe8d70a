package osfile

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

func TestReplace(t *testing.T) {
	cases := []struct {
		name    string
		before  func(t *testing.T, path string) // what is at path first
		wantErr bool
	}{
		{name: "a file", before: func(t *testing.T, path string) { write(t, path, "old") }},
		{name: "nothing", before: func(*testing.T, string) {}},
		{name: "an empty file", before: func(t *testing.T, path string) { write(t, path, "") }},
		{name: "a directory", before: func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, wantErr: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path, tmp := filepath.Join(dir, "state.json"), filepath.Join(dir, ".state.json.tmp")
			c.before(t, path)
			write(t, tmp, "new")
			err := Replace(tmp, path)
			if c.wantErr {
				// As a rename over it: an error, and both left as they were.
				if err == nil {
					t.Fatal("replaced a directory")
				}
				if st, serr := os.Lstat(path); serr != nil || !st.IsDir() {
					t.Errorf("the directory at path is gone: %v %v", st, serr)
				}
				if data, _ := os.ReadFile(tmp); string(data) != "new" {
					t.Errorf("tmp holds %q, want the new file", data)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if data, err := os.ReadFile(path); err != nil || string(data) != "new" {
				t.Errorf("path holds %q (%v), want the new file", data, err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}

// TestReplaceKeepsOpenReaders: a process reading the old file goes on
// reading it, as after a rename.
func TestReplaceKeepsOpenReaders(t *testing.T) {
	dir := t.TempDir()
	path, tmp := filepath.Join(dir, "f"), filepath.Join(dir, ".f.tmp")
	write(t, path, "old")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	write(t, tmp, "new")
	if err := Replace(tmp, path); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	n, _ := f.Read(buf)
	if string(buf[:n]) != "old" {
		t.Errorf("the open file reads %q, want the old content", buf[:n])
	}
}

// TestReplaceWhole runs writer processes that replace one file again and
// again with contents of their own lengths, while this one reads it: every
// read must find a file, and one writer's content whole.
func TestReplaceWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	write(t, path, content(0))
	var writers []*exec.Cmd
	for w := 1; w <= 2; w++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperReplace$", "-test.count=1")
		cmd.Env = append(os.Environ(), "OSFILE_REPLACE_HELPER="+path, "OSFILE_REPLACE_WRITER="+strconv.Itoa(w))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		writers = append(writers, cmd)
	}
	done := make(chan error, len(writers))
	for _, cmd := range writers {
		go func() { done <- cmd.Wait() }()
	}
	reads := 0
	for running := len(writers); running > 0; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("writer: %v", err)
			}
			running--
		default:
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("read %d: %v", reads, err)
		}
		if !whole(data) {
			t.Fatalf("read %d: %d bytes, no writer's whole content", reads, len(data))
		}
		reads++
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %d entries", len(entries))
	}
}

func TestHelperReplace(t *testing.T) {
	path := os.Getenv("OSFILE_REPLACE_HELPER")
	if path == "" {
		t.Skip("a helper of TestReplaceWhole")
	}
	w, _ := strconv.Atoi(os.Getenv("OSFILE_REPLACE_WRITER"))
	for i := 0; i < 300; i++ {
		tmp := fmt.Sprintf("%s.tmp-%d-%d", path, w, i)
		if err := os.WriteFile(tmp, []byte(content(w)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Replace(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
}

// content is writer w's file: its digit, 1000+w times.
func content(w int) string { return string(bytes.Repeat([]byte{byte('0' + w)}, 1000+w)) }

func whole(data []byte) bool {
	return len(data) > 0 && string(data) == content(int(data[0]-'0'))
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
