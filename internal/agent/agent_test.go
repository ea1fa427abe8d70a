package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
)

// TestPayloads decodes every captured payload in testdata/agents: the agent
// is detected from the shape (or given, where the shape is ambiguous), and
// the call carries the event, class, files and session the gate needs.
func TestPayloads(t *testing.T) {
	type want struct {
		agent   string // detected
		event   string
		class   hook.Class
		session string
		cwd     string
		paths   []string
		command string
	}
	tests := map[string]want{
		"claude/doc-PreToolUse-Write.json": {"claude", hook.PreToolUse, hook.ClassWrite, "6f2f2f1e-6c1e-4a6b-9d5c-2f0a5a1d3b77", "/w", []string{"/w/src/a.go"}, ""},
		// Claude Code's newer events, which every hook command ignores
		// (hook.Ignored): decoded all the same, a PermissionDenied with the
		// refused call's tool and file (PostToolBatch and CwdChanged
		// captured from 2.1.330, the others transcribed).
		"claude/doc-PermissionDenied-Write.json":         {"claude", hook.PermissionDenied, hook.ClassWrite, "6f2f2f1e-6c1e-4a6b-9d5c-2f0a5a1d3b77", "/w", []string{"/w/docs/x.md"}, ""},
		"claude/PostToolBatch.json":                      {"claude", hook.PostToolBatch, hook.ClassUnclassified, "43dfe4ee-77f6-4475-bada-f32ca8d59be3", "/work/proj", nil, ""},
		"claude/doc-PostModelSwitch.json":                {"claude", hook.PostModelSwitch, hook.ClassUnclassified, "6f2f2f1e-6c1e-4a6b-9d5c-2f0a5a1d3b77", "/w", nil, ""},
		"claude/CwdChanged.json":                         {"claude", hook.CwdChanged, hook.ClassUnclassified, "43dfe4ee-77f6-4475-bada-f32ca8d59be3", "/work/proj/sub", nil, ""},
		"claude/doc-DirectoryAdded.json":                 {"claude", hook.DirectoryAdded, hook.ClassUnclassified, "6f2f2f1e-6c1e-4a6b-9d5c-2f0a5a1d3b77", "/w", nil, ""},
		"gemini/doc-BeforeTool-write_file.json":          {"gemini", hook.PreToolUse, hook.ClassWrite, "03aaf7a2-0000-4000-8000-000000000001", "/w", []string{"/w/hello.txt"}, ""},
		"gemini/doc-AfterTool-write_file.json":           {"gemini", hook.PostToolUse, hook.ClassWrite, "03aaf7a2-0000-4000-8000-000000000001", "/w", []string{"/w/hello.txt"}, ""},
		"gemini/doc-BeforeTool-write_file-relative.json": {"gemini", hook.PreToolUse, hook.ClassWrite, "03aaf7a2-0000-4000-8000-000000000001", "/w", []string{"sub/rel.txt"}, ""},
		"gemini/doc-BeforeTool-run_shell_command.json":   {"gemini", hook.PreToolUse, hook.ClassShell, "03aaf7a2-0000-4000-8000-000000000001", "/w/sub", nil, "echo shell > shell.txt"},
		"gemini/doc-BeforeAgent.json":                    {"gemini", hook.UserPromptSubmit, hook.ClassUnclassified, "03aaf7a2-0000-4000-8000-000000000001", "/w", nil, ""},
		"codex/doc-PreToolUse-apply_patch.json":          {"codex", hook.PreToolUse, hook.ClassWrite, "01a202d3-97d1-4000-8000-000000000001", "/w", []string{"hello.txt", "sub/two.txt", "README.md", "docs/README.md"}, ""},
		"codex/doc-PostToolUse-apply_patch.json":         {"codex", hook.PostToolUse, hook.ClassWrite, "01a202d3-97d1-4000-8000-000000000001", "/w", []string{"hello.txt"}, ""},
		"codex/doc-PreToolUse-Bash.json":                 {"codex", hook.PreToolUse, hook.ClassShell, "01a202d3-97d1-4000-8000-000000000001", "/w/sub-not-there", nil, "echo shell > shell.txt"},
		"codex/doc-SessionStart.json":                    {"claude", hook.SessionStart, hook.ClassUnclassified, "01a202d3-97d1-4000-8000-000000000001", "/w", nil, ""},
		"claude/PreToolUse-Write.json":                   {"claude", hook.PreToolUse, hook.ClassWrite, "ad6c8185-816f-4fc4-9f50-87b67ab4bcfb", "/work/proj", []string{"/work/proj/hello.txt"}, ""},
		"qwen/PreToolUse-write_file.json":                {"qwen", hook.PreToolUse, hook.ClassWrite, "46ddec12-f0f5-4e67-bf8c-1469a364645d", "/work/proj", []string{"/work/proj/hello.txt"}, ""},
		"qwen/doc-PreToolUse-write_file.json":            {"qwen", hook.PreToolUse, hook.ClassWrite, "aebbd9d0-0000-4000-8000-000000000001", "/w", []string{"/w/hello.txt"}, ""},
		"qwen/doc-PostToolUse-run_shell_command.json":    {"qwen", hook.PostToolUse, hook.ClassShell, "aebbd9d0-0000-4000-8000-000000000001", "/w", nil, "echo shell > shell.txt"},
		"qwen/doc-UserPromptSubmit-empty.json":           {"qwen", hook.UserPromptSubmit, hook.ClassUnclassified, "aebbd9d0-0000-4000-8000-000000000001", "/w", nil, ""},
		"copilot/doc-preToolUse-create.json":             {"copilot", hook.PreToolUse, hook.ClassWrite, "123bc8b8-0000-4000-8000-000000000001", "/w", []string{"/w/hello.txt"}, ""},
		"copilot/doc-preToolUse-apply_patch.json":        {"copilot", hook.PreToolUse, hook.ClassWrite, "123bc8b8-0000-4000-8000-000000000001", "/w", []string{"hello.txt"}, ""},
		"copilot/doc-postToolUse-bash.json":              {"copilot", hook.PostToolUse, hook.ClassShell, "123bc8b8-0000-4000-8000-000000000001", "/w", nil, "echo shell > shell.txt"},
		"copilot/doc-claude-PreToolUse-Edit-patch.json":  {"copilot", hook.PreToolUse, hook.ClassWrite, "3f6cf26a-0000-4000-8000-000000000001", "/w", []string{"hello.txt"}, ""},
		"copilot/doc-claude-PreToolUse-Write.json":       {"copilot", hook.PreToolUse, hook.ClassWrite, "3f6cf26a-0000-4000-8000-000000000001", "/w", []string{"/w/hello.txt"}, ""},
		"droid/doc-PreToolUse-Create.json":               {"droid", hook.PreToolUse, hook.ClassWrite, "8d8ff3d4-0000-4000-8000-000000000001", "/w", []string{"/w/hello.txt"}, ""},
		"droid/doc-PostToolUse-Create.json":              {"droid", hook.PostToolUse, hook.ClassWrite, "8d8ff3d4-0000-4000-8000-000000000001", "/w", []string{"/w/hello.txt"}, ""},
		"droid/doc-PreToolUse-Execute.json":              {"droid", hook.PreToolUse, hook.ClassShell, "8d8ff3d4-0000-4000-8000-000000000001", "/w", nil, "echo shell > shell.txt"},
		"auggie/doc-PreToolUse-save-file.json":           {"auggie", hook.PreToolUse, hook.ClassWrite, "600fac30-0000-4000-8000-000000000001", "/w", []string{"hello.txt"}, ""},
		"auggie/doc-PostToolUse-remove-files.json":       {"auggie", hook.PostToolUse, hook.ClassWrite, "600fac30-0000-4000-8000-000000000001", "/w", []string{"shell.txt"}, ""},
		"auggie/doc-PreToolUse-launch-process.json":      {"auggie", hook.PreToolUse, hook.ClassShell, "600fac30-0000-4000-8000-000000000001", "/w", nil, "echo shell > shell.txt"},
		"cursor/doc-beforeShellExecution.json":           {"cursor", hook.PreToolUse, hook.ClassShell, "c-1", "/w", nil, "echo x > src/out.txt"},
		"cursor/doc-afterFileEdit.json":                  {"cursor", hook.PostToolUse, hook.ClassWrite, "c-1", "/w", []string{"/w/src/a.ts"}, ""},
		"cursor/doc-beforeMCPExecution-write_file.json":  {"cursor", hook.PreToolUse, hook.ClassWrite, "c-1", "/w", []string{"/w/src/a.ts"}, ""},
		"windsurf/doc-pre_write_code.json":               {"windsurf", hook.PreToolUse, hook.ClassWrite, "t-1", "", []string{"/w/src/a.ts"}, ""},
		"windsurf/doc-pre_run_command.json":              {"windsurf", hook.PreToolUse, hook.ClassShell, "t-1", "/w", nil, "echo x > out.txt"},
		"cline/doc-PreToolUse-write_to_file.json":        {"cline", hook.PreToolUse, hook.ClassWrite, "task-1", "/w", []string{"src/a.ts"}, ""},
		"opencode/doc-PreToolUse-write.json":             {"opencode", hook.PreToolUse, hook.ClassWrite, "ses_1", "/w", []string{"/w/src/a.ts"}, ""},
		// Kilo Code's events are OpenCode's plugin's: detected as OpenCode's,
		// decoded as Kilo Code's (its wiring passes --agent kilo).
		"antigravity/doc-PreToolUse-write_to_file.json":              {"antigravity", hook.PreToolUse, hook.ClassWrite, "5b0c7a3e-1f2d-4c5e-9a8b-000000000001", "/w", []string{"/w/src/a.go"}, ""},
		"antigravity/doc-PreToolUse-multi_replace_file_content.json": {"antigravity", hook.PreToolUse, hook.ClassWrite, "5b0c7a3e-1f2d-4c5e-9a8b-000000000001", "/w", []string{"/w/src/a.go"}, ""},
		"antigravity/doc-PreToolUse-run_command.json":                {"antigravity", hook.PreToolUse, hook.ClassShell, "5b0c7a3e-1f2d-4c5e-9a8b-000000000001", "/w/sub", nil, "echo shell > shell.txt"},
		"antigravity/doc-PostToolUse-run_command.json":               {"antigravity", hook.PostToolUse, hook.ClassShell, "5b0c7a3e-1f2d-4c5e-9a8b-000000000001", "/w/sub", nil, "echo shell > shell.txt"},
		// The Gemini API remote agent's pre_tool_execution (its
		// documentation, 2026-12-01; not captured): no event name, no
		// conversation, no workspace: detected as Claude Code's, decoded
		// as the Antigravity CLI's (its wiring passes --agent).
		"antigravity/doc-remote-pre_tool_execution-write_to_file.json": {"claude", hook.PreToolUse, hook.ClassWrite, "", "", []string{"/w/src/a.go"}, ""},
		"crush/doc-PreToolUse-write.json":                              {"crush", hook.PreToolUse, hook.ClassWrite, "313909e", "/w", []string{"/w/src/a.go"}, ""},
		"crush/doc-PreToolUse-multiedit.json":                          {"crush", hook.PreToolUse, hook.ClassWrite, "313909e", "/w", []string{"/w/src/a.go"}, ""},
		"crush/doc-PreToolUse-bash.json":                               {"crush", hook.PreToolUse, hook.ClassShell, "313909e", "/w/sub", nil, "echo shell > shell.txt"},
		"kilo/doc-PreToolUse-write.json":                               {"opencode", hook.PreToolUse, hook.ClassWrite, "ses_de1aeb0afffelPikhVV7cUlu2I", "/w", []string{"/w/src/a.ts"}, ""},
		"kilo/doc-PreToolUse-apply_patch.json":                         {"opencode", hook.PreToolUse, hook.ClassWrite, "ses_de1aeb0afffelPikhVV7cUlu2I", "/w", []string{"src/b.ts", "docs/c.md"}, ""},
		"kilo/doc-PreToolUse-bash.json":                                {"opencode", hook.PreToolUse, hook.ClassShell, "ses_de1aeb0afffelPikhVV7cUlu2I", "/w/sub", nil, "echo shell > shell.txt"},
		// VS Code 1.119.0 (git-ai-project/git-ai's capture): its transcript
		// under GitHub.copilot-chat tells it from Claude Code.
		"vscode/doc-PreToolUse-apply_patch.json":                  {"vscode", hook.PreToolUse, hook.ClassWrite, "bad0027f-a716-4b05-82dc-c186eb655967", "/w", []string{"/w/jokes-cli.ts"}, ""},
		"vscode/doc-PostToolUse-apply_patch.json":                 {"vscode", hook.PostToolUse, hook.ClassWrite, "bad0027f-a716-4b05-82dc-c186eb655967", "/w", []string{"/w/jokes-cli.ts"}, ""},
		"vscode/doc-PreToolUse-run_in_terminal.json":              {"vscode", hook.PreToolUse, hook.ClassShell, "bad0027f-a716-4b05-82dc-c186eb655967", "/w", nil, "echo shell > shell.txt"},
		"vscode/doc-PreToolUse-multi_replace_string_in_file.json": {"vscode", hook.PreToolUse, hook.ClassWrite, "bad0027f-a716-4b05-82dc-c186eb655967", "/w", []string{"/w/src/a.ts", "/w/src/b.ts"}, ""},
		// Junie's events are Claude Code's shape with project_path: detected
		// as Claude Code's, decoded as Junie's (its wiring passes --agent
		// junie), the workspace taken from project_path, not from cwd.
		"junie/doc-PreToolUse-Write.json": {"claude", hook.PreToolUse, hook.ClassWrite, "6b1f0c2e-0000-4000-8000-000000000001", "/w", []string{"/w/src/a.go"}, ""},
		"junie/doc-PreToolUse-Bash.json":  {"claude", hook.PreToolUse, hook.ClassShell, "6b1f0c2e-0000-4000-8000-000000000001", "/w", nil, "echo shell > shell.txt"},
	}
	files, _ := filepath.Glob("../../testdata/agents/*/*.json")
	seen := 0
	for _, f := range files {
		rel := strings.TrimPrefix(filepath.ToSlash(f), "../../testdata/agents/")
		w, ok := tests[rel]
		if !ok {
			if strings.HasPrefix(filepath.Base(rel), "doc-") {
				t.Errorf("%s: no expectation in the table", rel)
			}
			continue
		}
		seen++
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := protocol.ParseObject(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := Detect(ev); got != w.agent {
				t.Errorf("Detect = %s, want %s", got, w.agent)
			}
			// Decode with the agent of the folder (the hooks init writes
			// pass --agent), with the hook command's own event.
			ag, err := Lookup(strings.Split(rel, "/")[0])
			if err != nil {
				t.Fatal(err)
			}
			cmdEvent := w.event
			c, err := ag.Decode(ev, cmdEvent)
			if err != nil {
				t.Fatal(err)
			}
			if c.Event != w.event || c.Class != w.class || c.SessionID != w.session || c.Cwd != w.cwd || c.Command != w.command || !reflect.DeepEqual(c.Paths, w.paths) {
				t.Errorf("got event=%s class=%s session=%s cwd=%s command=%q paths=%q unparsed=%q",
					c.Event, c.Class, c.SessionID, c.Cwd, c.Command, c.Paths, c.Unparsed)
			}
			if c.Agent != ag.Name {
				t.Errorf("Agent = %s", c.Agent)
			}
		})
	}
	if seen != len(tests) {
		t.Errorf("%d of %d payloads found", seen, len(tests))
	}
}

