package protocol

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/hookconfig"
)

// intenthook's MCP server as init registers it. The agents init registers
// it for run the hooks, so PreToolUse binds select_active_intent to the
// agent's session and the server, in hook mode, only answers.
const (
	MCPServerName = "intenthook"
	MCPCommand    = "intenthook-mcp"
	MCPHookMode   = "-hooks"
)

// MCPWiring is where an agent reads its project's MCP servers from, and how
// init registers intenthook's server there.
type MCPWiring struct {
	File string // relative to the root
	// Register adds intenthook's server to File, keeping every other
	// server and key; an entry of the same name is the person's and is
	// kept.
	Register func(root string) (Change, error)
	// Command reads the command File runs intenthook's server with;
	// registered is false when File registers no server of that name.
	Command func(root string) (command string, registered bool)
}

// MCPServers is the wiring of agents that read a JSON file's "mcpServers"
// object ({"<name>": {"command": …, "args": […]}}): Claude Code's and
// Copilot CLI's .mcp.json, the settings.json of Gemini CLI, Qwen Code and
// Auggie, Droid's .factory/mcp.json, Cursor's .cursor/mcp.json.
func MCPServers(file string) *MCPWiring {
	return &MCPWiring{File: file, Register: func(root string) (Change, error) {
		e := &hookconfig.Object{}
		e.Set("command", MCPCommand)
		e.Set("args", []any{MCPHookMode})
		return RegisterJSON(root, file, "mcpServers", e)
	}, Command: func(root string) (string, bool) {
		return JSONCommand(root, file, "mcpServers")
	}}
}

// JSONCommand reads the program of intenthook's entry in the object key of
// the JSON file rel: its "command", a string or (OpenCode's) an argv list.
func JSONCommand(root, rel, key string) (string, bool) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return "", false
	}
	doc, err := hookconfig.Decode(data)
	if err != nil {
		return "", false
	}
	v, _ := doc.Get(key)
	servers, _ := v.(*hookconfig.Object)
	if servers == nil {
		return "", false
	}
	v, registered := servers.Get(MCPServerName)
	entry, _ := v.(*hookconfig.Object)
	if entry == nil {
		return "", registered
	}
	c, _ := entry.Get("command")
	if argv, ok := c.([]any); ok && len(argv) > 0 {
		c = argv[0]
	}
	command, _ := c.(string)
	return command, true
}

// RegisterJSON sets intenthook's entry in the object key of the JSON file
// rel, creating the file and the object; an existing entry is kept as it
// is, and the file is then left byte for byte.
func RegisterJSON(root, rel, key string, entry *hookconfig.Object) (Change, error) {
	path := filepath.Join(root, filepath.FromSlash(rel))
	data, err := os.ReadFile(path)
	action := Created
	switch {
	case err == nil:
		action = Updated
	case !errors.Is(err, fs.ErrNotExist):
		return Change{}, err
	}
	doc, err := hookconfig.Decode(data)
	if err != nil {
		return Change{}, &Conflict{Path: rel, Reason: "not a JSON object: " + err.Error(), Hint: "fix or remove " + rel + ", then run intenthook init again"}
	}
	v, _ := doc.Get(key)
	servers, ok := v.(*hookconfig.Object)
	switch {
	case v != nil && !ok:
		return Change{}, &Conflict{Path: rel, Reason: key + " is not an object", Hint: "fix " + rel + ", then run intenthook init again"}
	case servers == nil:
		servers = &hookconfig.Object{}
		doc.Set(key, servers)
	}
	if _, have := servers.Get(MCPServerName); have {
		return Change{Action: Kept, Path: rel, Detail: "server " + MCPServerName + " already registered"}, nil
	}
	servers.Set(MCPServerName, entry)
	out, err := hookconfig.Encode(doc)
	if err != nil {
		return Change{}, err
	}
	if err := WriteFile(path, out); err != nil {
		return Change{}, err
	}
	return Change{Action: action, Path: rel, Detail: "MCP server " + MCPServerName + " (" + MCPCommand + ")"}, nil
}
