// Package windsurf speaks Windsurf Cascade's hook protocol as documented
// (PROTOCOLS.md §2.5; not installable here, so documented, not verified
// live): .windsurf/hooks.json with pre_/post_ events named by
// agent_action_name, trajectory_id as the session, the tool's facts under
// tool_info; a pre-hook blocks by exit 2 with the reason on stderr. There is
// no ask and no context channel.
package windsurf

import (
	"fmt"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
)

// Name is the --agent value.
const Name = "windsurf"

// HooksFile is Windsurf's project hooks file.
const HooksFile = ".windsurf/hooks.json"

// Governance are Windsurf's rows of the governance table: the
// descriptor's, reachable without building it.
var Governance = governed.Table{{Path: HooksFile, Use: governed.Wiring, Watch: governed.HookSettings, Hooks: &governed.Hooks{}, Reason: "Windsurf's hooks"}}

// Agent describes Windsurf Cascade.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:       Name,
		Title:      "Windsurf Cascade",
		Verified:   "documented, not verified live",
		Decode:     Decode,
		Encode:     Dialect.Encode,
		Settings:   []string{HooksFile},
		Governance: Governance,
		Sample:     Sample,
		Wire:       Wire,
		Check:      Check,
	}
}

// Dialect: exit 2 with stderr blocks; nothing else is read.
var Dialect = protocol.Dialect{Title: "Windsurf Cascade", NoAsk: true}

// Decode turns one Windsurf event into a Call.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	action := ev.Str("agent_action_name")
	info := ev.Obj("tool_info")
	c := &hook.Call{
		Agent:     Name,
		Event:     event,
		SessionID: ev.Str("trajectory_id"),
		ToolUseID: ev.Str("execution_id"),
		Model:     ev.Str("model_name"),
		Cwd:       protocol.NativePath(info.Str("cwd")),
		ToolName:  action,
	}
	switch action {
	case "pre_write_code", "post_write_code":
		c.Class = hook.ClassWrite
		if p := info.Str("file_path"); p != "" {
			c.Paths = []string{protocol.NativePath(p)}
		} else {
			c.Unparsed = "the event names no file_path"
		}
		for _, e := range info.Objs("edits") {
			if s, ok := e.StrOK("new_string"); ok {
				c.NewStrings = append(c.NewStrings, s)
			}
		}
	case "pre_run_command", "post_run_command":
		c.Class, c.Command = hook.ClassShell, info.Str("command_line")
	case "pre_read_code", "post_read_code":
		c.Class = hook.ClassRead
		if p := info.Str("file_path"); p != "" {
			c.Paths = []string{protocol.NativePath(p)}
		}
	case "pre_user_prompt":
		c.Event, c.Prompt = hook.UserPromptSubmit, info.Str("user_prompt")
	default:
		c.Class = hook.ClassUnclassified
	}
	return c, nil
}

// Hooks is the wiring init writes; show_output lets the user see a deny.
func Hooks() []protocol.FlatHook {
	args := "--agent " + Name
	show := []protocol.Field{{Key: "show_output", Value: true}}
	return []protocol.FlatHook{
		{Event: "pre_write_code", Subcommand: "pre", Args: args, Extra: show},
		{Event: "pre_run_command", Subcommand: "pre", Args: args, Extra: show},
		{Event: "post_write_code", Subcommand: "post", Args: args},
		{Event: "post_run_command", Subcommand: "post", Args: args},
		{Event: "post_read_code", Subcommand: "post", Args: args},
	}
}

// Wire merges the hooks into .windsurf/hooks.json.
func Wire(root string) (protocol.Change, error) {
	ch, err := protocol.WireFlat(root, HooksFile, false, Hooks())
	if err == nil {
		ch.Notes = append(ch.Notes, "Windsurf's protocol is wired from its documentation, not verified against a live client")
	}
	return ch, err
}

// Check checks .windsurf/hooks.json.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	return protocol.CheckFlat(Agent(), root, HooksFile, Hooks(), env)
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the agent sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"agent_action_name":"pre_write_code","trajectory_id":%q,"execution_id":%q,"tool_info":{"file_path":%q,"edits":[{"old_string":"x","new_string":"x"}]}}`, session, id, root+"/"+rel)
}