func TestLookup(t *testing.T) {
	if len(Names()) < 12 {
		t.Errorf("agents: %v", Names())
	}
	if _, err := Lookup("roo"); err == nil || !strings.Contains(err.Error(), "known: claude, antigravity, auggie") {
		t.Errorf("Lookup(roo) = %v", err)
	}
	for _, a := range All() {
		if a.Decode == nil || a.Encode == nil || a.Wire == nil || a.Check == nil || a.Title == "" || a.Verified == "" {
			t.Errorf("%s is incomplete", a.Name)
		}
	}
}

// TestEntries checks what the hook path reads without building descriptors
// (each agent's name and governance rows) against the descriptors, in
// order, and that Lookup hands out the descriptor All lists.
func TestEntries(t *testing.T) {
	all, names, rows := All(), Names(), Governance()
	if len(names) != len(all) || len(rows) != len(all) {
		t.Fatalf("%d names, %d governance lists, %d agents", len(names), len(rows), len(all))
	}
	for i, a := range all {
		if names[i] != a.Name {
			t.Errorf("name %d = %q, the descriptor's %q", i, names[i], a.Name)
		}
		// An agent configured per user only (Kimi Code) has no row.
		if (len(a.Governance) == 0 && len(a.Settings) > 0) || !reflect.DeepEqual([]governed.File(rows[i]), []governed.File(a.Governance)) {
			t.Errorf("%s: governance rows %v, the descriptor's %v", a.Name, rows[i], a.Governance)
		}
		got, err := Lookup(a.Name)
		if err != nil || got.Name != a.Name || got.Title != a.Title || !reflect.DeepEqual(got.Settings, a.Settings) {
			t.Errorf("Lookup(%s) = %v, %v", a.Name, got.Name, err)
		}
	}
	if all[0].Name != Default {
		t.Errorf("first agent %s, want %s", all[0].Name, Default)
	}
	for i := 2; i < len(all); i++ {
		if all[i-1].Name >= all[i].Name {
			t.Errorf("agents after the first out of order: %s before %s", all[i-1].Name, all[i].Name)
		}
	}
}

