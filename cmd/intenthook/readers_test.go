//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/workspace"
)

// catchAll is the state/** row: it names no file, and a file a hook reads
// needs a row of its own (issue 37's rule: who writes it, and why it may
// be believed).
const catchAll = ".orchestration/state/**"

// TestHookReadersHaveRows drives the real hook commands (pre and post of a
// write and of a shell command, the context of a session's start, prompt,
// turn end and end, a subagent's start, precommit) over a workspace under
// strace, and holds every path a hook process (or a git it runs) opens
// for reading under .orchestration/, or in an agent's wiring (a dot file
// or directory at the root, node_modules/), to a row of the governance
// table other than the catch-all state/** row. A reader added without a
// row fails here.
func TestHookReadersHaveRows(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed (.ci/run installs it)")
	}
	if out, err := exec.Command(strace, "-f", "-qq", "-e", "trace=openat", "-o", os.DevNull, "true").CombinedOutput(); err != nil {
		t.Skipf("strace cannot trace here: %v %s", err, out)
	}
	bin := binary(t)
	root := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	git("init", "-q")
	git("config", "user.email", "dev@example.com")
	git("config", "user.name", "dev")
	mustWriteFile(t, filepath.Join(root, ".orchestration/active_intents.yaml"), `active_intents:
  - id: INT-001
    name: Report
    status: IN_PROGRESS
    review: required
    owned_scope: ["src/**"]
    constraints: []
    acceptance_criteria:
      - {description: "it builds", check: "test -f src/a.go"}
    created_at: "2026-01-01T00:00:00Z"
    updated_at: "2026-01-01T00:00:00Z"
`)
	mustWriteFile(t, filepath.Join(root, ".orchestration/config.yaml"), "shell:\n  checks: [\"go test\"]\n")
	mustWriteFile(t, filepath.Join(root, "src/a.go"), "package src\n")
	mustWriteFile(t, filepath.Join(root, "CLAUDE.md"), "# Project\n")
	full := filepath.Join(filepath.Dir(bin), "intenthook-full")
	run := func(traced bool, stdin string, args ...string) {
		t.Helper()
		name, argv := bin, args
		if args[0] == "full" {
			name, argv = full, args[1:]
		}
		if traced {
			argv = append([]string{"-f", "-qq", "-e", "trace=open,openat,openat2", "-o", filepath.Join(root, "..", fmt.Sprintf("trace-%d", len(traces))), name}, argv...)
			name = strace
			traces = append(traces, strings.Join(args, " ")+" "+eventName(stdin))
		}
		cmd := exec.Command(name, argv...)
		cmd.Dir = root
		cmd.Stdin = strings.NewReader(strings.ReplaceAll(stdin, "$WORK", root))
		cmd.Env = append(os.Environ(), "CLAUDECODE=", "HOME="+filepath.Join(root, "..", "home"))
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 2) {
			t.Fatalf("%v: %v %s", args, err, out)
		}
	}
	git("add", "-A")
	git("commit", "-qm", "init")
	// Once untraced, so that the state every later call reads exists.
	for _, traced := range []bool{false, true} {
		traces = traces[:0]
		run(traced, ev(`"hook_event_name":"SessionStart","source":"startup"`), "context")
		run(traced, ev(`"hook_event_name":"UserPromptSubmit","prompt":"go on"`), "context")
		run(traced, ev(`"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"intenthook select INT-001"},"tool_use_id":"t0"`), "pre")
		run(traced, ev(`"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"$WORK/src/b.go","content":"package src\n"},"tool_use_id":"t1"`), "pre")
		mustWriteFile(t, filepath.Join(root, "src/b.go"), "package src\n")
		run(traced, ev(`"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"$WORK/src/b.go","content":"package src\n"},"tool_response":{"filePath":"$WORK/src/b.go","success":true},"tool_use_id":"t1"`), "post")
		run(traced, ev(`"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"$WORK/outside.txt","content":"x\n"},"tool_use_id":"t2"`), "pre")
		run(traced, ev(`"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make gen"},"tool_use_id":"t3"`), "pre")
		mustWriteFile(t, filepath.Join(root, "src/c.go"), "package src\n")
		run(traced, ev(`"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make gen"},"tool_response":{"stdout":"","stderr":"","interrupted":false},"tool_use_id":"t3"`), "post")
		run(traced, ev(`"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"$WORK/src/a.go"},"tool_use_id":"t4"`), "pre")
		run(traced, ev(`"hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"helper"`), "context")
		run(traced, ev(`"hook_event_name":"Stop"`), "context")
		run(traced, ev(`"hook_event_name":"SessionEnd","reason":"exit"`), "context")
		git("add", "src")
		run(traced, "", "precommit")
	}
	table := workspace.Governance(agent.Governance())
	var missing []string
	for i, what := range traces {
		data, err := os.ReadFile(filepath.Join(root, "..", fmt.Sprintf("trace-%d", i)))
		if err != nil {
			t.Fatal(err)
		}
		for _, rel := range readsUnder(root, data, wiringDirs(table)) {
			if !ownRow(table, rel) {
				missing = append(missing, fmt.Sprintf("%s (read by %s)", rel, what))
			}
		}
	}
	slices.Sort(missing)
	missing = slices.Compact(missing)
	if len(missing) > 0 {
		t.Errorf("hooks read files that have no governance row of their own (add one to workspace's table, with who writes it and why it may be believed):\n  %s", strings.Join(missing, "\n  "))
	}
}

