package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/governed"
)

// TestGovernanceLists derives the protected paths, the guard's watch list
// and the sandbox's read-only list from the one table, and holds each to
// what it is, with the differences between them that are meant.
func TestGovernanceLists(t *testing.T) {
	table := Governance(agent.Governance())
	protected := sorted(table.Paths(governed.Protected))
	guarded := sorted(table.Paths(governed.Guarded))
	readOnly := sorted(table.Paths(governed.ReadOnly))

	wantProtected := sorted([]string{
		".orchestration/active_intents.yaml", ".orchestration/config.yaml", ".orchestration/.intentignore", ".intentignore",
		".orchestration/agent_trace.jsonl", ".orchestration/ledger", ".orchestration/ledger/**", ".orchestration/state/**",
		".orchestration/.gitignore", ".orchestration/state/guard", ".orchestration/state/locks", ".orchestration/state/ledger@*.head", ".orchestration/state/anchors.jsonl", ".orchestration/state/seen", ".orchestration/state/recent",
		".git/**", "**/.git/**",
		".claude/settings.json", ".claude/settings.local.json", ".mcp.json",
		".augment/settings.json",
		".clinerules/hooks/PreToolUse", ".clinerules/hooks/PostToolUse", ".clinerules/hooks/TaskStart", ".clinerules/hooks/TaskResume", ".clinerules/hooks/UserPromptSubmit", ".cline/plugins/intenthook.js",
		".codex/hooks.json", ".codex/config.toml",
		".github/hooks/intenthook.json", ".github/hooks/intenthook-vscode.json",
		".agents/hooks.json",
		".crush.json", "crush.json", ".crushrc", "crushrc", ".crush/crush.json",
		".cursor/hooks.json", ".cursor/mcp.json", ".cursor/sandbox.json",
		".factory/settings.json", ".factory/mcp.json",
		".gemini/settings.json",
		".kilo/plugin/intenthook.ts", ".kilocode/plugin/intenthook.ts",
		".opencode/plugin/intenthook.ts", "opencode.json",
		".qwen/settings.json",
		".windsurf/hooks.json",
		".orchestration/agents", ".orchestration/agents/**",
		".qoder/settings.json", ".codebuddy/settings.json", ".iflow/settings.json", ".kiro/agents/intenthook.json", ".grok/hooks/intenthook.json", ".devin/hooks.v1.json", ".openhands/hooks.json", ".agents/plugins/intenthook/hooks/hooks.json", ".config/goose/settings.json", ".config/goose/settings.local.json",
		"node_modules/.bin/intenthook", "node_modules/.bin/intenthook-full", "node_modules/.bin/intenthook-mcp", "node_modules/.bin/intenthook-export", "node_modules/.bin/intenthook-attest", "node_modules/.bin/intenthook-console", "node_modules/intenthook/**", "node_modules/@intenthook/**",
		".husky/pre-commit", ".husky/commit-msg", ".pre-commit-config.yaml",
	})
	wantGuarded := sorted([]string{
		".orchestration/active_intents.yaml", ".orchestration/config.yaml", ".orchestration/.intentignore", ".intentignore",
		".orchestration/agent_trace.jsonl", ".orchestration/ledger/**", ".orchestration/state/catalog.cache", ".orchestration/state/plugins", ".orchestration/state/precommit", ".orchestration/state/ledger.writer", ".orchestration/state/default.json", ".orchestration/state/reviews", ".orchestration/state/summary", ".orchestration/state/spend", ".orchestration/.gitignore", ".orchestration/state/sessions", ".orchestration/state/denials", ".orchestration/state/spool", ".orchestration/state/hook-replaced", ".orchestration/CLAUDE.md",
		".git/hooks", ".git/config", ".git/intenthook/governed", ".git/intenthook/claims", ".git/intenthook/asks", ".git/intenthook/clone", ".git/intenthook/claims-mode",
		".claude/settings.json", ".claude/settings.local.json", ".mcp.json",
		".augment/settings.json",
		".clinerules/hooks/PreToolUse", ".clinerules/hooks/PostToolUse", ".clinerules/hooks/TaskStart", ".clinerules/hooks/TaskResume", ".clinerules/hooks/UserPromptSubmit", ".cline/plugins/intenthook.js",
		".codex/hooks.json", ".codex/config.toml",
		".github/hooks/intenthook.json", ".github/hooks/intenthook-vscode.json",
		".agents/hooks.json",
		".crush.json", "crush.json", ".crushrc", "crushrc", ".crush/crush.json",
		".cursor/hooks.json", ".cursor/mcp.json", ".cursor/sandbox.json",
		".factory/settings.json", ".factory/mcp.json",
		".gemini/settings.json",
		".kilo/plugin/intenthook.ts", ".kilocode/plugin/intenthook.ts",
		".opencode/plugin/intenthook.ts", "opencode.json",
		".qwen/settings.json",
		".windsurf/hooks.json",
		".orchestration/state/asks", ".orchestration/state/remote-claims",
		".qoder/settings.json", ".codebuddy/settings.json", ".iflow/settings.json", ".kiro/agents/intenthook.json", ".grok/hooks/intenthook.json", ".devin/hooks.v1.json", ".openhands/hooks.json", ".agents/plugins/intenthook/hooks/hooks.json", ".config/goose/settings.json", ".config/goose/settings.local.json",
		"node_modules/intenthook/bin/intenthook", "node_modules/intenthook/bin/intenthook-full",
		".husky/pre-commit", ".husky/commit-msg", ".pre-commit-config.yaml",
	})
	wantReadOnly := sorted([]string{
		".orchestration/active_intents.yaml", ".orchestration/config.yaml", ".orchestration/.intentignore", ".intentignore",
		".orchestration/state/pending", ".orchestration/state/shells.log", ".orchestration/state/asks", ".orchestration/state/remote-claims",
		".orchestration/state/spend", ".orchestration/state/guard/mirror/spend",
		".claude/settings.json", ".gemini/settings.json", ".qwen/settings.json", ".codex", ".github/hooks",
		".factory/settings.json", ".augment/settings.json", ".cursor/hooks.json", ".windsurf/hooks.json",
		".clinerules/hooks", ".opencode/plugin", ".git/hooks", ".git/config", ".git/intenthook/claims", ".git/intenthook/governed", ".git/intenthook/asks", ".git/intenthook/journal", ".git/intenthook/scope_requests.json", ".git/intenthook/clone", ".git/intenthook/claims-mode",
		".agents/hooks.json",
		".crush.json", "crush.json", ".crushrc", "crushrc", ".crush/crush.json",
		".orchestration/agents", ".orchestration/agents/**",
		".qoder/settings.json", ".codebuddy/settings.json", ".iflow/settings.json", ".kiro/agents/intenthook.json", ".grok/hooks/intenthook.json", ".devin/hooks.v1.json", ".openhands/hooks.json", ".agents/plugins/intenthook/hooks/hooks.json",
		".kilo/plugin", ".kilo/plugins", ".kilocode/plugin", ".kilocode/plugins",
		"node_modules/intenthook", "node_modules/@intenthook",
		"node_modules/.bin/intenthook", "node_modules/.bin/intenthook-full", "node_modules/.bin/intenthook-mcp", "node_modules/.bin/intenthook-export", "node_modules/.bin/intenthook-attest", "node_modules/.bin/intenthook-console",
	})
	for _, c := range []struct {
		name      string
		got, want []string
	}{{"protected", protected, wantProtected}, {"guarded", guarded, wantGuarded}, {"sandbox read-only", readOnly, wantReadOnly}} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, c.got, c.want)
		}
	}

	// The differences that are meant.
	for _, d := range []struct {
		path string
		is   governed.Use
		not  governed.Use
		why  string
	}{
		{".orchestration/agent_trace.jsonl", governed.Protected | governed.Guarded, governed.ReadOnly, "commits, lessons and anchors write the ledger from an agent's shell"},
		{".orchestration/ledger/**", governed.Protected | governed.Guarded | governed.Sidecar, governed.ReadOnly, "hooks in an agent's shell (a commit, a lesson) append to segments"},
		{".orchestration/state/**", governed.Protected, governed.ReadOnly | governed.Guarded, "commits, lessons and anchors write state/ from an agent's shell"},
		{".claude/settings.local.json", governed.Protected | governed.Guarded, governed.ReadOnly, "Claude Code writes permissions there itself: guarded for its hooks and their off switches only"},
		{".orchestration/CLAUDE.md", governed.Guarded | governed.Sidecar, governed.Protected | governed.ReadOnly, "intenthook lesson writes the lessons file from an agent's shell; a program's rewrite is undone"},
		{"node_modules/intenthook/**", governed.Protected, governed.Guarded, "the guard would hash four large binaries around every shell call"},
		{"node_modules/intenthook/bin/intenthook", governed.Guarded, governed.Protected | governed.ReadOnly, "a stat of the program the wiring runs; protected and read-only through the package's rows"},
		{".orchestration/state/hook-replaced", governed.Guarded, governed.ReadOnly, "hooks write it; a program that takes it out is undone"},
		{".orchestration/state/ledger.writer", governed.Guarded, governed.ReadOnly, "a commit in an agent's shell rolls the ledger over and writes it; a program's rewrite is undone"},
	} {
		var use governed.Use
		for _, f := range table {
			if f.Path == d.path {
				use |= f.Use
			}
		}
		if use&d.is != d.is || use&d.not != 0 {
			t.Errorf("%s: uses %04b, want %04b and not %04b: %s", d.path, use, d.is, d.not, d.why)
		}
	}
	for _, f := range table {
		if f.Reason == "" || f.Use == 0 {
			t.Errorf("row %q: every row says what applies and why", f.Path)
		}
	}
}

