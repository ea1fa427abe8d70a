package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCapturedPayloadsDeny sends every write and shell-write payload captured
// from a real client (testdata/agents, scrubbed to /work/proj) to the real
// binary in a governed workspace whose session has no intent, both with the
// agent detected from the payload and named with --agent: each must come
// back as a deny the client reads as one, and the file must not appear.
// (Claude Code's own prompt_id once made its events read as Qwen's, and
// every Write went through.)
func TestCapturedPayloadsDeny(t *testing.T) {
	bin := binary(t)
	cases := []struct {
		file   string
		denyOn string // "exit2": exit 2, reason on stderr; or the JSON field and value on stdout
		// detected is the deny when the agent is detected, where the shape
		// cannot tell (Copilot's Claude-shaped Bash reads as Claude's; Copilot
		// denies on exit 2 too, without the reason: init wires --agent).
		detected string
	}{
		{file: "claude/PreToolUse-Write.json", denyOn: "exit2"},
		{file: "claude/PreToolUse-Edit.json", denyOn: "exit2"},
		{file: "claude/PreToolUse-Bash.json", denyOn: "exit2"},
		{file: "gemini/BeforeTool-write_file.json", denyOn: "exit2"},
		{file: "gemini/BeforeTool-replace.json", denyOn: "exit2"},
		{file: "gemini/BeforeTool-run_shell_command.json", denyOn: "exit2"},
		{file: "qwen/PreToolUse-write_file.json", denyOn: "exit2"},
		{file: "qwen/PreToolUse-edit.json", denyOn: "exit2"},
		{file: "qwen/PreToolUse-run_shell_command.json", denyOn: "exit2"},
		{file: "codex/PreToolUse-apply_patch.json", denyOn: "exit2"},
		{file: "codex/PreToolUse-Bash.json", denyOn: "exit2"},
		{file: "copilot/preToolUse-create.json", denyOn: "permissionDecision=deny"},
		{file: "copilot/preToolUse-edit.json", denyOn: "permissionDecision=deny"},
		{file: "copilot/preToolUse-bash.json", denyOn: "permissionDecision=deny"},
		{file: "copilot/PreToolUse-Write.json", denyOn: "decision=block"},
		{file: "copilot/PreToolUse-Bash.json", denyOn: "decision=block", detected: "exit2"},
		{file: "auggie/PreToolUse-save-file.json", denyOn: "exit2"},
		{file: "auggie/PreToolUse-str-replace-editor.json", denyOn: "exit2"},
		{file: "auggie/PreToolUse-launch-process-2.json", denyOn: "exit2"},
	}
	for _, c := range cases {
		agentName := strings.Split(c.file, "/")[0]
		for _, args := range [][]string{{"pre"}, {"pre", "--agent", agentName}} {
			t.Run(c.file+"/"+strings.Join(args, "_"), func(t *testing.T) {
				t.Parallel()
				ws := t.TempDir()
				for _, cmd := range [][]string{{"git", "init", "-q"}, {bin, "init"}} {
					c := exec.Command(cmd[0], cmd[1:]...)
					c.Dir = ws
					if out, err := c.CombinedOutput(); err != nil {
						t.Fatalf("%v: %v\n%s", cmd, err, out)
					}
				}
				raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "agents", c.file))
				if err != nil {
					t.Fatal(err)
				}
				event := strings.ReplaceAll(string(raw), "/work/proj", ws)
				before := listFiles(t, ws)

				cmd := exec.Command(bin, args...)
				cmd.Dir = ws
				cmd.Stdin = strings.NewReader(event)
				var stdout, stderr strings.Builder
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err = cmd.Run()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}

				denyOn := c.denyOn
				if len(args) == 1 && c.detected != "" {
					denyOn = c.detected
				}
				if denyOn == "exit2" {
					if code != 2 || !strings.Contains(stderr.String(), "deny [intent_required]") || stdout.Len() != 0 {
						t.Fatalf("exit %d, stdout %q, stderr %q: want exit 2 and the deny on stderr", code, stdout.String(), stderr.String())
					}
				} else {
					field, value, _ := strings.Cut(denyOn, "=")
					var answer map[string]any
					if code != 0 || json.Unmarshal([]byte(stdout.String()), &answer) != nil || answer[field] != value {
						t.Fatalf("exit %d, stdout %q: want exit 0 and %s", code, stdout.String(), denyOn)
					}
				}
				if after := listFiles(t, ws); after != before {
					t.Errorf("files changed outside .orchestration:\n%s\nwant\n%s", after, before)
				}
			})
		}
	}
}

// listFiles names the files under dir, .git and .orchestration left out.
func listFiles(t *testing.T, dir string) string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".orchestration") {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(dir, p)
		names = append(names, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(names, "\n")
}
