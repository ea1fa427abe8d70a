package doctor

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/hookconfig"
)

func settings(t *testing.T, s string) []settingsFile {
	t.Helper()
	doc, err := hookconfig.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return []settingsFile{{".claude/settings.json", doc}}
}

func TestCheckRequirement(t *testing.T) {
	pre := requirements()[0]
	session := requirements()[3]
	prompt := requirements()[4]
	tests := []struct {
		name   string
		json   string
		req    requirement
		status Status
		detail string
	}{
		{"example wiring", `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell","hooks":[{"type":"command","command":"intenthook pre"}]}]}}`,
			pre, Pass, "intenthook pre for Write, Edit, MultiEdit, NotebookEdit, Bash, in .claude/settings.json"},
		{"no matcher is every tool", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"intenthook pre"}]}]}}`, pre, Pass, ""},
		{"star", `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"intenthook pre"}]}]}}`, pre, Pass, ""},
		{"regexp covers", `{"hooks":{"PreToolUse":[{"matcher":".*Edit|Write|Bash","hooks":[{"type":"command","command":"intenthook pre"}]}]}}`, pre, Pass, ""},
		{"split over two groups", `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"intenthook pre"}]},
			{"matcher":"MultiEdit,NotebookEdit,Bash","hooks":[{"type":"command","command":"/opt/bin/intenthook pre"}]}]}}`, pre, Pass, ""},
		{"missing tools", `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"intenthook pre"}]}]}}`,
			pre, Fail, `intenthook pre does not run for MultiEdit, NotebookEdit, Bash (matcher "Write|Edit")`},
		{"exact names are not substrings", `{"hooks":{"PreToolUse":[{"matcher":"Edit|Write|Bash|MultiEdit","hooks":[{"type":"command","command":"intenthook pre"}]}]}}`,
			pre, Fail, `intenthook pre does not run for NotebookEdit (matcher "Edit|Write|Bash|MultiEdit")`},
		{"another command's matcher does not count", `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"intenthook pre"}]},{"matcher":"*","hooks":[{"type":"command","command":"lint"}]}]}}`,
			pre, Fail, `intenthook pre does not run for MultiEdit, NotebookEdit, Bash (matcher "Write|Edit")`},
		{"wrong subcommand", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"intenthook post"}]}]}}`, pre, Fail, "no handler runs intenthook pre"},
		{"not a command handler", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"prompt","command":"intenthook pre"}]}]}}`, pre, Fail, "no handler runs intenthook pre"},
		{"no hooks", `{}`, pre, Fail, "no handler runs intenthook pre"},
		{"sources", `{"hooks":{"SessionStart":[{"matcher":"startup|resume","hooks":[{"type":"command","command":"intenthook context"}]}]}}`,
			session, Fail, `intenthook context does not run for clear, compact (matcher "startup|resume")`},
		{"prompt has no matcher", `{"hooks":{"UserPromptSubmit":[{"matcher":"ignored","hooks":[{"type":"command","command":"intenthook context"}]}]}}`,
			prompt, Pass, "intenthook context in .claude/settings.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := checkRequirement(settings(t, tt.json), tt.req, nil)
			if c.Status != tt.status || (tt.detail != "" && c.Detail != tt.detail) {
				t.Errorf("got %s %q, want %s %q", c.Status, c.Detail, tt.status, tt.detail)
			}
			if c.Status == Fail && c.Hint == "" {
				t.Error("a failed check without a hint")
			}
		})
	}
}

func TestCheckCommands(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "intenthook")
	_ = os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	plain := filepath.Join(dir, "plain")
	_ = os.WriteFile(plain, []byte("x"), 0o644)
	onPath := func(name string) (string, error) {
		if name == "intenthook" {
			return "/usr/local/bin/intenthook", nil
		}
		return "", errors.New("not found")
	}
	notOnPath := func(string) (string, error) { return "", errors.New("not found") }
	handler := func(cmd string) hookconfig.Handler {
		inv, _ := hookconfig.ParseCommand(cmd, projectEnv(dir, nil))
		return hookconfig.Handler{Command: cmd, Invocation: inv, Parsed: true}
	}
	tests := []struct {
		name   string
		cmds   []string
		look   func(string) (string, error)
		status Status
		detail string
	}{
		{"on PATH", []string{"intenthook pre", "intenthook post"}, onPath, Pass, "intenthook → /usr/local/bin/intenthook"},
		{"not on PATH", []string{"intenthook pre"}, notOnPath, Fail, "intenthook is not on PATH"},
		{"project dir expanded", []string{`"$CLAUDE_PROJECT_DIR"/intenthook pre`}, notOnPath, Pass, exe + " → " + exe},
		{"missing file", []string{`"$CLAUDE_PROJECT_DIR"/bin/intenthook pre`}, onPath, Fail, filepath.Join(dir, "bin/intenthook") + " does not exist"},
		{"not executable", []string{plain + " pre"}, onPath, Fail, plain + " is not an executable file"},
		{"none", nil, onPath, Skip, "no intenthook hook configured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hs []hookconfig.Handler
			for _, c := range tt.cmds {
				hs = append(hs, handler(c))
			}
			c := checkCommands(hs, tt.look)
			if c.Status != tt.status || c.Detail != tt.detail {
				t.Errorf("got %s %q, want %s %q", c.Status, c.Detail, tt.status, tt.detail)
			}
		})
	}
}

func find(checks []Check, name string) Check {
	for _, c := range checks {
		if c.Name == name {
			return c
		}
	}
	return Check{}
}

func TestRunWithoutRoot(t *testing.T) {
	checks := Run(context.Background(), Env{Start: t.TempDir(), Version: "test", LookPath: exec.LookPath, Getenv: func(string) string { return "" }})
	if !Failed(checks) {
		t.Error("no root must fail")
	}
	if c := find(checks, "workspace root"); c.Status != Fail || !strings.Contains(c.Hint, "intenthook init") {
		t.Errorf("root check %+v", c)
	}
	if c := find(checks, "catalog"); c.Status != Skip {
		t.Errorf("catalog check %+v, want skipped", c)
	}
}

func TestRunBrokenPieces(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".orchestration/active_intents.yaml", "active_intents:\n  - id: bad\n")
	write(".orchestration/config.yaml", "fail_mod: closed\n")
	write(".orchestration/state", "a file where the directory should be")
	write(".orchestration/agent_trace.jsonl", "not json\n")
	write(".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"intenthook pre"}]}]}}`)
	checks := Run(context.Background(), Env{Start: root, Version: "test", Getenv: func(string) string { return "" },
		LookPath: func(name string) (string, error) { return "", errors.New("no " + name) }})
	want := map[string]string{
		"catalog":           "error(s), the first: .orchestration/active_intents.yaml:2: bad: error:",
		"state directory":   "create state directory",
		"hook PreToolUse":   "does not run for Edit, MultiEdit, NotebookEdit, Bash",
		"hook PostToolUse":  "no handler runs intenthook post",
		"hook SessionStart": "no handler runs intenthook context",
		"hook command":      "intenthook is not on PATH",
		"git":               "git is not on PATH",
		"ledger":            "line 1: does not parse",
	}
	for name, detail := range want {
		c := find(checks, name)
		if c.Status != Fail || !strings.Contains(c.Detail, detail) || c.Hint == "" {
			t.Errorf("%s: %+v, want a failure with %q and a hint", name, c, detail)
		}
	}
	if c := find(checks, "config"); c.Status != Warn || !strings.Contains(c.Detail, `unknown setting "fail_mod"`) || c.Hint == "" {
		t.Errorf("config: %+v, want a warning (unknown keys are warnings) with a hint", c)
	}
	if c := find(checks, "lock"); c.Status != Skip {
		t.Errorf("lock %+v, want skipped", c)
	}
	var out bytes.Buffer
	Write(&out, checks)
	if !strings.HasSuffix(out.String(), "doctor: 10 check(s) failed\n") {
		t.Errorf("report:\n%s", out.String())
	}
}

