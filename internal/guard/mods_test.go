package guard

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestModsFolder pictures a mods folder outside the workspace, lets a
// command change it in each way, and checks what the guard finds and puts
// back: a file added (at any depth, or a link) is taken out and kept, one
// changed is put back, one removed and a directory made are left, and
// nothing excuses a change there.
func TestModsFolder(t *testing.T) {
	tests := []struct {
		name    string
		command func(t *testing.T, mods string)
		want    []string // the files changed, under mods
		gone    []string // taken out
		restore map[string]string
	}{
		{"nothing", func(*testing.T, string) {}, nil, nil, nil},
		{"a mod planted deep", func(t *testing.T, mods string) {
			put(t, filepath.Join(mods, "s1/evil/hooks/register.ts"), "evil")
		}, []string{"s1/evil/hooks/register.ts"}, []string{"s1/evil/hooks/register.ts"}, nil},
		{"a link planted", func(t *testing.T, mods string) {
			if err := os.Symlink(t.TempDir(), filepath.Join(mods, "linked")); err != nil {
				t.Skip(err)
			}
		}, []string{"linked"}, []string{"linked"}, nil},
		{"the person's mod changed", func(t *testing.T, mods string) {
			put(t, filepath.Join(mods, "mine/hooks/register.ts"), "evil")
		}, []string{"mine/hooks/register.ts"}, nil, map[string]string{"mine/hooks/register.ts": "mine"}},
		{"the person's mod removed", func(t *testing.T, mods string) {
			if err := os.RemoveAll(filepath.Join(mods, "mine")); err != nil {
				t.Fatal(err)
			}
		}, nil, nil, nil},
		{"a session's folder made", func(t *testing.T, mods string) {
			if err := os.MkdirAll(filepath.Join(mods, "s2"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, home := t.TempDir(), t.TempDir()
			mods := filepath.Join(home, ".claude", "dev-mods")
			put(t, filepath.Join(mods, "mine/hooks/register.ts"), "mine")
			s, err := Take(root, []Target{{Rel: mods, Kind: Mods}}, "", "")
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Mods) != 1 || !s.Mods[0].Full {
				t.Fatalf("pictured %+v", s.Mods)
			}
			tt.command(t, mods)
			changes := Compare(root, s, nil)
			var got []string
			for _, c := range changes {
				rel, _ := filepath.Rel(mods, c.Rel)
				got = append(got, filepath.ToSlash(rel))
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("changes %q, want %q", got, tt.want)
			}
			undone := Undo(root, changes, func(Change) bool { return true }, time.Unix(0, 0))
			if len(undone) != 0 {
				t.Fatalf("the caller's excuse was taken: %+v", undone)
			}
			r := Check(root, s, excuseAll{}, Options{Now: time.Unix(1, 0)})
			if len(r.Undone) != len(tt.want) {
				t.Fatalf("undone %+v, want %d (nothing excuses a change there)", r.Undone, len(tt.want))
			}
			for _, c := range r.Undone {
				if c.Err != nil || !c.Undone || c.Kept == "" {
					t.Errorf("%s: undone %v, kept %q, err %v", c.Rel, c.Undone, c.Kept, c.Err)
				}
			}
			for _, rel := range tt.gone {
				if _, err := os.Lstat(filepath.Join(mods, rel)); !os.IsNotExist(err) {
					t.Errorf("%s still there (%v)", rel, err)
				}
			}
			for rel, want := range tt.restore {
				if b, err := os.ReadFile(filepath.Join(mods, rel)); err != nil || string(b) != want {
					t.Errorf("%s = %q (%v), want %q", rel, b, err, want)
				}
			}
		})
	}
}

// TestModsFolderPastBound: a folder with more files than a picture holds
// is pictured in part; a file not pictured counts as added only when it
// changed after the picture.
func TestModsFolderPastBound(t *testing.T) {
	root, mods := t.TempDir(), t.TempDir()
	for i := range maxModsFiles + 5 {
		put(t, filepath.Join(mods, "big", "node_modules", "f"+strconv.Itoa(i)), "x")
	}
	time.Sleep(2 * coarseSlack) // the person's files are older than the picture
	s, err := Take(root, []Target{{Rel: mods, Kind: Mods}}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Mods) != 1 || s.Mods[0].Full {
		t.Fatalf("pictured %+v, want a part", s.Mods)
	}
	if changes := Compare(root, s, nil); len(changes) != 0 {
		t.Fatalf("nothing changed, found %d", len(changes))
	}
	planted := filepath.Join(mods, "zz", "hooks", "register.ts")
	put(t, planted, "evil")
	changes := Compare(root, s, nil)
	if len(changes) != 1 || changes[0].Rel != planted {
		t.Fatalf("changes %+v, want the planted file", changes)
	}
}

type excuseAll struct{}

func (excuseAll) Wrote(Change) bool     { return true }
func (excuseAll) Committed(string) bool { return true }

func put(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