// TestAnswers pins each agent's answer to each verdict, as AGENT-PROTOCOLS.md
// found the clients read them.
func TestAnswers(t *testing.T) {
	deny := hook.Decision{Verdict: hook.Deny, Code: "scope_violation", Message: "intenthook: deny [scope_violation] Write to \"x\"\nwhy: w\ninstead: i"}
	ask := hook.Decision{Verdict: hook.Ask, Message: "intenthook: rm -rf build is destructive"}
	sel := hook.Decision{Verdict: hook.AllowWithContext, Message: "selected", Context: "<intent_context/>"}
	ctx := hook.Decision{Context: "<c/>"}
	restored := hook.Decision{Violation: true, Code: "governance_tampered", Message: "intenthook: violation [governance_tampered] r", Warning: "intenthook put back x"}
	const askDeny = "intenthook: deny [approval_required] rm -rf build is destructive\ninstead: this needs a person's approval, and %s cannot ask for it from a hook: stop and ask the user to approve it or to do it themselves\n"
	tests := []struct {
		agent, variant, event string
		d                     hook.Decision
		exit                  int
		stdout, stderr        string
	}{
		{"claude", "", hook.PreToolUse, deny, 2, "", deny.Message + "\n"},
		{"claude", "", hook.PreToolUse, ask, 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"intenthook: rm -rf build is destructive"}}` + "\n", ""},
		// Only Claude Code was seen to give the model a post-tool JSON block's reason.
		{"claude", "", hook.PostToolUse, restored, 0, `{"decision":"block","reason":"intenthook: violation [governance_tampered] r","systemMessage":"intenthook put back x"}` + "\n", ""},
		{"qwen", "", hook.PostToolUse, restored, 2, "", restored.Message + "\n"},
		{"gemini", "", hook.PreToolUse, deny, 2, "", deny.Message + "\n"},
		{"gemini", "", hook.PreToolUse, ask, 0, `{"decision":"ask","reason":"intenthook: rm -rf build is destructive","systemMessage":"intenthook: rm -rf build is destructive"}` + "\n", ""},
		{"gemini", "", hook.PreToolUse, sel, 0, "", ""},
		{"gemini", "", hook.SessionStart, ctx, 0, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"<c/>"}}` + "\n", ""},
		{"gemini", "", hook.UserPromptSubmit, ctx, 0, `{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"<c/>"}}` + "\n", ""},
		{"codex", "", hook.PreToolUse, ask, 2, "", strings.Replace(askDeny, "%s", "Codex CLI", 1)},
		{"codex", "", hook.PreToolUse, sel, 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"<intent_context/>"}}` + "\n", ""},
		{"qwen", "", hook.PreToolUse, ask, 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"intenthook: rm -rf build is destructive"}}` + "\n", ""},
		{"droid", "", hook.PreToolUse, ask, 2, "", strings.Replace(askDeny, "%s", "Factory Droid", 1)},
		{"auggie", "", hook.PreToolUse, deny, 2, "", deny.Message + "\n"},
		{"copilot", "", hook.PreToolUse, deny, 0, `{"permissionDecision":"deny","permissionDecisionReason":` + jsonString(deny.Message) + `}` + "\n", ""},
		{"copilot", "", hook.PreToolUse, ask, 0, `{"permissionDecision":"ask","permissionDecisionReason":"intenthook: rm -rf build is destructive"}` + "\n", ""},
		{"copilot", "", hook.SessionStart, ctx, 0, `{"additionalContext":"<c/>"}` + "\n", ""},
		{"copilot", "claude", hook.PreToolUse, deny, 0, `{"decision":"block","reason":` + jsonString(deny.Message) + `,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":` + jsonString(deny.Message) + `}}` + "\n", ""},
		{"cursor", "", hook.PreToolUse, deny, 2, `{"permission":"deny","user_message":` + jsonString(deny.Message) + `,"agent_message":` + jsonString(deny.Message) + `,"userMessage":` + jsonString(deny.Message) + `,"agentMessage":` + jsonString(deny.Message) + `}` + "\n", deny.Message + "\n"},
		{"cursor", "", hook.PreToolUse, hook.Decision{}, 0, `{"permission":"allow"}` + "\n", ""},
		{"windsurf", "", hook.PreToolUse, deny, 2, "", deny.Message + "\n"},
		{"cline", "", hook.PreToolUse, deny, 0, `{"cancel":true,"errorMessage":` + jsonString(deny.Message) + `}` + "\n", ""},
		{"cline", "", hook.SessionStart, ctx, 0, `{"cancel":false,"contextModification":"<c/>"}` + "\n", ""},
		{"opencode", "", hook.PreToolUse, deny, 2, "", deny.Message + "\n"},
		{"kilo", "", hook.PreToolUse, deny, 2, "", deny.Message + "\n"},
		// The Antigravity CLI fails closed without a decision: every answer
		// before a tool carries one; an ask is force_ask.
		{"antigravity", "", hook.PreToolUse, deny, 0, `{"decision":"deny","reason":` + jsonString(deny.Message) + `}` + "\n", ""},
		{"antigravity", "", hook.PreToolUse, ask, 0, `{"decision":"force_ask","reason":"intenthook: rm -rf build is destructive"}` + "\n", ""},
		{"antigravity", "", hook.PreToolUse, hook.Decision{}, 0, `{"decision":"allow"}` + "\n", ""},
		{"antigravity", "", hook.PreToolUse, sel, 0, `{"decision":"allow","reason":"<intent_context/>"}` + "\n", ""},
		{"antigravity", "", hook.PostToolUse, restored, 0, `{"decision":"deny","reason":"intenthook: violation [governance_tampered] r"}` + "\n", ""},
		// Crush: exit 2 denies; no ask; an allow says nothing (an "allow"
		// would skip Crush's own permission prompt); context in its envelope.
		{"crush", "", hook.PreToolUse, deny, 2, "", deny.Message + "\n"},
		{"crush", "", hook.PreToolUse, ask, 2, "", strings.Replace(askDeny, "%s", "Crush", 1)},
		{"crush", "", hook.PreToolUse, hook.Decision{}, 0, "", ""},
		{"crush", "", hook.PreToolUse, sel, 0, `{"context":"<intent_context/>"}` + "\n", ""},
		{"kilo", "", hook.PreToolUse, ask, 2, "", strings.Replace(askDeny, "%s", "Kilo Code", 1)},
		{"kilo", "", hook.PreToolUse, hook.Decision{}, 0, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.agent+" "+tt.variant+" "+tt.event+" "+tt.d.Verdict.String(), func(t *testing.T) {
			ag, err := Lookup(tt.agent)
			if err != nil {
				t.Fatal(err)
			}
			a := ag.Encode(&hook.Call{Event: tt.event, Variant: tt.variant}, tt.d, 9500)
			if a.Exit != tt.exit || a.Stdout != tt.stdout || a.Stderr != tt.stderr {
				t.Errorf("got exit=%d\nstdout=%q\nstderr=%q", a.Exit, a.Stdout, a.Stderr)
			}
		})
	}
}

