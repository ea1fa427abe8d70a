// Command capture runs a real agent CLI against the scripted mock model with a
// logging hook on every tool and session event, and saves each payload the
// client sent as testdata/agents/<agent>/<event>-<tool>.json, with the
// machine's temporary paths replaced by /work/proj (workspace) and /work/home.
//
// Usage: go run ./internal/e2e/cmd/capture -agent gemini -bin PATH -out testdata/agents
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/e2e/mockmodel"
)

func main() {
	agent := flag.String("agent", "gemini", "agent to capture")
	bin := flag.String("bin", "", "path of the agent's CLI")
	out := flag.String("out", "testdata/agents", "output directory")
	flag.Parse()
	if err := run(*agent, *bin, *out); err != nil {
		fmt.Fprintln(os.Stderr, "intenthook: error:", err)
		os.Exit(1)
	}
}

func run(agent, bin, out string) error {
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

	var cmd *exec.Cmd
	var srv *mockmodel.Server
	switch agent {
	case "gemini":
		srv = mockmodel.New(geminiTurns(ws))
		if err := writeGeminiSettings(ws, hook); err != nil {
			return err
		}
		cmd = exec.Command(bin, "-p", "do the scripted task", "--yolo", "-m", "gemini-2.5-flash")
	case "codex":
		srv = mockmodel.New(codexTurns())
		if err := writeCodexConfig(home, ws, srv.URL, hook); err != nil {
			return err
		}
		cmd = exec.Command(bin, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
			"--dangerously-bypass-hook-trust", "do the scripted task")
	case "claude":
		srv = mockmodel.New(claudeTurns(ws))
		if err := writeClaudeSettings(ws, hook); err != nil {
			return err
		}
		cmd = exec.Command(bin, "-p", "do the scripted task", "--output-format", "stream-json", "--verbose",
			"--permission-mode", "acceptEdits", "--allowedTools", "Bash")
	case "qwen":
		srv = mockmodel.New(qwenTurns(ws))
		if err := writeQwenSettings(ws, hook); err != nil {
			return err
		}
		// Qwen Code needs Node 22: bin is node_modules/.bin/qwen, next to the node@22 package's node.
		cmd = exec.Command(filepath.Join(filepath.Dir(bin), "node"), filepath.Join(filepath.Dir(bin), "qwen"), "-p", "do the scripted task", "--yolo",
			"--auth-type", "openai")
	case "copilot":
		srv = mockmodel.New(copilotTurns(ws))
		if err := writeCopilotHooks(ws, logFile); err != nil {
			return err
		}
		// Copilot also runs Claude-shaped hooks from .claude/settings.json,
		// which is what a repository wired for Claude Code already has.
		if err := writeClaudeSettings(ws, hook); err != nil {
			return err
		}
		cmd = exec.Command(bin, "-p", "do the scripted task", "--allow-all-tools")
	case "droid":
		srv = mockmodel.New(droidTurns(ws))
		if err := writeDroidSettings(home, srv.URL, hook); err != nil {
			return err
		}
		cmd = exec.Command(bin, "exec", "--auto", "high", "-m", "custom:mock", "do the scripted task")
	default:
		return fmt.Errorf("unknown agent %q", agent)
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd = exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	cmd.Env = append(os.Environ(), envFor(agent, home, srv.URL)...)
	cmd.Dir = ws
	output, runErr := cmd.CombinedOutput()
	fmt.Fprintf(os.Stderr, "%s exited: %v\n%s\n", agent, runErr, output)
	return save(logFile, filepath.Join(out, agent), ws, home)
}

func envFor(agent, home, url string) []string {
	switch agent {
	case "gemini":
		return []string{"HOME=" + home, "GEMINI_API_KEY=mock", "GOOGLE_GEMINI_BASE_URL=" + url,
			"GEMINI_CLI_TRUST_WORKSPACE=true", "NO_COLOR=1"}
	case "claude":
		return []string{"HOME=" + home, "ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=mock",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
			"DISABLE_ERROR_REPORTING=1"}
	case "qwen":
		return []string{"HOME=" + home, "OPENAI_BASE_URL=" + url + "/v1", "OPENAI_API_KEY=mock", "OPENAI_MODEL=mock",
			"NO_COLOR=1"}
	case "copilot":
		return []string{"HOME=" + home, "COPILOT_HOME=" + filepath.Join(home, ".copilot"), "COPILOT_OFFLINE=true",
			"COPILOT_PROVIDER_BASE_URL=" + url + "/v1", "COPILOT_PROVIDER_TYPE=openai", "COPILOT_PROVIDER_API_KEY=mock",
			"COPILOT_MODEL=claude-sonnet-4.5", "COPILOT_ALLOW_ALL=true", "NO_COLOR=1"}
	case "droid":
		return []string{"HOME=" + home, "NO_COLOR=1"}
	case "codex":
		return []string{"HOME=" + home, "CODEX_HOME=" + filepath.Join(home, ".codex"), "MOCK_API_KEY=mock", "NO_COLOR=1"}
	}
	return nil
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

// writeCodexConfig points Codex at the mock through a custom provider and
// puts the logging hook in the user layer's hooks.json.
func writeCodexConfig(home, ws, url, hook string) error {
	dir := filepath.Join(home, ".codex")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	config := fmt.Sprintf(`model = "gpt-5.5"
model_provider = "mock"

[model_providers.mock]
name = "mock"
base_url = "%s/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"

[projects.%q]
trust_level = "trusted"
`, url, ws)
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(config), 0o644); err != nil {
		return err
	}
	h := []any{map[string]any{"type": "command", "command": hook, "timeout": 30}}
	hooks := map[string]any{"hooks": map[string]any{
		"PreToolUse":       []any{map[string]any{"matcher": "*", "hooks": h}},
		"PostToolUse":      []any{map[string]any{"matcher": "*", "hooks": h}},
		"SessionStart":     []any{map[string]any{"matcher": "*", "hooks": h}},
		"UserPromptSubmit": []any{map[string]any{"hooks": h}},
	}}
	return writeJSONFile(filepath.Join(dir, "hooks.json"), hooks)
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
	return writeJSONFile(filepath.Join(ws, ".claude", "settings.json"), settings)
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
		"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}},
		"hooks": map[string]any{
			"PreToolUse": all, "PostToolUse": all,
			"SessionStart":     []any{map[string]any{"hooks": h}},
			"UserPromptSubmit": []any{map[string]any{"hooks": h}},
		},
	}
	return writeJSONFile(filepath.Join(ws, ".qwen", "settings.json"), settings)
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
	for _, ev := range []string{"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse"} {
		cmd := fmt.Sprintf(`(printf '{"_event":"%s","payload":'; cat; printf '}\n') >> %s`, ev, logFile)
		hooks[ev] = []any{map[string]any{"type": "command", "bash": cmd, "timeoutSec": 30}}
	}
	return writeJSONFile(filepath.Join(ws, ".github", "hooks", "log.json"), map[string]any{"version": 1, "hooks": hooks})
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

// writeDroidSettings declares the mock as a BYOK custom model (no Factory
// login needed) and wires the logging hook in the user settings.
func writeDroidSettings(home, url, hook string) error {
	h := []any{map[string]any{"type": "command", "command": hook, "timeout": 30}}
	all := []any{map[string]any{"matcher": "*", "hooks": h}}
	settings := map[string]any{
		"customModels": []any{map[string]any{"model": "mock", "model_display_name": "mock", "base_url": url + "/v1",
			"api_key": "mock", "provider": "generic-chat-completion-api", "max_tokens": 4096}},
		"hooks": map[string]any{"PreToolUse": all, "PostToolUse": all,
			"SessionStart": []any{map[string]any{"hooks": h}}, "UserPromptSubmit": []any{map[string]any{"hooks": h}}},
	}
	return writeJSONFile(filepath.Join(home, ".factory", "settings.json"), settings)
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
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"hooks": map[string]any{
			"BeforeTool":   []any{map[string]any{"matcher": ".*", "hooks": h}},
			"AfterTool":    []any{map[string]any{"matcher": ".*", "hooks": h}},
			"SessionStart": []any{map[string]any{"matcher": "startup", "hooks": h}},
			"BeforeAgent":  []any{map[string]any{"hooks": h}},
		},
	}
	return writeJSONFile(filepath.Join(ws, ".gemini", "settings.json"), settings)
}

func writeJSONFile(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
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