// TestGovernanceAgentWiring: every agent's hook settings and MCP
// configuration are rows of its own that are protected and guarded.
func TestGovernanceAgentWiring(t *testing.T) {
	for _, a := range agent.All() {
		files := slices.Clone(a.Settings)
		if a.MCP != nil {
			files = append(files, a.MCP.File)
		}
		for _, file := range files {
			i := slices.IndexFunc(a.Governance, func(f governed.File) bool { return f.Path == file })
			if i < 0 || a.Governance[i].Use&(governed.Protected|governed.Guarded) != governed.Protected|governed.Guarded {
				t.Errorf("%s: %s is not a protected and guarded row of its Governance", a.Name, file)
			}
		}
	}
}

func TestSidecar(t *testing.T) {
	for _, c := range []struct {
		rel, lessons string
		want         bool
	}{
		{".orchestration/active_intents.yaml", "", true},
		{".orchestration/agent_trace.jsonl", "", true},
		{".orchestration/intent_map.md", "", true},
		{".orchestration/CLAUDE.md", "", true},
		{".orchestration/CLAUDE.md", "docs/LESSONS.md", false},
		{"docs/LESSONS.md", "docs/LESSONS.md", true},
		{".orchestration/state/session/x", "", true},
		{".orchestration/ledger/0123456789abcdef/2026-11/000001.jsonl", "", true},
		{".orchestration/ledger/legacy/000001.jsonl", "", true},
		{".orchestration/state", "", false},
		{".orchestration/build.sh", "", false},
		// Agents' wiring and the root's ignore file: a person's set-up
		// commit needs no intent.
		{".claude/settings.json", "", true},
		{".gemini/settings.json", "", true},
		{".clinerules/hooks/TaskResume", "", true},
		{".intentignore", "", true},
		{"src/.intentignore", "", false},
		{".gemini/other.json", "", false},
	} {
		if got := Sidecar(Governance(agent.Governance()), c.rel, c.lessons); got != c.want {
			t.Errorf("Sidecar(%q, %q) = %v, want %v", c.rel, c.lessons, got, c.want)
		}
	}
}

