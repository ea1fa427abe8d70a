// Package harness runs real agent CLIs headless against the scripted mock
// model (package mockmodel): which clients there are, how each is pointed at
// the mock without an account, how its model writes a file or runs a shell
// command, and a throw-away governed git workspace to run them in. It holds
// no scenarios and no verdicts: those are the e2e command's, and the capture
// command wires its own logging hooks instead of intenthook's.
package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/e2e/mockmodel"
)

// Client is one agent CLI as the harness runs it.
type Client struct {
	Name    string // intenthook's --agent name, or a variant's own (opencode-gpt)
	Agent   string // a variant's --agent name; "" when it is Name
	Package string // the npm package and version scripts/e2e-install.sh pins
	bin     string // the executable, relative to the install cache

	// Write and Shell are the tool calls this client's model makes to write
	// a whole file (absolute path) and to run a shell command.
	Write func(path, content string) mockmodel.ToolCall
	Shell func(command string) mockmodel.ToolCall
	// Read and Edit read a file and replace old by new in it; nil where the
	// model has no such tool (Codex reads through the shell and edits with
	// patches).
	Read func(path string) mockmodel.ToolCall
	Edit func(path, old, new string) mockmodel.ToolCall
	// NoStartContext, when set, says why the SessionStart context cannot
	// reach this client's model.
	NoStartContext string
	// MCPTool names tool of MCP server as the client offers it to the
	// model; nil where init registers no MCP server for the client.
	MCPTool func(server, tool string) string
	// MCPCalls are the calls the model makes to call an MCP server's
	// tool; nil: the one call of MCPTool's name. (Codex defers MCP tools:
	// its model searches for them first.)
	MCPCalls func(server, tool string, args map[string]any) []mockmodel.ToolCall

	// configure writes the user-level settings that point the client at
	// the mock model (and trust the workspace where the client asks for it).
	configure func(home, ws, url string) error
	argv      func(bin, prompt string) []string
	env       func(home, url string) []string
	// resume is the argv that continues the client's saved session id
	// with prompt, and lastSession the id of the session the client saved
	// last under home; both nil where the harness does not resume the
	// client's sessions.
	resume      func(bin, id, prompt string) []string
	lastSession func(home string) (string, error)
	// ready is what the client's interactive screen shows once it takes
	// a prompt.
	ready string
}

// Clients lists the clients the harness knows, in the order rows are shown.
func Clients() []Client {
	return []Client{claude(), gemini(), codex(), qwen(), copilot(), droid(), auggie(), opencode("mock"), opencode("gpt-5-mock"), kilo(), cline()}
}

// Lookup finds a client by its agent name.
func Lookup(name string) (Client, bool) {
	for _, c := range Clients() {
		if c.Name == name {
			return c, true
		}
	}
	return Client{}, false
}

// AgentName is the --agent name init wires the client with.
func (c Client) AgentName() string {
	if c.Agent != "" {
		return c.Agent
	}
	return c.Name
}

// Bin is the client's executable in the install cache.
func (c Client) Bin(cache string) string { return filepath.Join(cache, c.bin) }

// Installed reports whether the client is in the install cache.
func (c Client) Installed(cache string) bool {
	_, err := os.Stat(c.Bin(cache))
	return err == nil
}

func call(name string, args map[string]any) mockmodel.ToolCall {
	return mockmodel.ToolCall{Name: name, Args: args}
}

func claude() Client {
	return Client{
		Name: "claude", Package: "@anthropic-ai/claude-code@2.1.330", bin: "claude/node_modules/.bin/claude",
		Write: func(p, s string) mockmodel.ToolCall {
			return call("Write", map[string]any{"file_path": p, "content": s})
		},
		Shell: func(cmd string) mockmodel.ToolCall {
			return call("Bash", map[string]any{"command": cmd, "description": "run a command"})
		},
		Read: func(p string) mockmodel.ToolCall { return call("Read", map[string]any{"file_path": p}) },
		Edit: func(p, o, n string) mockmodel.ToolCall {
			return call("Edit", map[string]any{"file_path": p, "old_string": o, "new_string": n})
		},
		MCPTool:   func(server, tool string) string { return "mcp__" + server + "__" + tool },
		configure: func(home, ws, url string) error { return nil },
		// Bash is pre-approved, as a CI job would; the hooks stay the
		// authority over what it does. Nothing approves the intenthook MCP
		// server: headless runs load .mcp.json's servers without the
		// interactive trust question, and the PreToolUse hook's allow
		// answers the tool's permission.
		argv: func(bin, prompt string) []string {
			return []string{bin, "-p", prompt, "--output-format", "stream-json", "--verbose",
				"--permission-mode", "acceptEdits", "--allowedTools", "Bash"}
		},
		env: func(home, url string) []string {
			return []string{"HOME=" + home, "ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=mock",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
				"DISABLE_ERROR_REPORTING=1"}
		},
	}
}