func jsonString(s string) string {
	return strings.TrimSuffix(protocol.JSON(s), "\n")
}

// TestCaptured decodes every payload captured from a real client
// (testdata/agents/<agent>/<Event>-<tool>.json, see each folder's README):
// the tool named in the file name must read as its class, a write must name
// its file, a shell call its command, and the shape must not be mistaken
// for another agent's.
func TestCaptured(t *testing.T) {
	classOf := map[string]hook.Class{
		"Write": hook.ClassWrite, "Edit": hook.ClassWrite, "write_file": hook.ClassWrite,
		"replace": hook.ClassWrite, "edit": hook.ClassWrite, "apply_patch": hook.ClassWrite,
		"create": hook.ClassWrite, "Create": hook.ClassWrite,
		"Bash": hook.ClassShell, "run_shell_command": hook.ClassShell, "bash": hook.ClassShell, "Execute": hook.ClassShell,
		"Read": hook.ClassRead, "read_file": hook.ClassRead, "view": hook.ClassRead,
		"write": hook.ClassWrite, "read": hook.ClassRead, // OpenCode
		"editor": hook.ClassWrite, "run_commands": hook.ClassShell, "read_files": hook.ClassRead, // Cline 3
		"select_active_intent": hook.ClassSelect,                                                                          // intenthook's MCP server, under the agent's own name for it
		"save-file":            hook.ClassWrite, "str-replace-editor": hook.ClassWrite, "launch-process": hook.ClassShell, // Auggie
	}
	events := map[string]string{
		"PreToolUse": hook.PreToolUse, "preToolUse": hook.PreToolUse, "BeforeTool": hook.PreToolUse,
		"PostToolUse": hook.PostToolUse, "postToolUse": hook.PostToolUse, "AfterTool": hook.PostToolUse,
		"tool_call": hook.PreToolUse, "tool_result": hook.PostToolUse, // Cline 3
	}
	files, _ := filepath.Glob("../../testdata/agents/*/*.json")
	n := 0
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".json")
		if strings.HasPrefix(base, "doc-") {
			continue
		}
		folder := filepath.Base(filepath.Dir(f))
		// Event-tool[-n][-mcp]; a tool's name may hold dashes (Auggie's).
		name, tool, hasTool := strings.Cut(base, "-")
		event, ok := events[name]
		if !ok || !hasTool {
			continue // a session or prompt event: no tool
		}
		tool = strings.TrimSuffix(tool, "-mcp")
		if i := strings.LastIndexByte(tool, '-'); i > 0 && strings.Trim(tool[i+1:], "0123456789") == "" {
			tool = tool[:i]
		}
		want, ok := classOf[tool]
		if !ok {
			t.Errorf("%s/%s: no class known for tool %q", folder, base, tool)
			continue
		}
		n++
		t.Run(folder+"/"+base, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := protocol.ParseObject(data)
			if err != nil {
				t.Fatal(err)
			}
			// Copilot's Claude-shaped hooks are Claude's shape exactly;
			// its hooks are wired with --agent copilot.
			if got := Detect(ev); got != folder && !(folder == "copilot" && got == "claude") {
				t.Errorf("Detect = %s, want %s", got, folder)
			}
			ag, err := Lookup(folder)
			if err != nil {
				t.Fatal(err)
			}
			c, err := ag.Decode(ev, event)
			if err != nil {
				t.Fatal(err)
			}
			if c.Class != want {
				t.Fatalf("class %s, want %s (tool %q, unparsed %q)", c.Class, want, c.ToolName, c.Unparsed)
			}
			switch want {
			case hook.ClassWrite, hook.ClassRead:
				if len(c.Paths) == 0 {
					t.Errorf("no paths decoded")
				}
			case hook.ClassShell:
				if c.Command == "" {
					t.Errorf("no command decoded")
				}
			}
			if c.SessionID == "" {
				t.Errorf("no session id")
			}
		})
	}
	if n < 30 {
		t.Errorf("only %d captured tool payloads found", n)
	}
}

