package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/intents"
)

func governedRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(root, Marker), "active_intents: []\n")
	return root
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestHookRoot(t *testing.T) {
	root := governedRoot(t)
	fake := governedRoot(t) // a root an agent built for itself
	other := t.TempDir()
	tests := []struct {
		name                   string
		flag, cwd, project, wd string
		want                   string
	}{
		{"cwd inside", "", filepath.Join(root, "src"), "", other, root},
		{"project dir", "", other, root, other, root},
		{"project dir over a cwd in a fake root", "", fake, root, fake, root},
		{"an ungoverned project dir is final", "", root, other, root, ""},
		{"process wd when cwd is elsewhere", "", other, "", filepath.Join(root, "x"), root},
		{"process wd over a cwd in a fake root", "", fake, "", root, root},
		{"cwd when the process wd is ungoverned", "", root, "", other, root},
		{"flag first", root, fake, fake, fake, root},
		{"nothing governed", "", other, "", other, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := HookRoot(tt.flag, tt.project, tt.cwd, tt.wd)
			if got != tt.want {
				t.Errorf("Discover = %q, want %q", got, tt.want)
			}
		})
	}
}

// A write's target names the root only as a last resort (HookRoot found
// none): the nearest governed root above the first path that lies in one.
func TestTargetRoot(t *testing.T) {
	root := governedRoot(t)
	other := t.TempDir()
	tests := []struct {
		name  string
		paths []string
		base  string
		want  string
	}{
		{"absolute, inside", []string{filepath.Join(root, "src", "a.go")}, other, root},
		{"a new directory inside", []string{filepath.Join(root, "new", "dir", "a.go")}, other, root},
		{"relative to the cwd", []string{"src/a.go"}, root, root},
		{"relative with no cwd", []string{"src/a.go"}, "", ""},
		{"outside", []string{filepath.Join(other, "a.go")}, root, ""},
		{"the first that lies in one", []string{filepath.Join(other, "a.go"), filepath.Join(root, "b.go")}, other, root},
		{"none", nil, root, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TargetRoot(tt.paths, tt.base); got != tt.want {
				t.Errorf("TargetRoot = %q, want %q", got, tt.want)
			}
		})
	}
}

