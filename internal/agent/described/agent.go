package described

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/claude"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
)

// Agent is the description as intenthook's agent descriptor.
func (d *Description) Agent() protocol.Agent {
	a := protocol.Agent{
		Name:           d.Name,
		Title:          d.Title,
		Verified:       d.Verified,
		Decode:         d.Decode,
		Tools:          d.table(),
		Encode:         d.Encode,
		ProjectDirVars: d.ProjectDirEnv,
		ShellMarkers:   d.ShellMarkers,
		Governance:     d.Governance(),
		Sample:         d.Sample,
		Wire:           d.Wire,
		Check:          d.Check,
		NoPostTool:     d.Events[RolePost] == "",
		GradeNote:      d.GradeNote,
	}
	if d.Settings.Project != "" {
		a.Settings = []string{d.Settings.Project}
	}
	if d.PerUser() {
		a.User, a.WireUser = d.Settings.User, d.WireUser
	}
	return a
}

func (d *Description) table() protocol.Tools {
	out := make(protocol.Tools, len(d.Tools))
	for i, t := range d.Tools {
		out[i] = protocol.NamedTool{Name: t.Name, Tool: t.Tool}
	}
	return out
}

// Governance are the agent's rows of the governance table: its project
// settings file, judged by effect where the guard can read its hooks.
func (d *Description) Governance() governed.Table {
	if d.Settings.Project == "" {
		return nil
	}
	row := governed.File{Path: d.Settings.Project, Use: governed.Wiring, Reason: d.Title + "'s hooks"}
	switch d.Settings.Shape {
	case ShapeClaude, ShapeFlat:
		row.Watch = governed.HookSettings
		row.Hooks = &governed.Hooks{Keys: d.Settings.Keys, Matchers: []string{d.matcher(RolePre), d.matcher(RolePost)}}
	default:
		row.Watch = governed.Whole
	}
	t := governed.Table{row}
	for _, p := range d.Settings.Switches {
		t = append(t, governed.File{Path: p, Use: governed.Rules, Watch: governed.Whole, Reason: d.Title + "'s switches: a file that can turn its hooks off"})
	}
	return t
}

// get reads the first of keys that holds a non-empty string; a key with
// dots walks into nested objects.
func get(ev protocol.Object, keys []string) string {
	for _, k := range keys {
		if s := getOne(ev, k); s != "" {
			return s
		}
	}
	return ""
}

func getOne(ev protocol.Object, key string) string {
	for {
		head, rest, nested := strings.Cut(key, ".")
		if !nested {
			return ev.Str(head)
		}
		if ev = ev.Obj(head); ev == nil {
			return ""
		}
		key = rest
	}
}

func getRaw(ev protocol.Object, keys []string) (json.RawMessage, bool) {
	for _, k := range keys {
		o := ev
		for {
			head, rest, nested := strings.Cut(k, ".")
			if !nested {
				if raw, ok := o[head]; ok {
					return raw, true
				}
				break
			}
			if o = o.Obj(head); o == nil {
				break
			}
			k = rest
		}
	}
	return nil, false
}

// eventOf maps the agent's event name to intenthook's; an event the
// description does not name keeps its name (the gate ignores it), and a
// payload that names none is the hook command's.
func (d *Description) eventOf(name, fallback string) string {
	if name == "" {
		return fallback
	}
	for _, r := range roleEvent {
		if d.Events[r.role] == name {
			return r.event
		}
	}
	return name
}

// Decode turns one event into a Call. A write or delete tool whose input
// lacks its path, or a shell tool whose input lacks its command, is
// Unparsed: the gate denies it target_unknown whatever the fail mode (an
// update of the agent that renames a field must not end governance
// quietly).
func (d *Description) Decode(ev protocol.Object, event string) (*hook.Call, error) {
	in := d.Input
	c := &hook.Call{
		Agent:          d.Name,
		Event:          d.eventOf(get(ev, in["event"]), event),
		SessionID:      get(ev, in["session"]),
		AgentID:        get(ev, in["agent_id"]),
		AgentType:      get(ev, in["agent_type"]),
		TranscriptPath: get(ev, in["transcript"]),
		Cwd:            protocol.NativePath(get(ev, in["cwd"])),
		ProjectDir:     protocol.NativePath(get(ev, in["project"])),
		Model:          get(ev, in["model"]),
		Source:         get(ev, in["source"]),
		Prompt:         get(ev, in["prompt"]),
		ToolName:       get(ev, in["tool"]),
		ToolUseID:      get(ev, in["call_id"]),
		Error:          get(ev, in["error"]),
	}
	c.ProjectFromEvent = len(in["project"]) > 0
	if c.SessionID == "" && d.Process != "" {
		c.SessionID = Session(d.Process)
	}
	if c.ToolName == "" {
		return c, nil
	}
	args, _ := getRaw(ev, in["args"])
	d.table().Fill(c, args)
	if t, ok := d.tool(c.ToolName); ok && len(t.ReadIf) > 0 && (c.Class == hook.ClassWrite || c.Class == hook.ClassDelete) {
		in := protocol.AsObject(args)
		for k, values := range t.ReadIf {
			if v, _ := in.StrOK(k); slices.Contains(values, v) {
				c.Class, c.Unparsed, c.WholeFile, c.NewStrings = hook.ClassRead, "", false, nil
				if len(c.Paths) > 1 {
					c.Paths = c.Paths[:1]
				}
			}
		}
	}
	if c.Class == hook.ClassShell {
		if key := shellKey(d.table(), c.ToolName); key != "" {
			if _, ok := protocol.AsObject(args).StrOK(key); !ok {
				// A command intenthook cannot read may write anything: the
				// gate judges it as a write whose target is unknown.
				c.Class = hook.ClassWrite
				c.Unparsed = "the tool's input has no " + key + " field (an update of " + d.Title + " may have renamed it)"
			}
		}
	}
	if raw, ok := getRaw(ev, in["response"]); ok {
		claude.DecodeResponse(c, protocol.AsObject(raw))
	}
	if c.Event == hook.PostToolUseFailure {
		c.Failed = true
	}
	return c, nil
}