func TestDisabledHooks(t *testing.T) {
	for _, tt := range []struct {
		name, settings string
		env            string
		want           string
	}{
		{"disableAllHooks", `{"disableAllHooks": true}`, "", `"disableAllHooks": true`},
		{"settings env", `{"env": {"INTENTHOOK_DISABLE": "1"}}`, "", "INTENTHOOK_DISABLE=1 for every hook"},
		{"process env", `{}`, "1", "INTENTHOOK_DISABLE=1 in this environment"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := hookconfig.Decode([]byte(tt.settings))
			if err != nil {
				t.Fatal(err)
			}
			c, off := checkDisabled([]settingsFile{{Name: ".claude/settings.json", Doc: doc}}, func(k string) string {
				if k == "INTENTHOOK_DISABLE" {
					return tt.env
				}
				return ""
			})
			if !off || c.Status != Fail || !strings.Contains(c.Detail, tt.want) || c.Hint == "" {
				t.Errorf("checkDisabled = %+v, %v", c, off)
			}
		})
	}
	doc, _ := hookconfig.Decode([]byte(`{"env": {"OTHER": "1"}, "disableAllHooks": false}`))
	if _, off := checkDisabled([]settingsFile{{Name: "s", Doc: doc}}, func(string) string { return "" }); off {
		t.Error("enabled hooks reported as disabled")
	}
}
