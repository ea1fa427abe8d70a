// Package kilo governs Kilo Code's CLI (@kilocode/cli), which is made from
// OpenCode and loads OpenCode's plugins from its own directories
// (.kilo/{plugin,plugins}/*.{ts,js}; .kilocode/ before it): init writes
// intenthook's OpenCode plugin there, run with --agent kilo, and the events
// it sends are OpenCode's (package opencode decodes them).
package kilo

import (
	"fmt"

	"github.com/intenthook/intenthook/internal/agent/opencode"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
)

// Name is the --agent value.
const Name = "kilo"

// Title names the agent for people.
const Title = "Kilo Code"

// PluginFile is the plugin init writes; LegacyPluginFile is where an
// earlier Kilo Code's project directory kept it.
const (
	PluginFile       = ".kilo/plugin/intenthook.ts"
	LegacyPluginFile = ".kilocode/plugin/intenthook.ts"
)

// Governance are Kilo Code's rows of the governance table: the plugin, and
// every directory Kilo Code loads a project's plugins from (a plugin of the
// agent's own there could answer for intenthook's).
var Governance = governed.Table{
	{Path: PluginFile, Use: governed.Rules, Reason: "Kilo Code's plugin, which asks intenthook"},
	{Path: LegacyPluginFile, Use: governed.Rules, Reason: "Kilo Code's plugin where an earlier version kept it"},
	{Path: ".kilo/plugin", Use: governed.ReadOnly, Reason: "Kilo Code's plugins"},
	{Path: ".kilo/plugins", Use: governed.ReadOnly, Reason: "Kilo Code's plugins"},
	{Path: ".kilocode/plugin", Use: governed.ReadOnly, Reason: "Kilo Code's plugins (earlier versions)"},
	{Path: ".kilocode/plugins", Use: governed.ReadOnly, Reason: "Kilo Code's plugins (earlier versions)"},
}

// Agent describes Kilo Code.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:  Name,
		Title: Title,
		// Kilo Code sets OPENCODE=1 too; KILO_PID is its own (7.7.7).
		ShellMarkers: []string{"KILO_PID"},
		Verified:     "7.7.7, live (make e2e)",
		Decode:       Decode,
		Tools:        opencode.Tools(),
		Encode:       Dialect.Encode,
		Settings:     []string{PluginFile},
		Governance:   Governance,
		Sample:       Sample,
		Wire:         Wire,
		Check:        Check,
	}
}

// Dialect: the plugin throws stderr on exit 2; it cannot ask.
var Dialect = protocol.Dialect{Title: Title, NoAsk: true}

// Decode turns one event from the plugin into a Call.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	return opencode.DecodeAs(Name, ev, event)
}

// Wire writes the plugin under .kilo/plugin/; a plugin an earlier
// intenthook wrote under .kilocode/plugin/ is kept where it is.
func Wire(root string) (protocol.Change, error) {
	if configured, _ := opencode.CheckPlugin(root, Name, Title, LegacyPluginFile, protocol.CheckEnv{LookPath: noLookPath}); configured {
		return protocol.Change{Action: protocol.Kept, Path: LegacyPluginFile, Detail: "the plugin is in place (Kilo Code's earlier directory)"}, nil
	}
	return opencode.WirePlugin(root, Name, PluginFile, protocol.NPMInstalled(root))
}

func noLookPath(string) (string, error) { return "", fmt.Errorf("not looked up") }

// Check checks that the plugin is there and calls intenthook.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	if ok, checks := opencode.CheckPlugin(root, Name, Title, PluginFile, env); ok {
		return ok, checks
	}
	return opencode.CheckPlugin(root, Name, Title, LegacyPluginFile, env)
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the plugin sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"cwd":%q,"hook_event_name":"PreToolUse","session_id":%q,"tool_use_id":%q,"tool_name":"edit","tool_input":{"filePath":%q,"oldString":"x","newString":"x"}}`, root, session, id, root+"/"+rel)
}
