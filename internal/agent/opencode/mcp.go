package opencode

import (
	"os"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// ConfigFile is OpenCode's project configuration, whose "mcp" object holds
// its MCP servers.
const ConfigFile = "opencode.json"

// MCP registers intenthook's server in opencode.json as a local server.
// OpenCode offers its tools as intenthook_<tool>, and the plugin hands
// every tool call to intenthook pre, so the hook binds select_active_intent.
var MCP = &protocol.MCPWiring{File: ConfigFile, Register: registerMCP, Command: mcpCommand}

func registerMCP(root string) (protocol.Change, error) {
	if _, err := os.Stat(filepath.Join(root, "opencode.jsonc")); err == nil {
		return protocol.Change{Action: protocol.Kept, Path: "opencode.jsonc",
			Detail: "not changed: a file with comments is the person's to edit",
			Notes:  []string{`to give OpenCode intenthook's MCP server, add to opencode.jsonc: "mcp": {"intenthook": {"type": "local", "command": ["intenthook-mcp", "-hooks"]}}`}}, nil
	}
	e := &hookconfig.Object{}
	e.Set("type", "local")
	e.Set("command", []any{protocol.MCPCommand, protocol.MCPHookMode})
	return protocol.RegisterJSON(root, ConfigFile, "mcp", e)
}

// mcpCommand reads the program of the server's command list.
func mcpCommand(root string) (string, bool) {
	return protocol.JSONCommand(root, ConfigFile, "mcp")
}