func gemini() Client {
	return Client{
		Name: "gemini", Package: "@google/gemini-cli@0.61.0", bin: "gemini/node_modules/.bin/gemini",
		Write: func(p, s string) mockmodel.ToolCall {
			return call("write_file", map[string]any{"file_path": p, "content": s})
		},
		Shell: func(cmd string) mockmodel.ToolCall {
			return call("run_shell_command", map[string]any{"command": cmd, "description": "run a command"})
		},
		Read: func(p string) mockmodel.ToolCall { return call("read_file", map[string]any{"file_path": p}) },
		Edit: func(p, o, n string) mockmodel.ToolCall {
			return call("replace", map[string]any{"file_path": p, "old_string": o, "new_string": n, "instruction": "make the scripted change"})
		},
		// Gemini CLI 0.61 offers an MCP server's tools as mcp_<server>_<tool>.
		MCPTool: func(server, tool string) string { return "mcp_" + server + "_" + tool },
		configure: func(home, ws, url string) error {
			return WriteJSON(filepath.Join(home, ".gemini", "settings.json"),
				map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}})
		},
		argv: func(bin, prompt string) []string {
			return []string{bin, "-p", prompt, "--yolo", "-m", "gemini-2.5-flash"}
		},
		// Headless Gemini CLI refuses an untrusted folder, and runs project
		// hooks only in a trusted one.
		env: func(home, url string) []string {
			return []string{"HOME=" + home, "GEMINI_API_KEY=mock", "GOOGLE_GEMINI_BASE_URL=" + url,
				"GEMINI_CLI_TRUST_WORKSPACE=true", "NO_COLOR=1"}
		},
	}
}

func codex() Client {
	return Client{
		Name: "codex", Package: "@openai/codex@0.169.0", bin: "codex/node_modules/.bin/codex",
		// The Responses API's freeform apply_patch: paths may be absolute.
		Write: func(p, s string) mockmodel.ToolCall {
			return mockmodel.ToolCall{Name: "apply_patch", Input: AddFilePatch(p, s)}
		},
		Shell: func(cmd string) mockmodel.ToolCall { return call("exec_command", map[string]any{"cmd": cmd}) },
		// Codex 0.169 offers an MCP server's tools only through its
		// tool_search tool, as the namespace mcp__<server>; the hook sees
		// mcp__<server>__<tool>.
		MCPTool: func(server, tool string) string { return "mcp__" + server + "__" + tool },
		MCPCalls: func(server, tool string, args map[string]any) []mockmodel.ToolCall {
			return []mockmodel.ToolCall{
				{Search: true, Args: map[string]any{"query": server + " " + tool, "limit": 8}},
				{Name: tool, Namespace: "mcp__" + server, Args: args},
			}
		},
		configure: func(home, ws, url string) error {
			// A custom provider pointing at the mock; the project trusted,
			// or Codex loads no project hooks.
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
			return writeFile(filepath.Join(home, ".codex", "config.toml"), []byte(config))
		},
		// Codex skips a hook nobody trusted, silently; the flag is what its
		// trust note tells CI to pass (a person approves them in /hooks).
		argv: func(bin, prompt string) []string {
			return []string{bin, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
				"--dangerously-bypass-hook-trust", prompt}
		},
		env: func(home, url string) []string {
			return []string{"HOME=" + home, "CODEX_HOME=" + filepath.Join(home, ".codex"), "MOCK_API_KEY=mock", "NO_COLOR=1"}
		},
	}
}

func qwen() Client {
	return Client{
		Name: "qwen", Package: "@qwen-code/qwen-code@0.24.4 (with node@22)", bin: "qwen/node_modules/.bin/qwen",
		Write: func(p, s string) mockmodel.ToolCall {
			return call("write_file", map[string]any{"file_path": p, "content": s})
		},
		Shell: func(cmd string) mockmodel.ToolCall {
			return call("run_shell_command", map[string]any{"command": cmd, "description": "run a command", "is_background": false})
		},
		Read: func(p string) mockmodel.ToolCall { return call("read_file", map[string]any{"file_path": p}) },
		Edit: func(p, o, n string) mockmodel.ToolCall {
			return call("edit", map[string]any{"file_path": p, "old_string": o, "new_string": n})
		},
		MCPTool: func(server, tool string) string { return "mcp__" + server + "__" + tool },
		configure: func(home, ws, url string) error {
			return WriteJSON(filepath.Join(home, ".qwen", "settings.json"),
				map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}}})
		},
		// Qwen Code needs Node 22: the node@22 package's node sits next to it.
		argv: func(bin, prompt string) []string {
			return []string{filepath.Join(filepath.Dir(bin), "node"), bin, "-p", prompt, "--yolo", "--auth-type", "openai"}
		},
		env: func(home, url string) []string {
			return []string{"HOME=" + home, "OPENAI_BASE_URL=" + url + "/v1", "OPENAI_API_KEY=mock", "OPENAI_MODEL=mock", "NO_COLOR=1"}
		},
	}
}

