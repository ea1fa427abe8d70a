package setup

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/hookconfig"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/workspace"
)

func fixedNow() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }

func TestExampleCatalogValidates(t *testing.T) {
	c, err := intents.Parse(ExampleCatalog(fixedNow()))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Problems) != 0 {
		t.Errorf("problems: %v", c.Problems)
	}
	if len(c.All()) != 1 || c.All()[0].Status != intents.Pending {
		t.Errorf("want one PENDING intent, got %+v", c.All())
	}
	if c.All()[0].CreatedAt != "2026-03-01T12:00:00Z" {
		t.Errorf("created_at %q", c.All()[0].CreatedAt)
	}
}

func TestExampleIgnoreExemptsTheSetUp(t *testing.T) {
	ig := workspace.ParseIgnore([]byte(exampleIgnoreText))
	for _, p := range []string{".gitignore", ".gitattributes", ".claude/settings.json", "sub/.gitignore"} {
		if !ig.Match(p, false) {
			t.Errorf("%s is not exempt", p)
		}
	}
	if ig.Match("src/main.go", false) {
		t.Error("src/main.go is exempt")
	}
}

func TestSameEntry(t *testing.T) {
	tests := []struct {
		have, want string
		same       bool
	}{
		{".orchestration/state/", stateIgnore, true},
		{"/.orchestration/state", stateIgnore, true},
		{"  .orchestration/state/  ", stateIgnore, true},
		{"# .orchestration/state/", stateIgnore, false},
		{".orchestration/", stateIgnore, false},
		{"", stateIgnore, false},
		{mapUnion, mapUnion, true},
		{".orchestration/intent_map.md  -diff merge=union", mapUnion, true},
		{".orchestration/intent_map.md merge=ours", mapUnion, false},
		{"*.jsonl merge=union", mapUnion, false},
	}
	for _, tt := range tests {
		if got := sameEntry(tt.have, tt.want); got != tt.same {
			t.Errorf("sameEntry(%q, %q) = %v, want %v", tt.have, tt.want, got, tt.same)
		}
	}
}

func TestEnsureLine(t *testing.T) {
	tests := []struct {
		name, old string // old "-": no file
		want      string
		action    Action
	}{
		{"no file", "-", stateIgnore + "\n", Created},
		{"empty file", "", stateIgnore + "\n", Updated},
		{"appends", "node_modules/\n", "node_modules/\n" + stateIgnore + "\n", Updated},
		{"adds the missing newline", "node_modules/", "node_modules/\n" + stateIgnore + "\n", Updated},
		{"kept", "a\n/.orchestration/state\nb", "a\n/.orchestration/state\nb", Kept},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ".gitignore")
			if tt.old != "-" {
				if err := os.WriteFile(path, []byte(tt.old), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			c, err := ensureLine(dir, ".gitignore", stateIgnore)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tt.want || c.Action != tt.action {
				t.Errorf("got %q %s, want %q %s", got, c.Action, tt.want, tt.action)
			}
			if st, _ := os.Stat(path); tt.old != "-" && st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want the file's own 0600", st.Mode().Perm())
			}
		})
	}
}

func TestWriteIntentIgnore(t *testing.T) {
	tests := []struct {
		name, old string
		force     bool
		action    Action
		note      string
		replaced  bool
	}{
		{name: "new", old: "-", action: Created, replaced: true},
		{name: "same", old: exampleIgnoreText, action: Kept},
		{name: "user's, covering the set-up", old: ".gitignore\n.gitattributes\n.claude\nvendor/\n", action: Kept},
		{name: "user's, not covering", old: "vendor/\n", action: Kept,
			note: "it does not exempt .gitignore, .gitattributes, .claude/settings.json: precommit will call them out_of_scope; --force replaces it with the example"},
		{name: "forced", old: "vendor/\n", force: true, action: Replaced, replaced: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, filepath.FromSlash(workspace.IgnoreFile))
			if tt.old != "-" {
				_ = os.MkdirAll(filepath.Dir(path), 0o755)
				_ = os.WriteFile(path, []byte(tt.old), 0o644)
			}
			c, err := writeIntentIgnore(dir, tt.force)
			if err != nil {
				t.Fatal(err)
			}
			if c.Action != tt.action || c.Note != tt.note {
				t.Errorf("got %s %q, want %s %q", c.Action, c.Note, tt.action, tt.note)
			}
			got, _ := os.ReadFile(path)
			if wantExample := tt.replaced || tt.old == exampleIgnoreText; (string(got) == exampleIgnoreText) != wantExample {
				t.Errorf("content %q", got)
			}
		})
	}
}

