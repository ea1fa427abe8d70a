// Command capture runs a real agent CLI (set up as package harness does)
// against the scripted mock model with a logging hook on every tool and session event, and saves each payload the
// client sent as testdata/agents/<agent>/<event>-<tool>.json, with the
// machine's temporary paths replaced by /work/proj (workspace) and /work/home.
//
// Usage: go run ./internal/e2e/cmd/capture -agent gemini -bin PATH -out testdata/agents
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/opencode"
	"github.com/intenthook/intenthook/internal/e2e/harness"
	"github.com/intenthook/intenthook/internal/e2e/mockmodel"
)

func main() {
	agent := flag.String("agent", "gemini", "agent to capture")
	bin := flag.String("bin", "", "path of the agent's CLI")
	out := flag.String("out", "testdata/agents", "output directory")
	newer := flag.Bool("newer", false, "claude: capture the newer events instead (PostToolBatch, PermissionDenied, CwdChanged)")
	flag.Parse()
	if err := run(*agent, *bin, *out, *newer); err != nil {
		fmt.Fprintln(os.Stderr, "intenthook: error:", err)
		os.Exit(1)
	}
}

func run(agent, bin, out string, newer bool) error {
	tmp, err := os.MkdirTemp("", "capture-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	ws, home := filepath.Join(tmp, "proj"), filepath.Join(tmp, "home")
	for _, d := range []string{ws, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := exec.Command("git", "init", "-q", ws).Run(); err != nil {
		return err
	}
	logFile := filepath.Join(tmp, "hook.log")
	hook := fmt.Sprintf("cat >> %s; echo >> %s", logFile, logFile)
	path := os.Getenv("PATH")
	c, ok := harness.Lookup(agent)
	if !ok {
		return fmt.Errorf("unknown agent %q", agent)
	}
	var turns []mockmodel.Turn
	switch agent {
	case "gemini":
		turns, err = geminiTurns(ws), writeGeminiSettings(ws, hook)
	case "codex":
		turns, err = codexTurns(), writeCodexHooks(home, hook)
	case "claude":
		turns, err = claudeTurns(ws), writeClaudeSettings(ws, hook)
		if newer {
			turns, err = claudeNewerTurns(ws), writeClaudeNewerSettings(ws, hook)
		}
	case "qwen":
		turns, err = qwenTurns(ws), writeQwenSettings(ws, hook)
	case "copilot":
		turns, err = copilotTurns(ws), writeCopilotHooks(ws, logFile)
		// Copilot also runs Claude-shaped hooks from .claude/settings.json,
		// which is what a repository wired for Claude Code already has.
		if err == nil {
			err = writeClaudeSettings(ws, hook)
		}
	case "droid":
		turns, err = droidTurns(ws), writeDroidHooks(home, hook)
	case "cline":
		turns, err = clineTurns(c, ws), writeClineHooks(ws, hook)
	case "opencode", "opencode-gpt":
		// OpenCode's hook is the plugin init writes: it runs the
		// intenthook on PATH, here a logger.
		turns = openCodeTurns(c, ws)
		if _, err = opencode.Wire(ws); err == nil {
			err = os.MkdirAll(filepath.Join(ws, "sub"), 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(tmp, "intenthook"), []byte("#!/bin/sh\n"+hook+"\n"), 0o755)
		}
		path = tmp + string(os.PathListSeparator) + path
	}
	if err != nil {
		return err
	}
	srv := mockmodel.New(turns)
	defer srv.Close()
	output, runErr := c.Run(bin, ws, home, path, srv.URL)
	fmt.Fprintf(os.Stderr, "%s exited: %v\n%s\n", agent, runErr, output)
	return save(logFile, filepath.Join(out, c.AgentName()), ws, home)
}

func clineTurns(c harness.Client, ws string) []mockmodel.Turn {
	f := filepath.Join(ws, "hello.txt")
	return []mockmodel.Turn{
		{Calls: []mockmodel.ToolCall{c.Write(f, "hello\n")}},
		{Calls: []mockmodel.ToolCall{c.Read(f)}},
		{Calls: []mockmodel.ToolCall{c.Edit(f, "hello", "hello world")}},
		{Calls: []mockmodel.ToolCall{c.Shell("echo shell > shell.txt")}},
		{Text: "done"},
	}
}

// writeClineHooks puts the logging hook in each of Cline's hook files.
func writeClineHooks(ws, hook string) error {
	for _, ev := range []string{"PreToolUse", "PostToolUse", "TaskStart", "TaskResume", "UserPromptSubmit"} {
		if err := os.MkdirAll(filepath.Join(ws, ".clinerules", "hooks"), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(ws, ".clinerules", "hooks", ev), []byte("#!/bin/sh\n"+hook+"\n"), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// openCodeTurns: a write and an edit (apply_patch patches for a GPT
// model), a read, and a shell command in a subdirectory (bash's workdir).
func openCodeTurns(c harness.Client, ws string) []mockmodel.Turn {
	f := filepath.Join(ws, "hello.txt")
	return []mockmodel.Turn{
		{Calls: []mockmodel.ToolCall{c.Write(f, "hello\n")}},
		{Calls: []mockmodel.ToolCall{c.Read(f)}},
		{Calls: []mockmodel.ToolCall{c.Edit(f, "hello", "hello world")}},
		{Calls: []mockmodel.ToolCall{{Name: "bash", Args: map[string]any{"command": "echo shell > shell.txt", "workdir": filepath.Join(ws, "sub"), "description": "write shell.txt"}}}},
		{Text: "done"},
	}
}

func codexTurns() []mockmodel.Turn {
	return []mockmodel.Turn{
		{Calls: []mockmodel.ToolCall{{Name: "apply_patch", Input: "*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n"}}},
		{Calls: []mockmodel.ToolCall{{Name: "apply_patch", Input: "*** Begin Patch\n*** Update File: hello.txt\n@@\n-hello\n+hello world\n*** End Patch\n"}}},
		{Calls: []mockmodel.ToolCall{{Name: "exec_command", Args: map[string]any{"cmd": "echo shell > shell.txt"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "exec_command", Args: map[string]any{"cmd": "cat hello.txt"}}}},
		{Text: "done"},
	}
}

// writeCodexHooks puts the logging hook in the user layer's hooks.json
// (the harness points Codex at the mock in config.toml).
func writeCodexHooks(home, hook string) error {
	h := []any{map[string]any{"type": "command", "command": hook, "timeout": 30}}
	hooks := map[string]any{"hooks": map[string]any{
		"PreToolUse":       []any{map[string]any{"matcher": "*", "hooks": h}},
		"PostToolUse":      []any{map[string]any{"matcher": "*", "hooks": h}},
		"SessionStart":     []any{map[string]any{"matcher": "*", "hooks": h}},
		"UserPromptSubmit": []any{map[string]any{"hooks": h}},
	}}
	return harness.WriteJSON(filepath.Join(home, ".codex", "hooks.json"), hooks)
}

func claudeTurns(ws string) []mockmodel.Turn {
	f := filepath.Join(ws, "hello.txt")
	return []mockmodel.Turn{
		{Calls: []mockmodel.ToolCall{{Name: "Write", Args: map[string]any{"file_path": f, "content": "hello\n"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "Read", Args: map[string]any{"file_path": f}}}},
		{Calls: []mockmodel.ToolCall{{Name: "Edit", Args: map[string]any{"file_path": f, "old_string": "hello", "new_string": "hello world"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "Bash", Args: map[string]any{"command": "echo shell > shell.txt", "description": "write shell.txt"}}}},
		{Text: "done"},
	}
}

func writeClaudeSettings(ws, hook string) error {
	h := []any{map[string]any{"type": "command", "command": hook, "timeout": 30}}
	all := []any{map[string]any{"matcher": "*", "hooks": h}}
	settings := map[string]any{"hooks": map[string]any{
		"PreToolUse": all, "PostToolUse": all, "SessionStart": all,
		"UserPromptSubmit": []any{map[string]any{"hooks": h}},
	}}
	return harness.WriteJSON(filepath.Join(ws, ".claude", "settings.json"), settings)
}

// claudeNewerTurns: two calls in one turn (a batch: PostToolBatch), a
// Write a permission rule refuses (PermissionDenied), and a shell cd that
// moves the session's working directory (CwdChanged).
func claudeNewerTurns(ws string) []mockmodel.Turn {
	return []mockmodel.Turn{
		{Calls: []mockmodel.ToolCall{
			{Name: "Write", Args: map[string]any{"file_path": filepath.Join(ws, "a.txt"), "content": "a\n"}},
			{Name: "Write", Args: map[string]any{"file_path": filepath.Join(ws, "b.txt"), "content": "b\n"}},
		}},
		{Calls: []mockmodel.ToolCall{{Name: "Write", Args: map[string]any{"file_path": filepath.Join(ws, "denied.txt"), "content": "x\n"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "Bash", Args: map[string]any{"command": "mkdir -p sub && cd sub", "description": "move to sub"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "Bash", Args: map[string]any{"command": "pwd", "description": "where"}}}},
		{Text: "done"},
	}
}

// writeClaudeNewerSettings logs Claude Code's newer events, with a rule
// that refuses writes to denied.txt.
func writeClaudeNewerSettings(ws, hook string) error {
	h := []any{map[string]any{"type": "command", "command": hook, "timeout": 30}}
	all := []any{map[string]any{"matcher": "*", "hooks": h}}
	bare := []any{map[string]any{"hooks": h}}
	settings := map[string]any{
		"permissions": map[string]any{"deny": []any{"Write(/denied.txt)", "Edit(/denied.txt)"}},
		"hooks": map[string]any{
			"PostToolBatch": bare, "PermissionDenied": all, "CwdChanged": bare, "DirectoryAdded": bare,
			"PreModelSwitch": bare, "PostModelSwitch": bare,
		}}
	return harness.WriteJSON(filepath.Join(ws, ".claude", "settings.json"), settings)
}

func qwenTurns(ws string) []mockmodel.Turn {
	f := filepath.Join(ws, "hello.txt")
	return []mockmodel.Turn{
		{Calls: []mockmodel.ToolCall{{Name: "write_file", Args: map[string]any{"file_path": f, "content": "hello\n"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "edit", Args: map[string]any{"file_path": f, "old_string": "hello", "new_string": "hello world"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "run_shell_command", Args: map[string]any{"command": "echo shell > shell.txt", "description": "write shell.txt", "is_background": false}}}},
		{Calls: []mockmodel.ToolCall{{Name: "read_file", Args: map[string]any{"file_path": f}}}},
		{Text: "done"},
	}
}

func writeQwenSettings(ws, hook string) error {
	h := []any{map[string]any{"type": "command", "command": hook, "timeout": 30}}
	all := []any{map[string]any{"matcher": "*", "hooks": h}}
	settings := map[string]any{
		"hooks": map[string]any{
			"PreToolUse": all, "PostToolUse": all,
			"SessionStart":     []any{map[string]any{"hooks": h}},
			"UserPromptSubmit": []any{map[string]any{"hooks": h}},
		},
	}
	return harness.WriteJSON(filepath.Join(ws, ".qwen", "settings.json"), settings)
}

func copilotTurns(ws string) []mockmodel.Turn {
	f := filepath.Join(ws, "hello.txt")
	return []mockmodel.Turn{
		{Calls: []mockmodel.ToolCall{{Name: "create", Args: map[string]any{"path": f, "file_text": "hello\n"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "edit", Args: map[string]any{"path": f, "old_str": "hello", "new_str": "hello world"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "bash", Args: map[string]any{"command": "echo shell > shell.txt", "description": "write shell.txt"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "view", Args: map[string]any{"path": f}}}},
		{Text: "done"},
	}
}

// writeCopilotHooks wires Copilot's native hooks. Native payloads do not
// name their event, so each hook wraps what it receives as {"_event", "payload"}.
func writeCopilotHooks(ws, logFile string) error {
	hooks := map[string]any{}
	for _, ev := range []string{"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "permissionRequest"} {
		cmd := fmt.Sprintf(`(printf '{"_event":"%s","payload":'; cat; printf '}\n') >> %s`, ev, logFile)
		hooks[ev] = []any{map[string]any{"type": "command", "bash": cmd, "timeoutSec": 30}}
	}
	return harness.WriteJSON(filepath.Join(ws, ".github", "hooks", "log.json"), map[string]any{"version": 1, "hooks": hooks})
}

func droidTurns(ws string) []mockmodel.Turn {
	f := filepath.Join(ws, "hello.txt")
	return []mockmodel.Turn{
		{Calls: []mockmodel.ToolCall{{Name: "Create", Args: map[string]any{"file_path": f, "content": "hello\n"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "Read", Args: map[string]any{"file_path": f}}}},
		{Calls: []mockmodel.ToolCall{{Name: "Edit", Args: map[string]any{"file_path": f, "old_str": "hello", "new_str": "hello world"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "Execute", Args: map[string]any{"command": "echo shell > shell.txt", "summary": "write shell.txt",
			"riskLevel": "low", "riskLevelReason": "writes one file in the workspace"}}}},
		{Text: "done"},
	}
}

// writeDroidHooks wires the logging hook in Droid's user settings (the
// harness adds the BYOK model entry pointing at the mock).
func writeDroidHooks(home, hook string) error {
	h := []any{map[string]any{"type": "command", "command": hook, "timeout": 30}}
	all := []any{map[string]any{"matcher": "*", "hooks": h}}
	return harness.SetJSON(filepath.Join(home, ".factory", "settings.json"), "hooks", map[string]any{
		"PreToolUse": all, "PostToolUse": all,
		"SessionStart": []any{map[string]any{"hooks": h}}, "UserPromptSubmit": []any{map[string]any{"hooks": h}}})
}

func geminiTurns(ws string) []mockmodel.Turn {
	f := filepath.Join(ws, "hello.txt")
	return []mockmodel.Turn{
		{Calls: []mockmodel.ToolCall{{Name: "write_file", Args: map[string]any{"file_path": f, "content": "hello\n"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "replace", Args: map[string]any{"file_path": f, "old_string": "hello", "new_string": "hello world", "instruction": "greet the world"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "run_shell_command", Args: map[string]any{"command": "echo shell > shell.txt", "description": "write shell.txt"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "read_file", Args: map[string]any{"file_path": f}}}},
		{Text: "done"},
	}
}

func writeGeminiSettings(ws, hook string) error {
	h := []any{map[string]any{"type": "command", "name": "log", "command": hook, "timeout": 30000}}
	settings := map[string]any{
		"hooks": map[string]any{
			"BeforeTool":   []any{map[string]any{"matcher": ".*", "hooks": h}},
			"AfterTool":    []any{map[string]any{"matcher": ".*", "hooks": h}},
			"SessionStart": []any{map[string]any{"matcher": "startup", "hooks": h}},
			"BeforeAgent":  []any{map[string]any{"hooks": h}},
		},
	}
	return harness.WriteJSON(filepath.Join(ws, ".gemini", "settings.json"), settings)
}

// save splits the hook log into one file per payload, named by event and tool.
func save(logFile, dir, ws, home string) error {
	data, err := os.ReadFile(logFile)
	if err != nil {
		return fmt.Errorf("no hook payloads captured: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		// Claude Code names its project folder after the workspace path.
		line = strings.ReplaceAll(line, strings.ReplaceAll(ws, "/", "-"), "-work-proj")
		line = strings.ReplaceAll(line, ws, "/work/proj")
		line = strings.ReplaceAll(line, home, "/work/home")
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			fmt.Fprintf(os.Stderr, "skipping non-JSON payload: %.80s\n", line)
			continue
		}
		name := fmt.Sprint(m["hook_event_name"])
		if t, ok := m["tool_name"].(string); ok {
			name += "-" + t
		}
		// Cline names the hook hookName and the call tool_call/tool_result.
		if h, ok := m["hookName"].(string); ok {
			name = h
			for _, k := range []string{"tool_call", "tool_result"} {
				if call, ok := m[k].(map[string]any); ok {
					name += "-" + fmt.Sprint(call["name"])
				}
			}
		}
		if ev, ok := m["_event"].(string); ok {
			var wrapped struct {
				Payload json.RawMessage `json:"payload"`
			}
			if err := json.Unmarshal([]byte(line), &wrapped); err != nil {
				return err
			}
			line, name = string(wrapped.Payload), ev
			if p, ok := m["payload"].(map[string]any); ok {
				if t, ok := p["toolName"].(string); ok {
					name += "-" + t
				}
			}
		}
		// A second call of the same tool (an edit after a create) gets a number.
		seen[name]++
		if n := seen[name]; n > 1 {
			name = fmt.Sprintf("%s-%d", name, n)
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, []byte(line), "", "  "); err != nil {
			return err
		}
		pretty.WriteByte('\n')
		if err := os.WriteFile(filepath.Join(dir, name+".json"), pretty.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Println("saved", filepath.Join(dir, name+".json"))
	}
	return sc.Err()
}