func copilot() Client {
	return Client{
		Name: "copilot", Package: "@github/copilot@1.0.102", bin: "copilot/node_modules/.bin/copilot",
		// A Claude-family model gets create/edit/view (GPT-5 models get apply_patch).
		Write: func(p, s string) mockmodel.ToolCall { return call("create", map[string]any{"path": p, "file_text": s}) },
		Shell: func(cmd string) mockmodel.ToolCall {
			return call("bash", map[string]any{"command": cmd, "description": "run a command"})
		},
		Read: func(p string) mockmodel.ToolCall { return call("view", map[string]any{"path": p}) },
		Edit: func(p, o, n string) mockmodel.ToolCall {
			return call("edit", map[string]any{"path": p, "old_str": o, "new_str": n})
		},
		MCPTool:   func(server, tool string) string { return server + "-" + tool },
		configure: func(home, ws, url string) error { return nil },
		argv: func(bin, prompt string) []string {
			return []string{bin, "-p", prompt, "--allow-all-tools"}
		},
		// Offline BYOK mode needs no GitHub login; COPILOT_ALLOW_ALL trusts
		// the folder, without which repository hooks are silently absent.
		env: func(home, url string) []string {
			return []string{"HOME=" + home, "COPILOT_HOME=" + filepath.Join(home, ".copilot"), "COPILOT_OFFLINE=true",
				"COPILOT_PROVIDER_BASE_URL=" + url + "/v1", "COPILOT_PROVIDER_TYPE=openai", "COPILOT_PROVIDER_API_KEY=mock",
				"COPILOT_MODEL=claude-sonnet-4.5", "COPILOT_ALLOW_ALL=true", "NO_COLOR=1"}
		},
	}
}

func droid() Client {
	return Client{
		Name: "droid", Package: "@factory/cli@0.225.1 + @factory/cli-linux-x64@0.225.2", bin: "droid/node_modules/.bin/droid",
		Write: func(p, s string) mockmodel.ToolCall {
			return call("Create", map[string]any{"file_path": p, "content": s})
		},
		Shell: func(cmd string) mockmodel.ToolCall {
			return call("Execute", map[string]any{"command": cmd, "summary": "run a command",
				"riskLevel": "low", "riskLevelReason": "works in the workspace"})
		},
		Read: func(p string) mockmodel.ToolCall { return call("Read", map[string]any{"file_path": p}) },
		Edit: func(p, o, n string) mockmodel.ToolCall {
			return call("Edit", map[string]any{"file_path": p, "old_str": o, "new_str": n})
		},
		MCPTool: func(server, tool string) string { return server + "___" + tool },
		// A BYOK custom model: no Factory login. The user settings may
		// hold hooks already (the capture command's).
		configure: func(home, ws, url string) error {
			return SetJSON(filepath.Join(home, ".factory", "settings.json"), "customModels",
				[]any{map[string]any{"id": "custom:mock-0", "model": "mock", "displayName": "mock", "baseUrl": url + "/v1",
					"apiKey": "mock", "provider": "generic-chat-completion-api", "maxOutputTokens": 4096}})
		},
		argv: func(bin, prompt string) []string {
			return []string{bin, "exec", "--auto", "high", "-m", "custom:mock-0", prompt}
		},
		env: func(home, url string) []string { return []string{"HOME=" + home, "NO_COLOR=1"} },
	}
}

