package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestHostile runs testdata/hostile/forms.txt: each line is something a
// determined agent tries against the rules. Each form is sent as a real
// Claude Code PreToolUse event to the real binary in its own throw-away git
// repository; when allowed it is executed (bash, or the write the tool would
// make), then PostToolUse runs. The outcome is denied, asked, caught by the
// backstop, no effect (the victim is unchanged), or bypassed. A bypass of the
// rules themselves fails the test; writes outside the root that only an OS
// sandbox can stop are listed; forms marked `backstop` are known-open until
// the data file's `!backstop-watches-governance on` is set. A form
// expected `after` is not stopped itself (a program takes the rules away
// as a whole); it is caught when the next in-scope Write is denied.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs hundreds of processes")
	}
	bin := buildShipped(t)
	setPath(t, filepath.Dir(bin))
	forms, watches := readForms(t, "../../testdata/hostile/forms.txt")
	template := makeTemplate(t, bin)
	counts := map[string]map[string]int{}
	var bypassed, listed, open []string
	var mu sync.Mutex
	// The forms run in parallel subtests (each its own repository); the
	// group returns when all are done.
	t.Run("forms", func(t *testing.T) {
		for i, f := range forms {
			t.Run(fmt.Sprintf("line%d", f.line), func(t *testing.T) {
				t.Parallel()
				out := runForm(t, bin, template, i, f)
				mu.Lock()
				defer mu.Unlock()
				if counts[f.class] == nil {
					counts[f.class] = map[string]int{}
				}
				counts[f.class][out]++
				if out != "bypassed" {
					return
				}
				line := fmt.Sprintf("line %d [%s] %s: %s", f.line, f.class, f.tool, f.payload)
				switch {
				case f.expect == "sandbox":
					listed = append(listed, line)
				case f.expect == "backstop" && !watches:
					open = append(open, line)
				default:
					bypassed = append(bypassed, line)
				}
			})
		}
	})
	sort.Strings(listed)
	sort.Strings(open)
	sort.Strings(bypassed)
	classes := make([]string, 0, len(counts))
	for c := range counts {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		m := counts[c]
		t.Logf("%-9s denied=%d asked=%d backstop=%d denied-after=%d no-effect=%d bypassed=%d", c, m["denied"], m["asked"], m["backstop"], m["denied-after"], m["no-effect"], m["bypassed"])
	}
	for _, l := range listed {
		t.Logf("sandbox only: %s", l)
	}
	for _, l := range open {
		t.Logf("known open (backstop must watch governance): %s", l)
	}
	for _, l := range bypassed {
		t.Errorf("bypass: %s", l)
	}
}

// form is one line of the data file:
//
//	class | victim | expect | tool | payload
//
// victim is the path (relative to the workspace, $OUT/… outside it, or
// git:<key> for a git config key) whose change is the bypass; expect is
// block, backstop or sandbox; tool is bash, write or edit; a write's
// payload is `path :: content`, an edit's `path :: old :: new`.
type form struct {
	line                                 int
	class, victim, expect, tool, payload string
}

func readForms(t *testing.T, name string) (forms []form, watches bool) {
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 0
	for sc.Scan() {
		n++
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
			continue
		case strings.HasPrefix(l, "!backstop-watches-governance "):
			watches = strings.TrimSpace(strings.TrimPrefix(l, "!backstop-watches-governance ")) == "on"
			continue
		}
		p := strings.SplitN(l, " | ", 5)
		if len(p) != 5 {
			t.Fatalf("%s:%d: want 5 fields separated by \" | \"", name, n)
		}
		f := form{n, p[0], p[1], p[2], p[3], p[4]}
		switch {
		case f.expect != "block" && f.expect != "backstop" && f.expect != "sandbox" && f.expect != "after":
			t.Fatalf("%s:%d: expect %q", name, n, f.expect)
		case f.tool != "bash" && f.tool != "write" && f.tool != "edit":
			t.Fatalf("%s:%d: tool %q", name, n, f.tool)
		}
		forms = append(forms, f)
	}
	if len(forms) == 0 {
		t.Fatal("no forms")
	}
	return forms, watches
}

