package guard

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/governed"
)

// nobody is a Call for which no hook wrote anything and HEAD holds nothing.
type nobody struct{}

func (nobody) Wrote(Change) bool     { return false }
func (nobody) Committed(string) bool { return false }

// A program the hook wiring runs is pictured by its stat alone; a command
// that rewrites it, renames another file over it, repoints the package's
// directory, removes it or puts one where there was none is found out, and
// nothing is put back.
func TestPrograms(t *testing.T) {
	const bin = "node_modules/intenthook/bin/intenthook"
	rows := []governed.File{{Path: bin, Use: governed.Guarded, Watch: governed.Program}}
	write := func(root, rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		before  bool // the program exists at the picture
		command func(root string)
		changed bool
	}{
		{"untouched", true, func(string) {}, false},
		{"read", true, func(root string) { _, _ = os.ReadFile(filepath.Join(root, bin)) }, false},
		{"rewritten in place", true, func(root string) {
			f, err := os.OpenFile(filepath.Join(root, bin), os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("#!/bin/sh\nexit 0\n")
			f.Close()
		}, true},
		{"renamed over", true, func(root string) {
			write(root, "src/x", "binary")
			if err := os.Rename(filepath.Join(root, "src/x"), filepath.Join(root, bin)); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"chmod", true, func(root string) { _ = os.Chmod(filepath.Join(root, bin), 0o700) }, true},
		{"package repointed", true, func(root string) {
			write(root, "src/fork/bin/intenthook", "binary")
			if err := os.Rename(filepath.Join(root, "node_modules/intenthook"), filepath.Join(root, "old")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("../src/fork", filepath.Join(root, "node_modules/intenthook")); err != nil {
				t.Skip("no symlinks:", err)
			}
		}, true},
		{"removed", true, func(root string) { _ = os.Remove(filepath.Join(root, bin)) }, true},
		{"none before, one after", false, func(root string) { write(root, bin, "binary") }, true},
		{"none before or after", false, func(string) {}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.before {
				write(root, bin, "binary")
			}
			targets := Watch(root, rows, "")
			s, err := Take(root, targets, "", "")
			if err != nil {
				t.Fatal(err)
			}
			if _, kept := s.Files[bin]; kept || len(s.Programs) != 1 {
				t.Fatalf("picture: files %v, programs %v", s.Files, s.Programs)
			}
			time.Sleep(10 * time.Millisecond) // a change time apart
			tc.command(root)
			res := Check(root, s, nobody{}, Options{Targets: targets, SegmentDir: ".orchestration/ledger", Now: time.Now()})
			if got := len(res.Programs) > 0; got != tc.changed || res.Tampered() != tc.changed {
				t.Fatalf("programs changed %v (%+v), tampered %v; want %v", got, res.Programs, res.Tampered(), tc.changed)
			}
			if tc.changed && (res.Paths()[len(res.Paths())-1] != bin || len(res.Undone) != 0) {
				t.Fatalf("paths %v, undone %v", res.Paths(), res.Undone)
			}
		})
	}
}

// The note a hook leaves names the programs as the command left them:
// Still lists them while they are, and none once a reinstall gave them
// another file; a link planted where the note goes is replaced, not
// followed.
func TestReplacedNote(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "node_modules/intenthook/bin/intenthook")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("replaced"), 0o755); err != nil {
		t.Fatal(err)
	}
	note := filepath.Join(root, ".orchestration/state/hook-replaced")
	victim := filepath.Join(root, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(note), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, note); err != nil {
		t.Skip("no symlinks:", err)
	}
	r := Replaced{Programs: map[string]string{"node_modules/intenthook/bin/intenthook": ProgramPrint(bin)}, Session: "s1", Command: "npm i", At: time.Unix(1, 0).UTC()}
	if _, err := WriteReplaced(note, r); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("the note was written through a link: %q", b)
	}
	got, ok := ReadReplaced(note)
	if !ok || got.Session != "s1" || len(got.Still(root)) != 1 {
		t.Fatalf("read back %+v %v, still %v", got, ok, got.Still(root))
	}
	// A person reinstalls: another file.
	if err := os.Remove(bin); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("reinstalled"), 0o755); err != nil {
		t.Fatal(err)
	}
	if still := got.Still(root); len(still) != 0 {
		t.Fatalf("still %v after a reinstall", still)
	}
	if _, ok := ReadReplaced(filepath.Join(root, "none")); ok {
		t.Fatal("a note where there is none")
	}
}
