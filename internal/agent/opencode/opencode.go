// Package opencode governs OpenCode, whose hooks are in-process plugins
// (PROTOCOLS.md §2.6): init writes a small plugin that spawns intenthook for
// each tool call with a Claude-shaped event carrying OpenCode's own tool
// names and camelCase arguments, and throws the deny message, which OpenCode
// hands to the model. The plugin is the protocol; this package decodes what
// it sends.
package opencode

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// Name is the --agent value.
const Name = "opencode"

// PluginFile is the plugin init writes.
const PluginFile = ".opencode/plugin/intenthook.ts"

// Governance are OpenCode's rows of the governance table: the
// descriptor's, reachable without building it.
var Governance = governed.Table{
	{Path: PluginFile, Use: governed.Rules, Reason: "OpenCode's plugin, which asks intenthook"},
	{Path: ConfigFile, Use: governed.Rules, Reason: "OpenCode's configuration: MCP servers"},
	{Path: ".opencode/plugin", Use: governed.ReadOnly, Reason: "OpenCode's plugins"},
}

// Agent describes OpenCode.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:  Name,
		Title: "OpenCode",
		// OpenCode sets both in its own environment, which its shell tool
		// inherits.
		ShellMarkers: []string{"OPENCODE", "OPENCODE_PID"},
		Verified:     "1.18.33, live (make e2e)",
		Decode:       Decode,
		Tools:        Tools(),
		Encode:       Dialect.Encode,
		Settings:     []string{PluginFile},
		Governance:   Governance,
		Sample:       Sample,
		Wire:         Wire,
		Check:        Check,
		MCP:          MCP,
	}
}

// Dialect: the plugin throws stderr on exit 2; it cannot ask.
var Dialect = protocol.Dialect{Title: "OpenCode", NoAsk: true}

// Tools is OpenCode's tool table. OpenCode 1.18 offers a GPT model
// (an id with "gpt-", not gpt-4 or oss) apply_patch instead of write and
// edit; multiedit and patch are earlier versions' tools.
func Tools() protocol.Tools { return tools }

var tools = protocol.Tools{
	{Name: "write", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"filePath"}, WholeFile: true}},
	{Name: "edit", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"filePath"}, NewStrings: []string{"newString"}}},
	{Name: "apply_patch", Tool: protocol.Tool{Class: hook.ClassWrite, Patch: "patchText"}},
	{Name: "multiedit", Tool: protocol.Tool{Class: hook.ClassWrite, Path: []string{"filePath"}}},
	{Name: "patch", Tool: protocol.Tool{Class: hook.ClassWrite, Patch: "patchText"}},
	{Name: "bash", Tool: protocol.Tool{Class: hook.ClassShell, Dir: "workdir"}},
	{Name: "read", Tool: protocol.Tool{Class: hook.ClassRead, Path: []string{"filePath"}}},
	{Name: "list", Tool: exempt}, {Name: "glob", Tool: exempt}, {Name: "grep", Tool: exempt}, {Name: "webfetch", Tool: exempt}, {Name: "todowrite", Tool: exempt}, {Name: "todoread", Tool: exempt}, {Name: "task", Tool: exempt}, {Name: "skill", Tool: exempt},
}

var exempt = protocol.Tool{Class: hook.ClassExempt}

// Decode turns one event from the plugin into a Call.
func Decode(ev protocol.Object, event string) (*hook.Call, error) { return DecodeAs(Name, ev, event) }

// DecodeAs turns one event from the plugin, run by the agent name (OpenCode
// or an agent made from it, as Kilo Code is), into a Call.
func DecodeAs(name string, ev protocol.Object, event string) (*hook.Call, error) {
	c := protocol.DecodeClaudeShaped(name, ev, event)
	// An MCP server's tool is <server>_<tool>.
	c.ToolName = protocol.MCPJoined(c.ToolName, "_")
	Tools().Fill(c, ev["tool_input"])
	for _, e := range protocol.AsObject(ev["tool_input"]).Objs("edits") {
		if s, ok := e.StrOK("newString"); ok {
			c.NewStrings = append(c.NewStrings, s)
		}
	}
	c.Failed = c.Error != ""
	return c, nil
}

