package cline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// PluginFile is the runtime plugin init writes: Cline 3 loads the modules
// of a workspace's .cline/plugins when a session starts.
const PluginFile = ".cline/plugins/intenthook.js"

// pluginStart is the event the plugin announces itself with, for the
// session Cline loaded it in: from then on the PreToolUse hook file, which
// Cline runs first and which can only cancel the whole run, leaves that
// session's tool calls to the plugin.
const pluginStart = "intenthook_plugin_start"

// plugin hands every tool call to intenthook pre before it runs, in the
// shape of Cline's own tool_call hook event, and skips that one call on a
// deny, its reason becoming the call's result for the model. It fails
// closed: a call intenthook cannot be asked about is skipped.
const plugin = `// Written by intenthook init --agent cline: before each tool call, intenthook
// pre decides; a deny skips that one call and its reason is what the model
// sees (a hook file can only cancel the whole run). Keep it small:
// intenthook decides.
import { spawnSync } from "node:child_process"

let root = process.cwd()
let session = ""

const intenthook = (sub, event) =>
  spawnSync("intenthook", [sub, "--agent", "cline"], { cwd: root, input: JSON.stringify(event), encoding: "utf8" })

export default {
  name: "intenthook",
  manifest: { capabilities: ["hooks"] },
  setup(_api, ctx) {
    if (ctx?.workspaceInfo?.rootPath) root = ctx.workspaceInfo.rootPath
    session = ctx?.session?.sessionId ?? ""
    if (session) {
      intenthook("context", { hookName: "` + pluginStart + `", pid: String(process.pid), sessionContext: { rootSessionId: session }, workspaceRoots: [root] })
    }
  },
  hooks: {
    beforeTool({ snapshot, toolCall, input }) {
      const r = intenthook("pre", {
        hookName: "tool_call",
        plugin: true,
        taskId: snapshot?.conversationId ?? snapshot?.runId ?? snapshot?.agentId ?? "",
        sessionContext: { rootSessionId: session },
        workspaceRoots: [root],
        agent_id: snapshot?.agentId,
        tool_call: { id: toolCall?.toolCallId, name: toolCall?.toolName, input },
      })
      if (r.error) return { skip: true, reason: "intenthook could not run: " + r.error.message }
      let answer = {}
      try { answer = JSON.parse(r.stdout || "{}") } catch {}
      if (answer.cancel || r.status === 2) {
        return { skip: true, reason: answer.errorMessage || (r.stderr || "").trim() || "intenthook: denied" }
      }
      if (answer.contextModification) return { appendContext: answer.contextModification }
      return undefined
    },
  },
}
`

// pluginFor is the plugin for an install: an npm install's runs the
// package's own binary (never npm's .bin link, which any package's install
// can repoint), from the workspace's root (on Windows, where the package's
// bin/ keeps the Node launcher, intenthook on PATH).
func pluginFor(npm bool) string {
	if !npm {
		return plugin
	}
	return npmPlugin(npmProgram)
}

func npmPlugin(program string) string {
	return strings.NewReplacer(
		"import { spawnSync } from \"node:child_process\"\n", "import { spawnSync } from \"node:child_process\"\nimport { join } from \"node:path\"\n",
		"const intenthook = (sub, event) =>\n  spawnSync(\"intenthook\", ", program+"\n\nconst intenthook = (sub, event) =>\n  spawnSync(program(), ",
	).Replace(plugin)
}

const npmProgram = `// The project's intenthook, as npm installed it.
const program = () => (process.platform === "win32" ? "intenthook" : join(root, "node_modules", "intenthook", "bin", "intenthook"))`

// legacyPlugin is the npm install's plugin an older intenthook wrote, which
// ran npm's link: init rewrites it.
func legacyPlugin() string {
	return npmPlugin(`// The project's intenthook, as npm installed it.
const program = () => (process.platform === "win32" ? "intenthook" : join(root, "node_modules", ".bin", "intenthook"))`)
}

// writePlugin writes the plugin; an existing file is kept, and said to
// differ when it is neither install's. An older npm plugin (npm's link) is
// rewritten.
func writePlugin(root string, npm bool) (written bool, differs bool, err error) {
	path := filepath.Join(root, filepath.FromSlash(PluginFile))
	data, err := os.ReadFile(path)
	switch {
	case err == nil && string(data) == legacyPlugin():
		return true, false, protocol.WriteFile(path, []byte(pluginFor(true)))
	case err == nil:
		return false, string(data) != plugin && string(data) != pluginFor(true), nil
	case !errors.Is(err, fs.ErrNotExist):
		return false, false, err
	}
	return true, false, protocol.WriteFile(path, []byte(pluginFor(npm)))
}

// checkPlugin says whether the plugin is in place (without it a deny stops
// the whole task), and the program it runs when it is init's.
func checkPlugin(root string) (protocol.Check, string) {
	const name = "cline plugin"
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(PluginFile)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: "no " + PluginFile + ": a deny stops the whole task", Hint: "run intenthook init --agent cline"}, ""
	case err != nil:
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: err.Error()}, ""
	}
	prog := ""
	switch string(data) {
	case plugin:
		prog = protocol.Program
	case pluginFor(true):
		prog = filepath.Join(root, filepath.FromSlash(hookconfig.NPMBinary))
	case legacyPlugin():
		prog = filepath.Join(root, filepath.FromSlash(hookconfig.NPMLink))
	default:
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: PluginFile + " differs from the one this version writes", Hint: "delete it and run intenthook init --agent cline"}, ""
	}
	return protocol.Check{Status: protocol.Pass, Name: name, Detail: PluginFile + " refuses one tool call on a deny"}, prog
}