// TestInShell pins the variables each client sets in its shell tool's
// environment, as make e2e saw them (env run through the client's own
// shell tool): select and the person-only commands read them.
func TestInShell(t *testing.T) {
	tests := []struct {
		name, variable, value string
		want                  string // the agent's title; "" none
	}{
		{"claude code", "CLAUDECODE", "1", "Claude Code"},
		{"claude code session", "CLAUDE_CODE_SESSION_ID", "87b9b33b-5625-466c-a532-01536fef0db2", "Claude Code"},
		{"gemini cli", "GEMINI_CLI", "1", "Gemini CLI"},
		{"qwen code", "QWEN_CODE", "1", "Qwen Code"},
		{"codex without a sandbox", "CODEX_THREAD_ID", "01a20492-c941-7ae1-97de-0e1e3d3b63a1", "Codex CLI"},
		{"codex sandbox", "CODEX_SANDBOX", "seatbelt", "Codex CLI"},
		{"copilot cli", "COPILOT_CLI", "1", "Copilot CLI"},
		{"auggie", "AUGMENT_AGENT", "1", "Auggie"},
		{"copilot session", "COPILOT_AGENT_SESSION_ID", "c286cd38-e11f-4a51-b769-322b3dbffa5", "Copilot CLI"},
		{"droid exec", "FACTORY_DISABLE_SETTINGS_PERSISTENCE", "true", "Factory Droid"},
		{"opencode", "OPENCODE", "1", "OpenCode"},
		{"cline 3", "CLINE_CONNECTOR_CLI_LAUNCH", `{"launcher":"/c/bin/cline","connectArgsPrefix":["connect"]}`, "Cline"},
		{"opencode pid", "OPENCODE_PID", "4242", "OpenCode"},
		{"a person's shell", "TERM", "xterm", ""},
		{"empty value", "CLAUDECODE", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == tt.variable {
					return tt.value
				}
				return ""
			}
			title, variable, ok := InShell(getenv)
			if title != tt.want || ok != (tt.want != "") || (ok && variable != tt.variable) {
				t.Errorf("InShell = %q, %q, %v; want %q by %s", title, variable, ok, tt.want, tt.variable)
			}
		})
	}
}

