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
)

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
