package codex

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
)

// mcpTable is intenthook's server as a table of Codex's project
// configuration. Codex offers its tools as mcp__intenthook__<tool>, the name
// PreToolUse sees, so the hook binds select_active_intent.
var mcpTable = "[mcp_servers." + protocol.MCPServerName + "]\n" +
	"command = \"" + protocol.MCPCommand + "\"\n" +
	"args = [\"" + protocol.MCPHookMode + "\"]\n"

// MCP registers intenthook's server in .codex/config.toml, the project layer
// Codex reads in a trusted project.
var MCP = &protocol.MCPWiring{File: ConfigFile, Register: registerMCP, Command: mcpCommand}

// registerMCP appends the server's table to the configuration, keeping
// every byte already there; a server of that name, in any TOML spelling, is
// the person's and is kept.
func registerMCP(root string) (protocol.Change, error) {
	path := filepath.Join(root, filepath.FromSlash(ConfigFile))
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return protocol.Change{}, err
	}
	if hasServer(string(data), protocol.MCPServerName) {
		return protocol.Change{Action: protocol.Kept, Path: ConfigFile, Detail: "server " + protocol.MCPServerName + " already registered"}, nil
	}
	action := protocol.Created
	var out []byte
	if len(data) > 0 {
		action = protocol.Updated
		out = append(out, data...)
		if data[len(data)-1] != '\n' {
			out = append(out, '\n')
		}
		out = append(out, '\n')
	}
	out = append(out, "# Written by intenthook init: intenthook's MCP server (select_active_intent, …).\n"...)
	out = append(out, mcpTable...)
	if err := protocol.WriteFile(path, out); err != nil {
		return protocol.Change{}, err
	}
	return protocol.Change{Action: action, Path: ConfigFile, Detail: "MCP server " + protocol.MCPServerName + " (" + protocol.MCPCommand + ")"}, nil
}

// hasServer reports whether the TOML text defines the MCP server name: a
// [mcp_servers.<name>] table (its sub-tables included), a dotted key under
// it, or a key of an inline mcp_servers table, with or without quotes.
func hasServer(text, name string) bool {
	spellings := []string{"mcp_servers." + name, `mcp_servers."` + name + `"`, "mcp_servers.'" + name + "'"}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		key := strings.TrimSpace(strings.TrimPrefix(line, "["))
		key = strings.ReplaceAll(key, " ", "")
		for _, s := range spellings {
			if rest, ok := strings.CutPrefix(key, s); ok && (rest == "" || strings.ContainsAny(rest[:1], ".]=")) {
				return true
			}
		}
		if k, v, ok := strings.Cut(line, "="); ok && strings.TrimSpace(k) == "mcp_servers" && strings.Contains(v, name) {
			return true
		}
	}
	return false
}

// mcpCommand reads the command of the [mcp_servers.intenthook] table.
func mcpCommand(root string) (string, bool) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ConfigFile)))
	if err != nil || !hasServer(string(data), protocol.MCPServerName) {
		return "", false
	}
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			in = hasServer(line, protocol.MCPServerName) && !strings.Contains(line, protocol.MCPServerName+".")
			continue
		}
		if k, v, ok := strings.Cut(line, "="); in && ok && strings.TrimSpace(k) == "command" {
			return strings.Trim(strings.TrimSpace(v), `"'`), true
		}
	}
	return "", true
}
