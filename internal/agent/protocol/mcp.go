package protocol

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/hook"
)

// mcpWriteTool reads the write tools of the common MCP servers, by the
// tool's own name (the part after mcp__<server>__), whatever the server is
// called in the agent's configuration: the reference filesystem server's at
// least. A server's read tools stay unclassified: allowed and not recorded.
func mcpWriteTool(tool string) (Tool, bool) {
	switch tool {
	case "write_file":
		return Tool{Class: hook.ClassWrite, Path: []string{"path"}, WholeFile: true}, true
	case "edit_file", "create_directory":
		return Tool{Class: hook.ClassWrite, Path: []string{"path"}}, true
	case "move_file":
		return Tool{Class: hook.ClassWrite, Each: []string{"source", "destination"}}, true
	}
	return Tool{}, false
}

// MCPTool returns how to read an MCP tool an agent names
// mcp__<server>__<tool>, when it is a known write tool.
func MCPTool(name string) (Tool, bool) {
	tool, ok := MCPToolName(name)
	if !ok {
		return Tool{}, false
	}
	return mcpWriteTool(tool)
}

// MCPToolName splits mcp__<server>__<tool> into its tool name.
func MCPToolName(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", false
	}
	_, tool, ok := strings.Cut(rest, "__")
	return tool, ok && tool != ""
}

// mcpKnownTools are the MCP tools an agent's joined name is split for.
var mcpKnownTools = []string{"select_active_intent", "submit_for_review", "create_directory", "edit_file", "move_file", "write_file"}

// MCPJoined reads an MCP tool an agent names <server><sep><tool> (Copilot
// CLI: intenthook-select_active_intent) as mcp__<server>__<tool>, when the
// tool is one intenthook reads: its own selection tool or a write tool. A
// server's name may hold sep itself, so only a known tool's name splits it;
// any other name is returned as it is.
func MCPJoined(name, sep string) string {
	for _, t := range mcpKnownTools {
		if server, ok := strings.CutSuffix(name, sep+t); ok && server != "" {
			return "mcp__" + server + "__" + t
		}
	}
	return name
}

// MCPJoinedToolFirst is MCPJoined for an agent that names an MCP tool
// <tool><sep><server> (Auggie: select_active_intent_intenthook). Only a
// call the agent marks as an MCP tool's should be read so.
func MCPJoinedToolFirst(name, sep string) string {
	for _, t := range mcpKnownTools {
		if server, ok := strings.CutPrefix(name, t+sep); ok && server != "" {
			return "mcp__" + server + "__" + t
		}
	}
	return name
}

// MCPWriteToolNames lists the MCP write tools intenthook classifies, for
// doctor's coverage check.
func MCPWriteToolNames() []string {
	return []string{"create_directory", "edit_file", "move_file", "write_file"}
}

// ExpandHome reads a path an MCP tool names as the reference filesystem
// server does: ~ alone or a leading ~/ is the user's home directory; any
// other path, ~user/… included, is as written.
func ExpandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	return filepath.Join(home, filepath.FromSlash(p[1:]))
}

// MCPName reads a tool an agent's MCP event names bare (write_file), with
// the server the event names, the way the other agents name MCP tools:
// mcp__<server>__<tool>. An event that names no server still comes from an
// MCP server's tool: "mcp" stands in for its name.
func MCPName(tool, server string) string {
	if tool == "" || strings.HasPrefix(tool, "mcp__") {
		return tool
	}
	if server == "" {
		server = "mcp"
	}
	return "mcp__" + server + "__" + tool
}