var traces []string

// ev is a Claude Code event of session s1 in the workspace.
func ev(fields string) string {
	return `{"session_id":"s1","cwd":"$WORK",` + fields + `}`
}

func eventName(stdin string) string {
	if m := regexp.MustCompile(`"hook_event_name":"(\w+)"`).FindStringSubmatch(stdin); m != nil {
		return m[1]
	}
	return ""
}

// openRE matches an open strace reports: the path and the flags.
var openRE = regexp.MustCompile(`open(?:at2?)?\((?:AT_FDCWD|\d+), "((?:[^"\\]|\\.)*)", ([A-Z_|]+)`)

// wiringDirs are the first path elements of the table's rows outside
// .orchestration/: an agent's directories (.claude, .codex, …), its root
// files (.mcp.json), node_modules, .git.
func wiringDirs(t governed.Table) map[string]bool {
	out := map[string]bool{}
	for _, f := range t {
		first, _, _ := strings.Cut(f.Path, "/")
		if first != ".orchestration" && first != "**" {
			out[first] = true
		}
	}
	return out
}

// readsUnder lists the paths below root that a trace opened for reading,
// root-relative: files opened O_RDONLY or O_RDWR (found or not; a file
// made new with O_EXCL holds nothing to read), and the listings of
// directories below .orchestration/state/, under .orchestration/ or in an
// agent's wiring (wiring: the first path elements of the table's other
// rows).
func readsUnder(root string, trace []byte, wiring map[string]bool) []string {
	real, _ := filepath.EvalSymlinks(root)
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(trace))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := openRE.FindSubmatch(sc.Bytes())
		if m == nil || strings.Contains(string(m[2]), "O_WRONLY") || strings.Contains(string(m[2]), "O_EXCL") {
			continue
		}
		p := string(m[1])
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p) // git and the hooks run in the root
		}
		rel := ""
		for _, r := range []string{root, real} {
			if x, err := filepath.Rel(r, filepath.Clean(p)); err == nil && filepath.IsLocal(x) {
				rel = filepath.ToSlash(x)
			}
		}
		dir := strings.Contains(string(m[2]), "O_DIRECTORY")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			dir = true // Go opens a directory to list it without O_DIRECTORY
		}
		if rel == "" || dir && !strings.HasPrefix(rel, ".orchestration/state/") {
			continue
		}
		first, _, _ := strings.Cut(rel, "/")
		if first == ".orchestration" || wiring[first] {
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// ownRow reports whether a row of t names rel (the file, a directory row
// above it, a dir/** row, a pattern), the catch-all state/** row aside.
func ownRow(t governed.Table, rel string) bool {
	for _, f := range t {
		if f.Path == catchAll {
			continue
		}
		dir, glob := strings.CutSuffix(f.Path, "/**")
		if ok, _ := path.Match(f.Path, rel); ok {
			return true
		}
		switch {
		case rel == f.Path, strings.HasPrefix(rel, dir+"/"):
			return true
		case glob && strings.HasPrefix(dir, "**/") && strings.Contains("/"+rel, "/"+strings.TrimPrefix(dir, "**/")+"/"):
			return true
		}
	}
	return false
}