// makeTemplate builds the governed repository every form starts from.
func makeTemplate(t *testing.T, bin string) string {
	dir := filepath.Join(t.TempDir(), "template")
	files := map[string]string{
		".orchestration/active_intents.yaml": "active_intents:\n  - {id: INT-001, name: Hooks, status: IN_PROGRESS, owned_scope: [\"src/**\"], constraints: [], acceptance_criteria: [], created_at: \"2026-01-01T00:00:00Z\", updated_at: \"2026-01-01T00:00:00Z\"}\n",
		".orchestration/config.yaml":         "outside_workspace: deny\noutside_allow: []\n",
		".orchestration/.intentignore":       "vendor/**\n.mcp.json\n", // init's example exempts .mcp.json
		".mcp.json":                          `{"mcpServers":{"intenthook":{"command":"intenthook-mcp","args":["-hooks"]}}}` + "\n",
		".claude/settings.json":              "{}\n",
		".claude/settings.local.json":        "{}\n",
		// Other agents' wiring, as init writes it: judged by effect too.
		".gemini/settings.json": `{"hooks":{"BeforeTool":[{"matcher":"^(write_file|replace|run_shell_command|select_active_intent|mcp_.*)$","hooks":[{"type":"command","command":"intenthook pre --agent gemini","timeout":10000}]}],` +
			`"AfterTool":[{"matcher":"^(write_file|replace|run_shell_command|read_file|mcp_.*)$","hooks":[{"type":"command","command":"intenthook post --agent gemini","timeout":10000}]}]}}` + "\n",
		".codex/config.toml": "[mcp_servers.intenthook]\ncommand = \"intenthook-mcp\"\nargs = [\"-hooks\"]\n",
		".cursor/hooks.json": `{"version":1,"hooks":{"beforeShellExecution":[{"command":"intenthook pre --agent cursor"}],"afterShellExecution":[{"command":"intenthook post --agent cursor"}]}}` + "\n",
		"src/a.go":           "package src\n",
		"src/evil.yaml":      "active_intents: []\n",
		"src/evil.sh":        "#!/bin/sh\nexit 0\n",
		"docs/readme.md":     "readme\n",
		// A made-up PostToolUse of a session that selected nothing.
		"src/forged.json": `{"session_id":"zz","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"docs/readme.md","content":"x\n"},"tool_response":{"success":true},"tool_use_id":"f1"}` + "\n",
		"Makefile":        "all:\n\techo x > .orchestration/active_intents.yaml\n",
		// An npm install's hook programs, and a package of the agent's
		// whose bin is named intenthook; a makefile that replaces the
		// hook binary where no parser sees it.
		"node_modules/intenthook/package.json":        `{"name":"intenthook","version":"0.0.0"}` + "\n",
		"node_modules/intenthook/bin/intenthook":      "#!/bin/sh\n# the hook binary\n",
		"node_modules/intenthook/bin/intenthook-full": "#!/bin/sh\n# the full binary\n",
		"src/fmtpkg/package.json":                     `{"name":"fmtpkg","version":"1.0.0","bin":{"intenthook":"run.sh"}}` + "\n",
		"src/fmtpkg/run.sh":                           "#!/bin/sh\ncat >/dev/null\nexit 0\n",
		"src/ih.mk":                                   "all:\n\tcp src/evil.sh src/ih && mv src/ih node_modules/intenthook/bin/intenthook\n",
		// Programs that take the rules away as a whole, or the marker
		// that says the work tree is governed, where no parser sees it.
		"src/away.mk":   "all:\n\tmv .orchestration src/gone\n",
		"src/away.py":   "import os\nos.rename('.orchestration', 'src/gone')\n",
		"src/unmark.mk": "all:\n\trm -f .git/intenthook/governed\n",
		// A program left running after its command, without the agent's
		// variables, that pulls a person's lever once the command ended.
		"src/late.py": "import os, subprocess, sys, time\nif os.fork():\n    sys.exit(0)\nos.setsid()\ntime.sleep(3)\nenv = {k: v for k, v in os.environ.items() if k != 'CLAUDECODE'}\nsubprocess.run(['intenthook-full'] + sys.argv[1:], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "node_modules", ".bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../intenthook/bin/intenthook", filepath.Join(dir, "node_modules", ".bin", "intenthook")); err != nil {
		t.Fatal(err)
	}
	// A ledger from before segments: its single file must not change either.
	if _, code := run(t, dir, []string{"HOME=" + filepath.Join(dir, ".home")}, "", bin, "select", "INT-001", "--session", "s0"); code != 0 {
		t.Fatalf("template select: exit %d", code)
	}
	run(t, dir, nil, "", "sh", "-c", "cat .orchestration/ledger/*/*/*.jsonl > .orchestration/agent_trace.jsonl && rm -rf .orchestration/ledger .orchestration/state .home")
	for _, args := range [][]string{
		{"git", "init", "-q"},
		{"git", "config", "user.email", "dev@example.com"},
		{"git", "config", "user.name", "dev"},
		{"git", "add", "-A"},
		{"git", "commit", "-qm", "init"},
	} {
		run(t, dir, nil, "", args[0], args[1:]...)
	}
	// The marker init leaves: this work tree is governed.
	if err := os.MkdirAll(filepath.Join(dir, ".git", "intenthook"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "intenthook", "governed"), []byte(".\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func run(t *testing.T, dir string, env []string, stdin string, name string, args ...string) (stdout string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return out.String(), 0
}

func runForm(t *testing.T, bin, template string, i int, f form) string {
	root := filepath.Join(t.TempDir(), fmt.Sprintf("f%d", i))
	ws := filepath.Join(root, "ws")
	outside := filepath.Join(root, "out")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, root, nil, "", "cp", "-a", template, ws)
	env := []string{"HOME=" + filepath.Join(root, "home"), "CLAUDE_PROJECT_DIR=" + ws}
	if _, code := run(t, ws, env, "", bin, "select", "INT-001", "--session", "s1"); code != 0 {
		t.Fatalf("select: exit %d", code)
	}
	expand := func(s string) string {
		return strings.NewReplacer("$OUT", outside, "$WS", ws).Replace(s)
	}
	victim := expand(f.victim)
	before := fingerprint(t, ws, victim)
	prior := contents(ws, victim)

	input := map[string]any{}
	toolName := "Bash"
	switch f.tool {
	case "bash":
		input["command"] = expand(f.payload)
	case "write":
		p := strings.SplitN(f.payload, " :: ", 2)
		toolName = "Write"
		input["file_path"], input["content"] = absIn(ws, expand(p[0])), expand(p[1])+"\n"
	case "edit":
		p := strings.SplitN(f.payload, " :: ", 3)
		toolName = "Edit"
		input["file_path"], input["old_string"], input["new_string"] = absIn(ws, expand(p[0])), p[1], p[2]
	}
	event := func(name string) string {
		b, _ := json.Marshal(map[string]any{
			"session_id": "s1", "cwd": ws, "hook_event_name": name, "tool_name": toolName,
			"tool_input": input, "tool_use_id": fmt.Sprintf("t%d", i), "transcript_path": "",
			"tool_response": map[string]any{},
		})
		return string(b)
	}
	out, code := run(t, ws, env, event("PreToolUse"), bin, "pre")
	switch {
	case code == 2:
		return "denied"
	case strings.Contains(out, `"permissionDecision":"ask"`):
		return "asked"
	case code != 0:
		t.Fatalf("line %d: pre exit %d: %s", f.line, code, out)
	}
	agentEnv := append(env, "CLAUDECODE=1")
	switch f.tool {
	case "bash":
		run(t, ws, agentEnv, "", "bash", "-c", input["command"].(string))
	case "write":
		p := input["file_path"].(string)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(input["content"].(string)), 0o644)
	case "edit":
		p := input["file_path"].(string)
		if b, err := os.ReadFile(p); err == nil {
			os.WriteFile(p, bytes.Replace(b, []byte(input["old_string"].(string)), []byte(input["new_string"].(string)), 1), 0o644)
		}
	}
	// Caught: exit 2, or Claude Code's block after the tool (exit 0 with
	// decision block, the violation its reason).
	pout, pcode := run(t, ws, env, event("PostToolUse"), bin, "post")
	if f.class == "lever" {
		// What the command left running acts after its post.
		time.Sleep(6 * time.Second)
	}
	if pcode == 2 || strings.Contains(pout, `"decision":"block"`) {
		switch f.class {
		case "catalog", "config", "ignore", "settings", "hooks", "gitconfig":
			// Caught is not enough for the rules: they must be as they were.
			if fingerprint(t, ws, victim) != before {
				return "bypassed"
			}
		}
		return "backstop"
	}
	if fingerprint(t, ws, victim) == before {
		return "no-effect"
	}
	if f.expect == "after" && laterWriteDenied(t, bin, ws, env, i) {
		return "denied-after"
	}
	if f.class == "ledger" && ledgerExtends(t, bin, ws, victim, prior) {
		return "no-effect"
	}
	return "bypassed"
}