func (d *Description) tool(name string) (NamedTool, bool) {
	for _, t := range d.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return NamedTool{}, false
}

// shellKey is the command key of the table's shell tool name ("" for a
// tool the table does not know).
func shellKey(ts protocol.Tools, name string) string {
	t, ok := ts.Lookup(name)
	if !ok || t.Class != hook.ClassShell {
		return ""
	}
	return t.Command
}

// Encode renders d as the answer to c in the description's style.
func (d *Description) Encode(c *hook.Call, dec hook.Decision, budget int) hook.Answer {
	dl := protocol.Dialect{Title: d.Title, NoAsk: d.NoAsk || d.Answer == AnswerExitCode, Events: d.answerEvents()}
	switch d.Answer {
	case AnswerDecisionJSON:
		if dl.NoAsk && dec.Verdict == hook.Ask {
			dec = protocol.AskAsDeny(dec, d.Title)
		}
		if c.Event == hook.PreToolUse && (dec.Verdict == hook.Deny || dec.Verdict == hook.Ask) {
			verdict := "deny"
			if dec.Verdict == hook.Ask {
				verdict = "ask"
			}
			return hook.Answer{Stdout: protocol.JSON(decisionJSON{Decision: verdict, Reason: hook.Clip(dec.Message, budget)}), Stderr: joinNotes(dec.Notes)}
		}
	case AnswerExitCode:
		if dec.Verdict == hook.Ask {
			dec = protocol.AskAsDeny(dec, d.Title)
		}
		if dec.Verdict != hook.Deny && !dec.Violation {
			// The agent reads no JSON: a context event's context is its
			// plain stdout, and a warning goes to the person on stderr.
			a := hook.Answer{Stderr: joinNotes(dec.Notes)}
			if dec.Warning != "" {
				a.Stderr += hook.Clip(dec.Warning, budget) + "\n"
			}
			if dec.Context != "" && c.Event != hook.PreToolUse && c.Event != hook.PostToolUse {
				a.Stdout = hook.Clip(dec.Context, budget) + "\n"
			}
			return a
		}
	}
	return dl.Encode(c, dec, budget)
}

type decisionJSON struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
}

func joinNotes(ns []string) string {
	if len(ns) == 0 {
		return ""
	}
	return strings.Join(ns, "\n") + "\n"
}

// answerEvents maps intenthook's event names to the agent's, for the
// hookEventName its answers carry.
func (d *Description) answerEvents() map[string]string {
	m := map[string]string{}
	for _, r := range roleEvent {
		if n := d.Events[r.role]; n != "" && n != r.event {
			m[r.event] = n
		}
	}
	return m
}

// Sample is a pre event for an edit of rel (root-relative) in session, in
// the agent's shape, with its first write tool that names a path: for
// tests and make bench.
func (d *Description) Sample(root, rel, session, id string) []byte {
	tool, key := "", ""
	for _, t := range d.Tools {
		if t.Tool.Class == hook.ClassWrite && len(t.Tool.Path) > 0 {
			tool, key = t.Name, t.Tool.Path[0]
			break
		}
	}
	ev := map[string]any{}
	set := func(field string, v any) {
		if keys := d.Input[field]; len(keys) > 0 {
			setPath(ev, keys[0], v)
		}
	}
	set("event", d.Events[RolePre])
	set("session", session)
	set("cwd", root)
	set("tool", tool)
	set("args", map[string]any{key: root + "/" + rel, "content": "x\n"})
	set("call_id", id)
	out, _ := json.Marshal(ev)
	return out
}

func setPath(ev map[string]any, key string, v any) {
	for {
		head, rest, nested := strings.Cut(key, ".")
		if !nested {
			ev[head] = v
			return
		}
		next, ok := ev[head].(map[string]any)
		if !ok {
			next = map[string]any{}
			ev[head] = next
		}
		ev, key = next, rest
	}
}

// matcher is the matcher init writes for a tool event: the names of the
// tools whose calls the role must see (pre: what writes, deletes or runs
// a command, and intenthook's selection tool; post: those and the reads).
func (d *Description) matcher(role string) string {
	switch d.Settings.Matcher {
	case "all":
		return "*"
	case "none":
		return ""
	}
	names := d.governedTools(role)
	if role == RolePre {
		names = append(names, "select_active_intent", "mcp__.*__select_active_intent")
	}
	return strings.Join(names, "|")
}

// governedTools are the tools a pre hook must see.
func (d *Description) governedTools(role string) []string {
	var names []string
	for _, t := range d.Tools {
		switch t.Tool.Class {
		case hook.ClassWrite, hook.ClassDelete, hook.ClassShell:
			names = append(names, t.Name)
		case hook.ClassRead:
			if role != RolePre {
				names = append(names, t.Name)
			}
		}
	}
	return names
}

func (d *Description) String() string { return fmt.Sprintf("%s (%s)", d.Title, d.Name) }

type jsonNumber = json.Number
