package guard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/intenthook/intenthook/internal/osfile"
)

// TestMirrorCompaction: a Mirrored directory whose writers compact their
// logs names their lock, and a log that differs from its copy is compared
// again under it. A compaction half done (the log renamed, its copy not
// yet), which the writer finishes before it lets go of the lock, is no
// change; a log cut short or lowered is one, though a prefix of its copy.
func TestMirrorCompaction(t *testing.T) {
	const (
		dir  = ".orchestration/state/spend"
		name = "INT-001.log"
		long = "1 1 0 0 0 0 0\n1 2 0 0 0 0 0\n1 3 0 0 0 0 0\n"
		last = "1 3 0 0 0 0 0\n"
	)
	tests := []struct {
		name      string
		log, copy string
		// finishLog and finishCopy are what the writer holding the lock
		// leaves the log and the copy as ("": as they are).
		finishLog, finishCopy string
		lock                  bool
		want                  int
	}{
		{name: "compaction half done, finished under the lock", log: last, copy: long, finishCopy: last, lock: true, want: 0},
		{name: "compacted", log: last, copy: last, lock: true, want: 0},
		{name: "an append in flight, done under the lock", log: long, copy: long + "1 4 0 0 0 0 0\n", finishLog: long + "1 4 0 0 0 0 0\n", lock: true, want: 0},
		{name: "cut short, with a lock", log: "", copy: long, lock: true, want: 1},
		{name: "a line dropped, with a lock", log: "1 1 0 0 0 0 0\n", copy: long, lock: true, want: 1},
		{name: "lowered, with a lock", log: "1 0 0 0 0 0 0\n", copy: last, lock: true, want: 1},
		{name: "cut short, without a lock (appends only)", log: "", copy: long, lock: false, want: 0},
		{name: "a half-done compaction, without a lock", log: last, copy: long, lock: false, want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			logPath := filepath.Join(root, filepath.FromSlash(dir), name)
			mirror := MirrorDir(root, dir)
			copyPath := filepath.Join(mirror, name)
			for _, d := range []string{filepath.Dir(logPath), mirror} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			// The picture came before the command: every log is read.
			s := &Snapshot{At: 1}
			write(t, logPath, tt.log)
			write(t, copyPath, tt.copy)
			target := Target{Rel: dir, Kind: Mirrored}
			locked := 0
			if tt.lock {
				target.Lock = func(got string) (func(), error) {
					if got != name {
						t.Errorf("Lock(%q), want %q", got, name)
					}
					locked++
					// The writer held the lock: its work ends before
					// the guard's turn.
					if tt.finishLog != "" {
						write(t, logPath, tt.finishLog)
					}
					if tt.finishCopy != "" {
						write(t, copyPath, tt.finishCopy)
					}
					return func() {}, nil
				}
			}
			changes := mirrorChanges(root, target, s)
			if len(changes) != tt.want {
				t.Fatalf("mirrorChanges = %+v, want %d change(s)", changes, tt.want)
			}
			if tt.log == tt.copy && locked != 0 {
				t.Errorf("a log that is its copy took the lock %d time(s)", locked)
			}
		})
	}
}

// TestReplaceMirror: a compaction leaves the log and its copy the same,
// and nothing beside them in either directory.
func TestReplaceMirror(t *testing.T) {
	root := t.TempDir()
	const dir = ".orchestration/state/spend"
	logPath := filepath.Join(root, filepath.FromSlash(dir), "INT-001.log")
	mirror := MirrorDir(root, dir)
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"1 1 0 0 0 0 0\n", "1 2 0 0 0 0 0\n"} {
		if err := AppendMirror(mirror, logPath, []byte(line)); err != nil {
			t.Fatal(err)
		}
		if err := osfile.AppendFile(logPath, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := ReplaceMirror(mirror, logPath, []byte("1 2 0 0 0 0 0\n")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{logPath, filepath.Join(mirror, "INT-001.log")} {
		if got := string(must(os.ReadFile(p))); got != "1 2 0 0 0 0 0\n" {
			t.Errorf("%s = %q after the compaction", p, got)
		}
	}
	for _, d := range []string{filepath.Dir(logPath), mirror, filepath.Dir(mirror), filepath.Dir(filepath.Dir(logPath))} {
		for _, e := range must(os.ReadDir(d)) {
			if !e.IsDir() && e.Name() != "INT-001.log" {
				t.Errorf("%s left in %s", e.Name(), d)
			}
		}
	}
	if got := mirrorChanges(root, Target{Rel: dir, Kind: Mirrored}, &Snapshot{At: 1}); len(got) != 0 {
		t.Errorf("mirrorChanges after a compaction = %+v", got)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