// laterWriteDenied reports whether the session's next write, in scope,
// is denied (exit 2).
func laterWriteDenied(t *testing.T, bin, ws string, env []string, i int) bool {
	b, _ := json.Marshal(map[string]any{
		"session_id": "s1", "cwd": ws, "hook_event_name": "PreToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": filepath.Join(ws, "src", "a.go"), "content": "package src\n"}, "tool_use_id": fmt.Sprintf("t%d-next", i),
	})
	_, code := run(t, ws, env, string(b), bin, "pre")
	return code == 2
}

func absIn(ws, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(ws, p)
}

// fingerprint says what the victim is now: a git config key's value, or a
// path's kind, link target and bytes (for a directory, its names and theirs).
func fingerprint(t *testing.T, ws, victim string) string {
	if key, ok := strings.CutPrefix(victim, "git:"); ok {
		out, _ := run(t, ws, nil, "", "git", "config", "--get-all", key)
		return out
	}
	p := absIn(ws, victim)
	h := sha256.New()
	filepath.Walk(p, func(q string, info os.FileInfo, err error) error {
		if err != nil {
			fmt.Fprintf(h, "%s missing\n", q)
			return nil
		}
		fmt.Fprintf(h, "%s %v\n", q, info.Mode())
		if info.Mode()&os.ModeSymlink != 0 {
			l, _ := os.Readlink(q)
			fmt.Fprintf(h, "-> %s\n", l)
		} else if info.Mode().IsRegular() {
			b, _ := os.ReadFile(q)
			h.Write(b)
		}
		return nil
	})
	return fmt.Sprintf("%x", h.Sum(nil))
}

// contents is the bytes of each file at victim (a file, or every file
// under a directory), by path.
func contents(ws, victim string) map[string][]byte {
	out := map[string][]byte{}
	filepath.Walk(absIn(ws, victim), func(q string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			out[q], _ = os.ReadFile(q)
		}
		return nil
	})
	return out
}

// ledgerExtends reports whether the ledger only grew: every file's old
// bytes are still its beginning (the hooks append to the legacy file's
// replacement, a segment, and may start new ones) and it still verifies.
func ledgerExtends(t *testing.T, bin, ws, victim string, prior map[string][]byte) bool {
	now := contents(ws, victim)
	for p, b := range prior {
		if !bytes.HasPrefix(now[p], b) {
			return false
		}
	}
	_, code := run(t, ws, nil, "", bin, "ledger", "verify")
	return code == 0
}