// auggie runs Auggie's Node bundle against the mock as its Augment tenant:
// a session given on the command line (no login), whose tenant switches
// hooks on (package mockmodel's Augment API).
func auggie() Client {
	return Client{
		Name: "auggie", Package: "@augmentcode/auggie@0.36.0", bin: "auggie/node_modules/@augmentcode/auggie/augment.mjs",
		Write: func(p, s string) mockmodel.ToolCall {
			return call("save-file", map[string]any{"path": p, "file_content": s})
		},
		Shell: func(cmd string) mockmodel.ToolCall {
			return call("launch-process", map[string]any{"command": cmd, "wait": true, "max_wait_seconds": 30, "cwd": "."})
		},
		Read: func(p string) mockmodel.ToolCall { return call("view", map[string]any{"path": p, "type": "file"}) },
		Edit: func(p, o, n string) mockmodel.ToolCall {
			return call("str-replace-editor", map[string]any{"command": "str_replace", "path": p,
				"str_replace_entries": []any{map[string]any{"old_str": o, "new_str": n}}})
		},
		NoStartContext: "Auggie runs SessionStart hooks and forgets their answer",
		MCPTool:        func(server, tool string) string { return tool + "_" + server },
		configure:      func(home, ws, url string) error { return nil },
		// The session rides on an environment variable the argv cannot
		// carry (the URL is known only when the mock starts): see env.
		argv: func(bin, prompt string) []string { return []string{"node", bin, "--print", prompt} },
		env: func(home, url string) []string {
			return []string{"HOME=" + home, "NO_COLOR=1",
				`AUGMENT_SESSION_AUTH={"accessToken":"mock","tenantURL":"` + url + `/augment/","scopes":["read","write"]}`}
		},
	}
}

// opencode is OpenCode with the mock as the model id: OpenCode gives a
// model whose id has "gpt-" (not gpt-4) apply_patch instead of write and
// edit, so the variant opencode-gpt (model gpt-5-mock) writes through
// patches.
func opencode(model string) Client {
	c := Client{
		Name: "opencode", Package: "opencode-ai@1.18.33", bin: "opencode/node_modules/.bin/opencode",
		Write: func(p, s string) mockmodel.ToolCall {
			return call("write", map[string]any{"filePath": p, "content": s})
		},
		Shell: func(cmd string) mockmodel.ToolCall { return call("bash", map[string]any{"command": cmd}) },
		Read:  func(p string) mockmodel.ToolCall { return call("read", map[string]any{"filePath": p}) },
		// OpenCode offers an MCP server's tools as <server>_<tool>.
		MCPTool: func(server, tool string) string { return server + "_" + tool },
		Edit: func(p, o, n string) mockmodel.ToolCall {
			return call("edit", map[string]any{"filePath": p, "oldString": o, "newString": n})
		},
		// A custom OpenAI-compatible provider pointing at the mock; every
		// permission granted, as a CI job would: the plugin stays the
		// authority over what a tool does.
		configure: func(home, ws, url string) error {
			return WriteJSON(filepath.Join(home, ".config", "opencode", "opencode.json"), map[string]any{
				"$schema":    "https://opencode.ai/config.json",
				"model":      "mock/" + model,
				"autoupdate": false,
				"share":      "disabled",
				"permission": map[string]any{"edit": "allow", "bash": "allow", "external_directory": "allow"},
				"provider": map[string]any{"mock": map[string]any{
					"npm": "@ai-sdk/openai-compatible", "name": "mock",
					"options": map[string]any{"baseURL": url + "/v1", "apiKey": "mock"},
					"models":  map[string]any{model: map[string]any{"name": model, "tool_call": true}},
				}},
			})
		},
		argv: func(bin, prompt string) []string {
			return []string{bin, "run", "--format", "json", "-m", "mock/" + model, prompt}
		},
		// Its data, sessions and logs go under HOME; no network but the mock.
		env: func(home, url string) []string {
			return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
				"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
				"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
				"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1",
				"OPENCODE_DISABLE_SHARE=1", "NO_COLOR=1"}
		},
	}
	if strings.Contains(model, "gpt-") {
		c.Name, c.Agent = "opencode-gpt", "opencode"
		c.Write = func(p, s string) mockmodel.ToolCall {
			return call("apply_patch", map[string]any{"patchText": AddFilePatch(p, s)})
		}
		c.Edit = func(p, o, n string) mockmodel.ToolCall {
			return call("apply_patch", map[string]any{"patchText": UpdateFilePatch(p, o, n)})
		}
	}
	return c
}