// A workspace whose catalog is gone is found by its state directory, from
// the same anchors; a directory with neither is not.
func TestStateRoot(t *testing.T) {
	was := t.TempDir()
	if err := os.MkdirAll(filepath.Join(was, ".orchestration", "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	bare := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bare, ".orchestration"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := HookRoot("", "", filepath.Join(was, "src"), bare); got != "" {
		t.Errorf("HookRoot = %q, want none (no catalog)", got)
	}
	for _, tt := range []struct{ project, cwd, want string }{
		{"", filepath.Join(was, "src"), was},
		{was, bare, was},
		{bare, was, ""},
	} {
		if got := StateRoot("", tt.project, tt.cwd, bare); got != tt.want {
			t.Errorf("StateRoot(project %q, cwd %q) = %q, want %q", tt.project, tt.cwd, got, tt.want)
		}
	}
}

func TestResolve(t *testing.T) {
	root := governedRoot(t)
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	mustWrite(t, filepath.Join(root, "src/a.go"), "a")
	mustWrite(t, filepath.Join(outside, "secret"), "s")
	if err := os.Symlink(outside, filepath.Join(root, "src/out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "new-file"), filepath.Join(root, "src/dangling")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../lib", filepath.Join(root, "src/lib")); err != nil {
		t.Fatal(err)
	}
	// A link into a deep directory outside: "deep/.." is that directory's
	// parent, still outside, whatever the lexical path says.
	if err := os.MkdirAll(filepath.Join(outside, "a/deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "a/deep"), filepath.Join(root, "src/deep")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../src/deep/../../..", filepath.Join(root, "src/loop")); err != nil {
		t.Fatal(err)
	}
	r := NewResolver(root, filepath.Join(root, "src"), nil, os.Getenv)
	tmp := NewResolver(root, root, []string{outside + "/**"}, os.Getenv)
	tests := []struct {
		name  string
		r     *Resolver
		path  string
		place Place
		rel   string
	}{
		{"absolute inside", r, filepath.Join(root, "src/a.go"), Inside, "src/a.go"},
		{"relative to cwd", r, "a.go", Inside, "src/a.go"},
		{"new file in new dir", r, "new/dir/x.go", Inside, "src/new/dir/x.go"},
		{"dot-dot inside", r, "../README.md", Inside, "README.md"},
		{"dot-dot escape", r, "../../../../etc/passwd", Outside, ""},
		{"absolute outside", r, "/etc/hosts", Outside, ""},
		{"symlinked dir pointing outside", r, "out/secret", Outside, ""},
		{"dangling symlink pointing outside", r, "dangling", Outside, ""},
		{"symlink within root lands elsewhere", r, "lib/x.go", Inside, "lib/x.go"},
		{"root itself", r, root, Inside, "."},
		{"symlink then dot-dot escapes", r, "deep/../escaped.txt", Outside, ""},
		{"symlink then dot-dot, absolute", r, root + "/src/deep/../x", Outside, ""},
		{"relative link through a link", r, "loop/x", Outside, ""},
		{"dot-dot before any link stays lexical", r, "new/../a.go", Inside, "src/a.go"},
		{"outside_allow", tmp, filepath.Join(outside, "scratch"), Temp, ""},
		{"outside_allow dir itself", tmp, outside, Temp, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.r.Resolve(tt.path)
			if got.Place != tt.place || got.Rel != tt.rel {
				t.Errorf("Resolve(%q) = %+v, want place %d rel %q", tt.path, got, tt.place, tt.rel)
			}
		})
	}
}

func TestProtected(t *testing.T) {
	p, err := NewProtected(Governance(agent.Governance()), true, []string{"secrets/**"})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		".orchestration/active_intents.yaml": true,
		".orchestration/config.yaml":         true,
		".orchestration/.intentignore":       true,
		".orchestration/agent_trace.jsonl":   true,
		".orchestration/state/sessions/x":    true,
		".orchestration/state":               true,
		".orchestration/intent_map.md":       false,
		".orchestration/CLAUDE.md":           false,
		".claude/settings.json":              true,
		".claude/settings.local.json":        true,
		".claude/commands/x.md":              false,
		".git/config":                        true,
		"vendor/x/.git/HEAD":                 true,
		".github/workflows/ci.yml":           false,
		"secrets/key":                        true,
		"src/a.go":                           false,
	} {
		if _, got := p.Match(path); got != want {
			t.Errorf("Match(%q) = %v, want %v", path, got, want)
		}
	}
	off, _ := NewProtected(Governance(nil), false, nil)
	if _, got := off.Match(".orchestration/active_intents.yaml"); got {
		t.Error("protect_governance_files: false still protects")
	}
	if _, err := NewProtected(Governance(nil), true, []string{"src/{a"}); err == nil {
		t.Error("bad extra glob accepted")
	}
}

func TestIgnore(t *testing.T) {
	ig := ParseIgnore([]byte("# comment\n*.log\nbuild/\n/docs/generated/**\n!keep.log\n\n.claude/\n"))
	for path, want := range map[string]bool{
		"x.log":                 true,
		"a/b/x.log":             true,
		"keep.log":              false,
		"build/out.bin":         true,
		"src/build/out.bin":     true,
		"docs/generated/a.md":   true,
		"docs/a.md":             false,
		".claude/settings.json": true,
		"src/a.go":              false,
	} {
		if got := ig.Match(path, false); got != want {
			t.Errorf("Match(%q) = %v, want %v", path, got, want)
		}
	}
	var none *Ignore
	if none.Match("x", false) {
		t.Error("nil Ignore matches")
	}
}

// TestMatchPatternAgreesWithGlobs pins the string fast paths to the glob
// semantics they stand in for.
func TestMatchPatternAgreesWithGlobs(t *testing.T) {
	patterns := []string{".git/**", ".orchestration/state/**", ".claude/settings.json", "**/.git/**", "secrets/*.key", "docs/{a,b}/**"}
	paths := []string{".git", ".git/HEAD", ".git/refs/heads/main", ".gitignore", ".github/x", "a/.git/HEAD", "a/b/.git/x", "a/.git", "a/.gitx", "a.git",
		".orchestration/state", ".orchestration/state/x/y", ".orchestration/statefile", ".claude/settings.json", ".claude/settings.json.bak",
		"secrets/a.key", "secrets/x/a.key", "docs/a/x", "docs/c/x", "src/a.go", ""}
	for _, pat := range patterns {
		for _, p := range paths {
			want, err := intents.MatchGlob(pat, p)
			if err != nil {
				t.Fatal(err)
			}
			if got := matchPattern(pat, p); got != want {
				t.Errorf("matchPattern(%q, %q) = %v, glob says %v", pat, p, got, want)
			}
		}
	}
}