func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	return dir
}

func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestInitTwiceChangesNothing(t *testing.T) {
	dir := gitRepo(t)
	ctx := context.Background()
	opts := Options{Root: dir, GitHook: true, Now: fixedNow}
	first, err := Init(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range first {
		if c.Action != Created {
			t.Errorf("first run: %s", c)
		}
	}
	before := snapshot(t, dir)
	second, err := Init(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range second {
		if c.Action != Kept {
			t.Errorf("second run: %s", c)
		}
	}
	after := snapshot(t, dir)
	if len(before) != len(after) {
		t.Errorf("files %d then %d", len(before), len(after))
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed on the second run", k)
		}
	}
	hook := after[filepath.Join(".git", "hooks", "pre-commit")]
	if !strings.HasSuffix(hook, "\nexec intenthook precommit\n") {
		t.Errorf("hook script:\n%s", hook)
	}
	if st, _ := os.Stat(filepath.Join(dir, ".git", "hooks", "pre-commit")); st.Mode().Perm()&0o111 == 0 {
		t.Error("the hook is not executable")
	}
}

func TestInitKeepsSettings(t *testing.T) {
	dir := t.TempDir()
	settings := `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}]
  },
  "env": {"A": "1"}
}`
	path := filepath.Join(dir, ".claude", "settings.json")
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Init(context.Background(), Options{Root: dir, Now: fixedNow}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	o, err := hookconfig.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(o.Keys(), ","); got != "model,hooks,env" {
		t.Errorf("keys %s", got)
	}
	if hs := hookconfig.Handlers(o, "PreToolUse", nil); len(hs) != 2 || hs[0].Command != "guard.sh" || hs[1].Command != "intenthook pre" {
		t.Errorf("PreToolUse handlers %+v", hs)
	}
}

func TestInitConflicts(t *testing.T) {
	dir := gitRepo(t)
	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	_ = os.MkdirAll(filepath.Dir(hook), 0o755)
	_ = os.WriteFile(hook, []byte("#!/bin/sh\nmake lint\n"), 0o755)
	settings := filepath.Join(dir, ".claude", "settings.json")
	_ = os.MkdirAll(filepath.Dir(settings), 0o755)
	_ = os.WriteFile(settings, []byte("{not json"), 0o644)

	changes, err := Init(context.Background(), Options{Root: dir, GitHook: true, Now: fixedNow})
	var cs Conflicts
	if !errors.As(err, &cs) || len(cs) != 1 || cs[0].Path != ".claude/settings.json" {
		t.Fatalf("err = %v, want the settings' conflict", err)
	}
	if len(changes) != 9 { // the chained pre-commit, the commit-msg hook and config.yaml's people block among them
		t.Errorf("the other steps were not all done: %v", changes)
	}
	if b, _ := os.ReadFile(hook + ".intenthook-chained"); string(b) != "#!/bin/sh\nmake lint\n" {
		t.Error("the user's hook was not chained as it was")
	}
	if b, _ := os.ReadFile(hook); !strings.Contains(string(b), "pre-commit.intenthook-chained") {
		t.Errorf("the hook does not run the chained one: %q", b)
	}
	if b, _ := os.ReadFile(settings); string(b) != "{not json" {
		t.Error("the broken settings were overwritten")
	}

	// --force replaces someone's hook instead of chaining it; the broken
	// settings still need a person.
	_ = os.WriteFile(hook, []byte("#!/bin/sh\nmake lint\n"), 0o755)
	_, err = Init(context.Background(), Options{Root: dir, GitHook: true, Force: true, Now: fixedNow})
	if !errors.As(err, &cs) || len(cs) != 1 {
		t.Fatalf("forced: err = %v", err)
	}
	if b, _ := os.ReadFile(hook); !strings.Contains(string(b), "exec intenthook precommit") {
		t.Errorf("forced hook %q", b)
	}

	// A chained hook already there is not overwritten: a conflict.
	_ = os.WriteFile(hook, []byte("#!/bin/sh\nmake vet\n"), 0o755)
	_, err = Init(context.Background(), Options{Root: dir, GitHook: true, Now: fixedNow})
	if !errors.As(err, &cs) || len(cs) != 2 || cs[1].Path != ".git/hooks/pre-commit" {
		t.Fatalf("taken: err = %v", err)
	}
	if b, _ := os.ReadFile(hook); string(b) != "#!/bin/sh\nmake vet\n" {
		t.Errorf("the hook was overwritten: %q", b)
	}
}

func TestInitGitHookBelowTheTop(t *testing.T) {
	dir := gitRepo(t)
	root := filepath.Join(dir, "it's here")
	_ = os.MkdirAll(root, 0o755)
	if _, err := Init(context.Background(), Options{Root: root, GitHook: true, Now: fixedNow}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ".git", "hooks", "pre-commit"))
	if want := `exec intenthook precommit --root 'it'\''s here'`; !strings.Contains(string(b), want) {
		t.Errorf("hook %q lacks %q", b, want)
	}
}

func TestInitUnknownAgent(t *testing.T) {
	if _, err := Init(context.Background(), Options{Root: t.TempDir(), Agent: "roo"}); err == nil || !strings.Contains(err.Error(), `unknown agent "roo"`) {
		t.Errorf("err = %v, want unknown agent", err)
	}
}

func TestRoot(t *testing.T) {
	ctx := context.Background()
	dir := gitRepo(t)
	sub := filepath.Join(dir, "a", "b")
	_ = os.MkdirAll(sub, 0o755)
	real, _ := filepath.EvalSymlinks(dir)
	if got, _ := Root(ctx, "", sub); got != dir && got != real {
		t.Errorf("Root in a repository = %s, want its top %s", got, dir)
	}
	gov := filepath.Join(dir, "a")
	_ = os.MkdirAll(filepath.Join(gov, ".orchestration"), 0o755)
	_ = os.WriteFile(filepath.Join(gov, filepath.FromSlash(intents.File)), ExampleCatalog(fixedNow()), 0o644)
	if got, _ := Root(ctx, "", sub); got != gov {
		t.Errorf("Root in a governed workspace = %s, want %s", got, gov)
	}
	if got, _ := Root(ctx, sub, dir); got != sub {
		t.Errorf("Root with --root = %s", got)
	}
}

// TestInitUser: init --user merges an agent's hooks into the user's file,
// keeping its other keys, writes nothing in the workspace, refuses an agent
// wired in the repository, and leaves a file it cannot parse as it is.
func TestInitUser(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	path := filepath.Join(home, ".junie", "config.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"model": "m", "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := InitUser(Options{Root: root, Agent: "junie", Home: home})
	if err != nil || c.Action != Updated {
		t.Fatalf("InitUser = %+v, %v", c, err)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{`"model": "m"`, `echo hi`, `intenthook pre --agent junie`, `intenthook context --agent junie`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the user's file lacks %s:\n%s", want, data)
		}
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("the workspace gained %d files", len(entries))
	}
	if c, err := InitUser(Options{Root: root, Agent: "junie", Home: home}); err != nil || c.Action != Kept {
		t.Errorf("a second run: %+v, %v", c, err)
	}
	if _, err := InitUser(Options{Root: root, Agent: "claude", Home: home}); err == nil {
		t.Error("Claude Code wired per user")
	}
	if err := os.WriteFile(path, []byte(`{not json`), 0o644); err != nil {
		t.Fatal(err)
	}
	var conflicts Conflicts
	if _, err := InitUser(Options{Root: root, Agent: "junie", Home: home}); !errors.As(err, &conflicts) {
		t.Errorf("an unreadable file: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{not json` {
		t.Errorf("an unreadable file was changed: %s", data)
	}
}