// wholeHooksFile are the agents whose hooks file holds the events at its
// top level (Devin CLI's .devin/hooks.v1.json): the guard, which judges a
// "hooks" object by effect, watches it whole instead.
var wholeHooksFile = map[string]bool{"devin": true, "antigravity": true}

// TestWiringJudged: every JSON file init wires hooks into is judged by
// effect (a HookSettings row), and the row knows every matcher init
// writes there: the guard tries a changed matcher of intenthook's on the
// tool names in them.
func TestWiringJudged(t *testing.T) {
	for _, a := range All() {
		root := t.TempDir()
		if _, err := a.Wire(root); err != nil {
			t.Fatalf("%s: wire: %v", a.Name, err)
		}
		for _, rel := range a.Settings {
			if !strings.HasSuffix(rel, ".json") {
				continue
			}
			row, ok := governed.Table(a.Governance).Row(rel, governed.Guarded)
			if ok && row.Watch == governed.Whole && wholeHooksFile[a.Name] {
				continue // its events (Antigravity: its named hooks) are the file's top-level keys: watched whole
			}
			if !ok || row.Watch != governed.HookSettings || row.Hooks == nil {
				t.Errorf("%s: %s is not judged by effect (row %+v)", a.Name, rel, row)
				continue
			}
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatalf("%s: %v", a.Name, err)
			}
			var doc struct {
				Hooks map[string][]struct {
					Matcher *string `json:"matcher"`
				} `json:"hooks"`
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatalf("%s: %s: %v", a.Name, rel, err)
			}
			for event, entries := range doc.Hooks {
				for _, e := range entries {
					if e.Matcher != nil && !slices.Contains(row.Hooks.Matchers, *e.Matcher) {
						t.Errorf("%s: %s %s: init's matcher %q is not in the row's Hooks.Matchers", a.Name, rel, event, *e.Matcher)
					}
				}
			}
		}
	}
}