// TestGovernanceListed: the governance files a person changes are listed
// by precommit and audit with their reason; what the hooks write is not.
func TestGovernanceListed(t *testing.T) {
	for _, c := range []struct {
		rel  string
		want bool
	}{
		{".orchestration/config.yaml", true},
		{".orchestration/.intentignore", true},
		{".intentignore", true},
		{".gemini/settings.json", true},
		{".codex/config.toml", true},
		{".cline/plugins/intenthook.js", true},
		{"opencode.json", true},
		{".claude/settings.local.json", true},
		{".orchestration/active_intents.yaml", false}, // listed intent by intent
		{".orchestration/agent_trace.jsonl", false},
		{".orchestration/state/x", false},
		{"src/a.go", false},
	} {
		reason, ok := GovernanceChange(Governance(agent.Governance()), c.rel)
		if ok != c.want || ok && reason == "" {
			t.Errorf("GovernanceChange(%q) = %q, %v; want listed %v with a reason", c.rel, reason, ok, c.want)
		}
	}
	for _, a := range agent.All() {
		for _, f := range a.Governance {
			if f.Use&governed.Protected != 0 && f.Use&(governed.Sidecar|governed.Listed) != governed.Sidecar|governed.Listed {
				t.Errorf("%s: %s is protected wiring but not a listed sidecar", a.Name, f.Path)
			}
		}
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// In a linked work tree, git's rows name where git keeps the files, all
// of them in the common git directory: the governed marker too, one per
// repository.
func TestSandboxReadOnlyAtWorkTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	main := filepath.Join(dir, "main")
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = main
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(main, 0o755); err != nil {
		t.Fatal(err)
	}
	run("init", "-q")
	run("commit", "-q", "--allow-empty", "-m", "base")
	run("worktree", "add", "-q", "../wt2")
	list := SandboxReadOnlyAt(gits, filepath.Join(dir, "wt2"))
	for _, want := range []string{"../main/.git/config", "../main/.git/intenthook/governed", "../main/.git/intenthook/claims"} {
		if !slices.Contains(list, want) {
			t.Errorf("read-only list %q lacks %s", list, want)
		}
	}
	if path, _, ok := MarkerPath(filepath.Join(dir, "wt2")); !ok || path != filepath.Join(main, ".git", GovernedMarker) {
		t.Errorf("MarkerPath(wt2) = %q, %v; want the common directory's", path, ok)
	}
}