// plugin is the shim: it only carries events to intenthook and its answers
// back. OpenCode 1.18 has no session-start event a plugin can answer with
// context; the system prompt transform, run before each model request, is
// where a session's SessionStart context goes (asked for once per session).
const plugin = `// Written by intenthook init --agent opencode: every tool call goes through
// intenthook (pre before it, post after it); a deny is thrown, and OpenCode
// shows its message to the model; each session's system prompt carries
// intenthook's session context. Keep it small: intenthook decides.
export const IntentHook = async ({ directory }) => {
  const run = async (sub, event) => {
    const proc = Bun.spawn(["intenthook", sub, "--agent", "opencode"], {
      cwd: directory,
      stdin: new Blob([JSON.stringify({ cwd: directory, ...event })]),
      stdout: "pipe",
      stderr: "pipe",
    })
    const code = await proc.exited
    return { code, stdout: await new Response(proc.stdout).text(), stderr: await new Response(proc.stderr).text() }
  }
  const contexts = new Map()
  return {
    "experimental.chat.system.transform": async (input, output) => {
      const id = input.sessionID
      if (!id) return
      if (!contexts.has(id)) {
        const r = await run("context", { hook_event_name: "SessionStart", session_id: id, source: "startup" })
        let text = ""
        try { text = JSON.parse(r.stdout).hookSpecificOutput?.additionalContext ?? "" } catch {}
        contexts.set(id, text)
      }
      if (contexts.get(id)) output.system.push(contexts.get(id))
    },
    "tool.execute.before": async (input, output) => {
      const r = await run("pre", {
        hook_event_name: "PreToolUse", session_id: input.sessionID, tool_use_id: input.callID,
        tool_name: input.tool, tool_input: output.args,
      })
      if (r.code === 2) throw new Error(r.stderr.trim())
    },
    "tool.execute.after": async (input, output) => {
      await run("post", {
        hook_event_name: "PostToolUse", session_id: input.sessionID, tool_use_id: input.callID,
        tool_name: input.tool, tool_input: input.args ?? {}, tool_response: { output: output?.output ?? "" },
      })
    },
  }
}
`

// pluginFor is the plugin for an install: an npm install's runs the
// package's own binary (never npm's .bin link, which any package's install
// can repoint), two directories up from the plugin's own file (OpenCode
// imports it from there; Bun's import.meta.dir names its directory). On
// Windows, where the package's bin/ keeps the Node launcher, it runs
// intenthook on PATH.
func pluginFor(npm bool) string { return PluginText(Name, npm) }

// PluginText is the plugin init writes for the agent name: OpenCode's, or
// the same plugin run with --agent name by an agent made from OpenCode
// (Kilo Code loads OpenCode's plugins from its own directories).
func PluginText(name string, npm bool) string {
	text := plugin
	if npm {
		text = npmPlugin(npmProgram)
	}
	if name == Name {
		return text
	}
	return strings.NewReplacer(
		"init --agent opencode:", "init --agent "+name+":",
		`"--agent", "opencode"`, `"--agent", "`+name+`"`,
	).Replace(text)
}

func npmPlugin(program string) string {
	return strings.NewReplacer(
		"export const IntentHook", program+"\n\nexport const IntentHook",
		`Bun.spawn(["intenthook", sub,`, `Bun.spawn([program, sub,`,
	).Replace(plugin)
}

const npmProgram = `// The project's intenthook, as npm installed it.
const program = process.platform === "win32" ? "intenthook" : import.meta.dir + "/../../node_modules/intenthook/bin/intenthook"`