// TestNeverDefer: no agent's answer is ever Claude Code's "defer" (which
// hands a -p run's single call back to the caller, undecided): every
// verdict, before a tool and after it, for every agent and variant.
func TestNeverDefer(t *testing.T) {
	decisions := []hook.Decision{
		{},
		{Verdict: hook.AllowWithContext, Message: "m", Context: "c"},
		{Verdict: hook.Ask, Code: "destructive_command", Message: "intenthook: ask m"},
		{Verdict: hook.Deny, Code: "scope_violation", Message: "intenthook: deny [scope_violation] m"},
		{Violation: true, Code: "scope_violation", Message: "m", Warning: "w"},
		{Warning: "w", Notes: []string{"n"}},
	}
	events := []string{hook.PreToolUse, hook.PostToolUse, hook.PostToolUseFailure, hook.SessionStart, hook.UserPromptSubmit}
	for _, a := range All() {
		for _, ev := range events {
			for _, variant := range []string{"", "claude"} {
				for _, d := range decisions {
					c := &hook.Call{Agent: a.Name, Event: ev, Variant: variant, ToolName: "Write"}
					ans := a.Encode(c, d, 4096)
					if strings.Contains(ans.Stdout, "defer") {
						t.Errorf("%s %s (variant %q) verdict %v: %s", a.Name, ev, variant, d.Verdict, ans.Stdout)
					}
				}
			}
		}
	}
}
