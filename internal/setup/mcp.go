package setup

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/hookconfig"
	"github.com/intenthook/intenthook/internal/state"
)

// MCPServerName is the name intenthook's server is registered under: its
// tools reach the hooks as mcp__intenthook__<tool>.
const MCPServerName = "intenthook"

// mcpServerEntry runs intenthook-mcp in hook mode: Claude Code runs the
// hooks, so PreToolUse binds select_active_intent to the agent's session and
// the server only answers.
func mcpServerEntry() *hookconfig.Object {
	e := &hookconfig.Object{}
	e.Set("command", "intenthook-mcp")
	e.Set("args", []any{"-hooks"})
	return e
}

// registerMCP adds intenthook's server to the mcpServers object of file
// (the agent's MCP configuration, root-relative), keeping every other server
// and key; an entry of the same name is the person's and is kept.
func registerMCP(root, file string) (Change, error) {
	path := filepath.Join(root, filepath.FromSlash(file))
	cfg := &hookconfig.Object{}
	action := Created
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if cfg, err = hookconfig.Decode(data); err != nil {
			return Change{}, &ConflictError{Path: file, Reason: "not a JSON object: " + err.Error(), Hint: "fix or remove " + file + ", then run intenthook init again"}
		}
		action = Updated
	case !errors.Is(err, fs.ErrNotExist):
		return Change{}, err
	}
	servers, _ := cfg.Get("mcpServers")
	obj, ok := servers.(*hookconfig.Object)
	if servers != nil && !ok {
		return Change{}, &ConflictError{Path: file, Reason: "mcpServers is not an object", Hint: "fix " + file + ", then run intenthook init again"}
	}
	if obj == nil {
		obj = &hookconfig.Object{}
	}
	if _, have := obj.Get(MCPServerName); have {
		return Change{Action: Kept, Path: file, Note: "server " + MCPServerName + " already registered"}, nil
	}
	obj.Set(MCPServerName, mcpServerEntry())
	cfg.Set("mcpServers", obj)
	out, err := hookconfig.Encode(cfg)
	if err != nil {
		return Change{}, err
	}
	if err := state.WriteFile(path, out, modeOf(path, 0o644), true); err != nil {
		return Change{}, err
	}
	return Change{Action: action, Path: file, Note: "MCP server " + MCPServerName + " (intenthook-mcp)"}, nil
}