// legacyPlugin is the npm install's plugin an older intenthook wrote, which
// ran npm's link: init rewrites it.
func legacyPlugin() string {
	return npmPlugin(`// The project's intenthook, as npm installed it.
const program = process.platform === "win32" ? "intenthook" : import.meta.dir + "/../../node_modules/.bin/intenthook"`)
}

// Wire writes the plugin; an existing file is kept.
func Wire(root string) (protocol.Change, error) { return wire(root, protocol.NPMInstalled(root)) }

func wire(root string, npm bool) (protocol.Change, error) {
	return WirePlugin(root, Name, PluginFile, npm)
}

// WirePlugin writes the plugin for the agent name at rel (root-relative);
// an existing file is kept, but for an older npm wiring of OpenCode's.
func WirePlugin(root, name, rel string, npm bool) (protocol.Change, error) {
	path := filepath.Join(root, filepath.FromSlash(rel))
	if data, err := os.ReadFile(path); err == nil {
		if name == Name && string(data) == legacyPlugin() {
			if err := protocol.WriteFile(path, []byte(pluginFor(true))); err != nil {
				return protocol.Change{}, err
			}
			return protocol.Change{Action: protocol.Updated, Path: rel, Detail: "rewrote it from npm's link " + hookconfig.NPMLink + " to the package's binary " + hookconfig.NPMBinary}, nil
		}
		if string(data) == PluginText(name, false) || string(data) == PluginText(name, true) {
			return protocol.Change{Action: protocol.Kept, Path: rel, Detail: "the plugin is in place"}, nil
		}
		return protocol.Change{Action: protocol.Kept, Path: rel, Detail: "exists and differs from the one this version writes; delete it to get the current one"}, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return protocol.Change{}, err
	}
	if err := protocol.WriteFile(path, []byte(PluginText(name, npm))); err != nil {
		return protocol.Change{}, err
	}
	return protocol.Change{Action: protocol.Created, Path: rel, Detail: "tool.execute.before runs intenthook pre, tool.execute.after intenthook post"}, nil
}

// Check checks that the plugin is there and calls intenthook.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	return CheckPlugin(root, Name, "OpenCode", PluginFile, env)
}

// CheckPlugin checks that the plugin at rel is there and runs intenthook
// for the agent name (title, for people); configured is false when there
// is no plugin file.
func CheckPlugin(root, name, title, rel string, env protocol.CheckEnv) (bool, []protocol.Check) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	check := name + " plugin"
	legacy := name == Name && string(data) == legacyPlugin()
	switch {
	case err != nil:
		return true, []protocol.Check{{Status: protocol.Fail, Name: check, Detail: err.Error()}}
	case string(data) != PluginText(name, true) && !legacy && !strings.Contains(string(data), `"intenthook", sub`) && !strings.Contains(string(data), "intenthook pre"):
		return true, []protocol.Check{{Status: protocol.Fail, Name: check, Detail: rel + " does not run intenthook", Hint: "delete it and run intenthook init --agent " + name}}
	}
	prog := protocol.Program
	switch {
	case string(data) == PluginText(name, true):
		prog = filepath.Join(root, filepath.FromSlash(hookconfig.NPMBinary))
	case legacy:
		prog = filepath.Join(root, filepath.FromSlash(hookconfig.NPMLink))
	}
	runs := []hookconfig.Handler{{Invocation: hookconfig.Invocation{Program: prog, Args: []string{"pre"}}, Parsed: true}}
	return true, []protocol.Check{
		{Status: protocol.Pass, Name: check, Detail: rel},
		protocol.CheckCommands(name+" hook command", title, root, runs, env.LookPath),
	}
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the agent sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"cwd":%q,"hook_event_name":"PreToolUse","session_id":%q,"tool_use_id":%q,"tool_name":"edit","tool_input":{"filePath":%q,"oldString":"x","newString":"x"}}`, root, session, id, root+"/"+rel)
}
