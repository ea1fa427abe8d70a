package doctor

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// mcpConfigFile is Claude Code's project MCP configuration.
const mcpConfigFile = ".mcp.json"

// checkMCP looks at the MCP servers of .mcp.json, when there is one: every
// server's write tools but intenthook's (mcp__<server>__write_file and the
// like) must reach intenthook pre and post, else they write with no intent
// and no record.
func checkMCP(root string, env Env) []Check {
	data, err := os.ReadFile(filepath.Join(root, mcpConfigFile))
	if err != nil {
		return nil
	}
	cfg, err := hookconfig.Decode(data)
	if err != nil {
		return []Check{{Status: Warn, Name: "mcp servers", Detail: mcpConfigFile + " is not a JSON object: " + oneLine(err.Error()), Hint: "fix " + mcpConfigFile}}
	}
	v, _ := cfg.Get("mcpServers")
	servers, _ := v.(*hookconfig.Object)
	if servers == nil {
		return nil
	}
	settings := claudeSettings(root)
	var checks []Check
	var uncovered []string
	for _, name := range servers.Keys() {
		if name == protocol.MCPServerName {
			continue
		}
		if !covered(settings, name, env.Getenv) {
			uncovered = append(uncovered, name)
		}
	}
	sort.Strings(uncovered)
	if len(uncovered) > 0 {
		checks = append(checks, Check{Status: Warn, Name: "mcp write tools",
			Detail: "the write tools of MCP server(s) " + strings.Join(uncovered, ", ") + " (mcp__<server>__write_file, …) do not reach intenthook pre and post",
			Hint:   `add "mcp__.*" to the PreToolUse and PostToolUse matchers of intenthook pre and post, as hooks.example.json does`})
	} else if len(servers.Keys()) > 0 {
		checks = append(checks, Check{Status: Pass, Name: "mcp write tools", Detail: "every MCP server's write tools reach intenthook pre and post"})
	}
	return checks
}

// checkMCPServers says, for each agent configuration that registers
// intenthook's MCP server, whether its command can start.
func checkMCPServers(root string, env Env) []Check {
	var checks []Check
	seen := map[string]bool{}
	for _, a := range agent.All() {
		if a.MCP == nil || seen[a.MCP.File] {
			continue
		}
		seen[a.MCP.File] = true
		command, registered := a.MCP.Command(root)
		switch {
		case !registered:
			continue
		case command == "":
			checks = append(checks, Check{Status: Warn, Name: "mcp server", Detail: "the " + protocol.MCPServerName + " server of " + a.MCP.File + " names no command", Hint: "set its command to " + protocol.MCPCommand})
			continue
		}
		if env.LookPath != nil {
			if _, err := env.LookPath(command); err != nil {
				checks = append(checks, Check{Status: Warn, Name: "mcp server", Detail: command + " is not an executable on PATH", Hint: "make install puts intenthook-mcp next to intenthook"})
				continue
			}
		}
		checks = append(checks, Check{Status: Pass, Name: "mcp server", Detail: "intenthook's MCP server runs " + command + " (" + a.MCP.File + ")"})
	}
	return checks
}

// claudeSettings reads .claude/settings.json, or nil.
func claudeSettings(root string) *hookconfig.Object {
	data, err := os.ReadFile(filepath.Join(root, ".claude", "settings.json"))
	if err != nil {
		return nil
	}
	o, err := hookconfig.Decode(data)
	if err != nil {
		return nil
	}
	return o
}

// covered reports whether every MCP write tool intenthook classifies, under
// server name, reaches both pre and post.
func covered(settings *hookconfig.Object, server string, getenv func(string) string) bool {
	if settings == nil {
		return false
	}
	for _, w := range []struct{ event, sub string }{{"PreToolUse", "pre"}, {"PostToolUse", "post"}} {
		handlers := hookconfig.Runs(settings, w.event, w.sub, getenv)
		for _, tool := range protocol.MCPWriteToolNames() {
			if !anyMatches(handlers, "mcp__"+server+"__"+tool) {
				return false
			}
		}
	}
	return true
}

func anyMatches(handlers []hookconfig.Handler, name string) bool {
	for _, h := range handlers {
		if hookconfig.Matches(h.Matcher, name) {
			return true
		}
	}
	return false
}