// kilo is Kilo Code's CLI, made from OpenCode: the same tools and plugin
// events, its own configuration directory and variables.
func kilo() Client {
	c := opencode("mock")
	c.Name, c.Agent, c.Package, c.bin = "kilo", "", "@kilocode/cli@7.7.7", "kilo/node_modules/.bin/kilo"
	c.MCPTool = nil
	c.configure = func(home, ws, url string) error {
		return WriteJSON(filepath.Join(home, ".config", "kilo", "kilo.json"), map[string]any{
			"$schema":    "https://app.kilo.ai/config.json",
			"model":      "mock/mock",
			"autoupdate": false,
			"share":      "disabled",
			"permission": map[string]any{"edit": "allow", "bash": "allow", "external_directory": "allow"},
			"provider": map[string]any{"mock": map[string]any{
				"npm": "@ai-sdk/openai-compatible", "name": "mock",
				"options": map[string]any{"baseURL": url + "/v1", "apiKey": "mock"},
				"models":  map[string]any{"mock": map[string]any{"name": "mock", "tool_call": true}},
			}},
		})
	}
	c.env = func(home, url string) []string {
		return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
			"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
			"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
			"KILO_DISABLE_MODELS_FETCH=1", "KILO_DISABLE_AUTOUPDATE=1", "KILO_DISABLE_LSP_DOWNLOAD=1",
			"KILO_DISABLE_SHARE=1", "KILO_DISABLE_SESSION_INGEST=1", "KILO_DISABLE_CLAUDE_CODE=1", "NO_COLOR=1"}
	}
	return c
}

func cline() Client {
	return Client{
		Name: "cline", Package: "cline@3.0.65", bin: "cline/node_modules/.bin/cline",
		// Cline 3's own tools (the SDK CLI), not the VS Code extension's.
		Write: func(p, s string) mockmodel.ToolCall {
			return call("editor", map[string]any{"path": p, "new_text": s})
		},
		Shell: func(cmd string) mockmodel.ToolCall {
			return call("run_commands", map[string]any{"commands": []any{cmd}})
		},
		Read: func(p string) mockmodel.ToolCall {
			return call("read_files", map[string]any{"files": []any{map[string]any{"path": p}}})
		},
		Edit: func(p, o, n string) mockmodel.ToolCall {
			return call("editor", map[string]any{"path": p, "old_text": o, "new_text": n})
		},
		configure: func(home, ws, url string) error {
			return WriteJSON(filepath.Join(home, ".cline", "data", "settings", "providers.json"), map[string]any{
				"version": 1, "lastUsedProvider": "openai-compatible", "modes": map[string]any{},
				"providers": map[string]any{"openai-compatible": map[string]any{
					"settings":    map[string]any{"provider": "openai-compatible", "apiKey": "mock", "model": "mock", "baseUrl": url + "/v1"},
					"tokenSource": "manual", "updatedAt": "2026-11-22T00:00:00.000Z",
				}},
			})
		},
		argv: func(bin, prompt string) []string {
			return []string{bin, "--json", prompt}
		},
		// Cline drops the workspace's plugins when loading them takes over
		// 4 s (its default), as it can on a busy machine: the rows are
		// about what the plugin does once loaded.
		env: func(home, url string) []string {
			return []string{"HOME=" + home, "NO_COLOR=1", "CLINE_PLUGIN_IMPORT_TIMEOUT_MS=30000"}
		},
		// cline --id resumes a saved session (cline history lists them,
		// each in a directory of its own under data/sessions), in its
		// interactive interface only: 3.0.65 drops the prompt and refuses
		// --json with --id.
		resume: func(bin, id, _ string) []string {
			return []string{bin, "--id", id}
		},
		ready: "Ask anything",
		lastSession: func(home string) (string, error) {
			return newestDir(filepath.Join(home, ".cline", "data", "sessions"))
		},
	}
}

// newestDir is the name of the directory under dir changed last.
func newestDir(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	name, newest := "", int64(0)
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.IsDir() {
			continue
		}
		if t := info.ModTime().UnixNano(); name == "" || t > newest {
			name, newest = e.Name(), t
		}
	}
	if name == "" {
		return "", fmt.Errorf("no session under %s", dir)
	}
	return name, nil
}

// AddFilePatch is a patch envelope creating path with content.
func AddFilePatch(path, content string) string {
	p := "*** Begin Patch\n*** Add File: " + path + "\n"
	for _, line := range strings.Split(strings.TrimSuffix(content, "\n"), "\n") {
		p += "+" + line + "\n"
	}
	return p + "*** End Patch\n"
}

// UpdateFilePatch is a patch envelope replacing the line old by new in path.
func UpdateFilePatch(path, old, new string) string {
	return "*** Begin Patch\n*** Update File: " + path + "\n@@\n-" + old + "\n+" + new + "\n*** End Patch\n"
}

// WriteJSON writes v as indented JSON, making the directories.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append(b, '\n'))
}

// SetJSON sets one top-level key of the JSON object in path (made when
// missing), keeping the others.
func SetJSON(path, key string, value any) error {
	doc := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	doc[key] = value
	return WriteJSON(path, doc)
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
