// Package described builds an agent from a description: one JSON file that
// says where a Claude-shaped agent's hook settings live, what its events and
// stdin fields are called, which of its tools write, run commands or read
// and where their inputs name the file or the command, and how it reads an
// answer (docs/agents.md, "An agent as a data file"; the format's schema is
// docs/agent.schema.json). The agents intenthook ships this way are files
// embedded in the binary (builtin/); a workspace adds its own under
// .orchestration/agents/NAME.json, parsed by its hook on every call
// (Load). Either way the description becomes the same protocol.Agent the
// agents written in Go are.
//
// A description is decoded field by field with protocol.Object, never into
// a struct by reflection: the hook that reads one runs on every tool call.
package described

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hook"
)

// Description is one agent as its file describes it.
type Description struct {
	Name, Title string
	// Verified says how the protocol was checked ("documented, not
	// verified live" when the file does not say).
	Verified string
	Settings Settings
	// Events maps intenthook's roles (pre, post, post_failure, start,
	// prompt, stop, end) to the agent's event names.
	Events map[string]string
	// Input maps the fields intenthook reads (event, session, cwd, project,
	// tool, args, response, call_id, prompt, transcript, model, source) to the
	// agent's stdin keys, each a list tried in order; a key may be a dotted
	// path into nested objects (toolCall.name).
	Input map[string][]string
	Tools []NamedTool
	// Answer is how the agent reads a decision: claude, decision_json or
	// exit_code.
	Answer string
	// NoAsk: the agent cannot ask its user from a hook: an ask becomes an
	// instructive deny.
	NoAsk         bool
	ProjectDirEnv []string
	ShellMarkers  []string
	// Sandbox says what OS sandbox the agent has for its shell tool, for
	// people ("" when none).
	Sandbox string
	// Process is the name of the agent's process, for an agent whose events
	// carry no session id: the session is that process (Session).
	Process string
	// Notes are what init tells a person who wires the agent.
	Notes []string
	// GradeNote says what the agent's grade leaves open, for doctor.
	GradeNote string
}

// Settings says where and how the agent's hooks are configured.
type Settings struct {
	// Project is the root-relative file init writes ("" for an agent
	// configured per user only); User is "~/…", the file init --user
	// writes when there is no Project.
	Project, User string
	// Shape is the file's layout: claude ({"hooks": {Event: [{matcher,
	// hooks: [{type, command}]}]}}), events (the same without the "hooks"
	// wrapper), flat ({"hooks": {event: [{command, matcher}]}}) or
	// user_toml (a [[hooks]] table per hook in the user's TOML file, which
	// init only shows).
	Shape string
	// Matcher is how init selects tools: list (names joined by |), all
	// ("*") or none (no matcher: every tool).
	Matcher string
	// Timeout is the hook's timeout in the agent's unit, written under
	// TimeoutKey ("timeout" by default); 0 writes none.
	Timeout    int
	TimeoutKey string
	// Handler are more fields of each hook entry init writes, in order.
	Handler []protocol.Field
	// New is the document a new settings file starts from (a Kiro agent's
	// name and tools), as JSON.
	New json.RawMessage
	// Keys are top-level keys besides the hooks that decide whether they
	// fire: the guard compares and puts them back whole.
	Keys []string
	// Switches are more root-relative files that can turn the agent's
	// hooks off (a plugin list): rules files, watched whole.
	Switches []string
	// Root: init passes the project directory's variable as --root, so
	// that the hook finds the workspace (and the description) wherever the
	// agent runs it from.
	Root bool
}

// NamedTool is one entry of the tool table.
type NamedTool struct {
	Name string
	Tool protocol.Tool
	// ReadIf makes a call of the tool a read when its input's key holds
	// one of the values (a file editor's view command).
	ReadIf map[string][]string
}

// The roles of Events.
const (
	RolePre         = "pre"
	RolePost        = "post"
	RolePostFailure = "post_failure"
	RoleStart       = "start"
	RolePrompt      = "prompt"
	RoleStop        = "stop"
	RoleEnd         = "end"
)

// roleEvent is the hook event each role stands for, and its subcommand.
var roleEvent = []struct{ role, event, sub string }{
	{RolePre, hook.PreToolUse, "pre"},
	{RolePost, hook.PostToolUse, "post"},
	{RolePostFailure, hook.PostToolUseFailure, "post"},
	{RoleStart, hook.SessionStart, "context"},
	{RolePrompt, hook.UserPromptSubmit, "context"},
	{RoleStop, hook.Stop, "context"},
	{RoleEnd, hook.SessionEnd, "context"},
}

// Answer styles.
const (
	AnswerClaude       = "claude"
	AnswerDecisionJSON = "decision_json"
	AnswerExitCode     = "exit_code"
)

// Shapes of the settings file.
const (
	ShapeClaude   = "claude"
	ShapeEvents   = "events"
	ShapeFlat     = "flat"
	ShapeUserTOML = "user_toml"
)

var (
	topKeys      = []string{"$schema", "name", "title", "verified", "settings", "events", "input", "tools", "answer", "no_ask", "project_dir_env", "shell_markers", "sandbox", "process", "notes", "grade_note"}
	settingsKeys = []string{"project", "user", "shape", "matcher", "timeout", "timeout_key", "handler", "new", "keys", "switches", "root"}
	inputKeys    = []string{"event", "session", "cwd", "project", "tool", "args", "response", "call_id", "prompt", "transcript", "model", "source", "agent_id", "agent_type", "error"}
	toolKeys     = []string{"class", "path", "paths", "each", "patch", "patch_input", "command", "dir", "unsandbox", "new_strings", "whole_file", "read_if"}
	classes      = []string{string(hook.ClassWrite), string(hook.ClassDelete), string(hook.ClassShell), string(hook.ClassRead), string(hook.ClassExempt)}
)

// defaultInput is what a Claude-shaped agent sends, for the fields a
// description leaves out (a function: a map literal would be built at every
// hook's start).
func defaultInput() map[string][]string {
	return map[string][]string{
		"event": {"hook_event_name"}, "session": {"session_id"}, "cwd": {"cwd"}, "tool": {"tool_name"}, "args": {"tool_input"},
		"response": {"tool_response"}, "call_id": {"tool_use_id"}, "prompt": {"prompt"}, "transcript": {"transcript_path"},
		"model": {"model"}, "source": {"source"}, "agent_id": {"agent_id"}, "agent_type": {"agent_type"}, "error": {"error"},
	}
}

// validName reports whether name is a description's name:
// ^[a-z][a-z0-9_-]{0,39}$ (no regexp: compiling one at start costs every
// hook call).
func validName(name string) bool {
	if name == "" || len(name) > 40 || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Parse reads a description and checks it: unknown keys, a missing name or
// pre event, a tool of a class intenthook does not know, a write tool that
// names no path key are errors, so that a typo cannot quietly leave a tool
// ungoverned.
func Parse(data []byte) (*Description, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' && !json.Valid(t) {
		// object splits members by hand, trusting the document is JSON.
		var o protocol.Object
		return nil, fmt.Errorf("the description: %v", json.Unmarshal(t, &o))
	}
	top, err := object(data, "the description")
	if err != nil {
		return nil, err
	}
	if err := onlyKeys(top, topKeys, ""); err != nil {
		return nil, err
	}
	d := &Description{Events: map[string]string{}, Input: map[string][]string{}}
	d.Name, _ = top.StrOK("name")
	if !validName(d.Name) {
		return nil, fmt.Errorf("name %q: lower-case letters, digits, _ and -, starting with a letter", d.Name)
	}
	d.Title = orElse(top.Str("title"), d.Name)
	d.Verified = orElse(top.Str("verified"), "documented, not verified live")
	if err := d.parseSettings(top["settings"]); err != nil {
		return nil, err
	}
	events, err := object(top["events"], "events")
	if err != nil {
		return nil, err
	}
	for k := range events {
		if !slices.ContainsFunc(roleEvent, func(r struct{ role, event, sub string }) bool { return r.role == k }) {
			return nil, fmt.Errorf("events: unknown role %q (pre, post, post_failure, start, prompt, stop, end)", k)
		}
		v, ok := events.StrOK(k)
		if !ok || v == "" {
			return nil, fmt.Errorf("events.%s: a non-empty string", k)
		}
		d.Events[k] = v
	}
	if d.Events[RolePre] == "" {
		return nil, errors.New("events.pre: the agent's pre-tool event is required")
	}
	if raw, ok := top["input"]; ok {
		in, err := object(raw, "input")
		if err != nil {
			return nil, err
		}
		if err := onlyKeys(in, inputKeys, "input."); err != nil {
			return nil, err
		}
		for k := range in {
			keys, err := stringOrList(in[k], "input."+k)
			if err != nil {
				return nil, err
			}
			d.Input[k] = keys
		}
	}
	for k, v := range defaultInput() {
		if _, ok := d.Input[k]; !ok {
			d.Input[k] = v
		}
	}
	if err := d.parseTools(top["tools"]); err != nil {
		return nil, err
	}
	d.Answer = orElse(top.Str("answer"), AnswerClaude)
	if !slices.Contains([]string{AnswerClaude, AnswerDecisionJSON, AnswerExitCode}, d.Answer) {
		return nil, fmt.Errorf("answer %q: claude, decision_json or exit_code", d.Answer)
	}
	if d.NoAsk, err = boolField(top, "no_ask"); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		key string
		to  *[]string
	}{{"project_dir_env", &d.ProjectDirEnv}, {"shell_markers", &d.ShellMarkers}, {"notes", &d.Notes}} {
		if raw, ok := top[f.key]; ok {
			if *f.to, err = stringOrList(raw, f.key); err != nil {
				return nil, err
			}
		}
	}
	d.Sandbox = top.Str("sandbox")
	d.Process = top.Str("process")
	d.GradeNote = top.Str("grade_note")
	if d.Settings.Root && len(d.ProjectDirEnv) == 0 {
		return nil, errors.New("settings.root needs project_dir_env: the variable init passes as --root")
	}
	return d, nil
}

func (d *Description) parseSettings(raw json.RawMessage) error {
	s, err := object(raw, "settings")
	if err != nil {
		return err
	}
	if err := onlyKeys(s, settingsKeys, "settings."); err != nil {
		return err
	}
	st := Settings{Project: s.Str("project"), User: s.Str("user"), Shape: orElse(s.Str("shape"), ShapeClaude),
		Matcher: orElse(s.Str("matcher"), "list"), TimeoutKey: orElse(s.Str("timeout_key"), "timeout")}
	if !slices.Contains([]string{ShapeClaude, ShapeEvents, ShapeFlat, ShapeUserTOML}, st.Shape) {
		return fmt.Errorf("settings.shape %q: claude, events, flat or user_toml", st.Shape)
	}
	if !slices.Contains([]string{"list", "all", "none"}, st.Matcher) {
		return fmt.Errorf("settings.matcher %q: list, all or none", st.Matcher)
	}
	switch {
	case st.Shape == ShapeUserTOML && st.User == "":
		return errors.New("settings.user: a user_toml agent's file is required")
	case st.Shape != ShapeUserTOML && st.Project == "" && st.User == "":
		return errors.New("settings.project (or settings.user, for an agent that reads hooks only from the user's file): the file init writes is required")
	case st.Project != "" && !safeRel(st.Project):
		return fmt.Errorf("settings.project %q: a relative path inside the workspace", st.Project)
	case st.User != "" && !strings.HasPrefix(st.User, "~/"):
		return fmt.Errorf("settings.user %q: a path under ~/", st.User)
	}
	if raw, ok := s["timeout"]; ok {
		if err := json.Unmarshal(raw, &st.Timeout); err != nil || st.Timeout < 0 {
			return errors.New("settings.timeout: a whole number, in the agent's unit")
		}
	}
	if raw, ok := s["handler"]; ok {
		h, err := object(raw, "settings.handler")
		if err != nil {
			return err
		}
		for _, k := range sortedKeys(h) {
			var v any
			if s, ok := h.StrOK(k); ok {
				v = s
			} else if b, ok := h.Bool(k); ok {
				v = b
			} else if err := json.Unmarshal(h[k], new(json.Number)); err == nil {
				v = json.Number(strings.TrimSpace(string(h[k])))
			} else {
				return fmt.Errorf("settings.handler.%s: a string, a number or a boolean", k)
			}
			st.Handler = append(st.Handler, protocol.Field{Key: k, Value: v})
		}
	}
	if raw, ok := s["new"]; ok {
		if _, err := object(raw, "settings.new"); err != nil {
			return err
		}
		st.New = raw
	}
	if raw, ok := s["keys"]; ok {
		if st.Keys, err = stringOrList(raw, "settings.keys"); err != nil {
			return err
		}
	}
	if raw, ok := s["switches"]; ok {
		if st.Switches, err = stringOrList(raw, "settings.switches"); err != nil {
			return err
		}
		for _, p := range st.Switches {
			if !safeRel(p) {
				return fmt.Errorf("settings.switches %q: a relative path inside the workspace", p)
			}
		}
	}
	if st.Root, err = boolField(s, "root"); err != nil {
		return err
	}
	d.Settings = st
	return nil
}

func (d *Description) parseTools(raw json.RawMessage) error {
	tools, err := object(raw, "tools")
	if err != nil {
		return err
	}
	if len(tools) == 0 {
		return errors.New("tools: at least one tool")
	}
	for _, name := range sortedKeys(tools) {
		t, err := object(tools[name], "tools."+name)
		if err != nil {
			return err
		}
		where := "tools." + name
		if err := onlyKeys(t, toolKeys, where+"."); err != nil {
			return err
		}
		class, _ := t.StrOK("class")
		if !slices.Contains(classes, class) {
			return fmt.Errorf("%s.class %q: write, delete, shell, read or exempt", where, class)
		}
		tool := protocol.Tool{Class: hook.Class(class), Patch: t.Str("patch"), Command: t.Str("command"), Dir: t.Str("dir"),
			Unsandbox: t.Str("unsandbox"), Paths: t.Str("paths")}
		for _, f := range []struct {
			key string
			to  *[]string
		}{{"path", &tool.Path}, {"each", &tool.Each}, {"new_strings", &tool.NewStrings}} {
			if raw, ok := t[f.key]; ok {
				if *f.to, err = stringOrList(raw, where+"."+f.key); err != nil {
					return err
				}
			}
		}
		if tool.PatchInput, err = boolField(t, "patch_input"); err != nil {
			return err
		}
		if tool.WholeFile, err = boolField(t, "whole_file"); err != nil {
			return err
		}
		switch tool.Class {
		case hook.ClassWrite, hook.ClassDelete:
			if len(tool.Path) == 0 && tool.Paths == "" && len(tool.Each) == 0 && tool.Patch == "" && !tool.PatchInput {
				return fmt.Errorf("%s: a %s tool names where its input holds the file (path, paths, each, patch or patch_input)", where, class)
			}
		case hook.ClassShell:
			if tool.Command == "" {
				tool.Command = "command"
			}
		}
		nt := NamedTool{Name: name, Tool: tool}
		if raw, ok := t["read_if"]; ok {
			cond, err := object(raw, where+".read_if")
			if err != nil {
				return err
			}
			nt.ReadIf = map[string][]string{}
			for _, k := range sortedKeys(cond) {
				if nt.ReadIf[k], err = stringOrList(cond[k], where+".read_if."+k); err != nil {
					return err
				}
			}
		}
		d.Tools = append(d.Tools, nt)
	}
	return nil
}

// object decodes raw as a JSON object, saying what was expected. Its
// members are split without json.Unmarshal's reflection (protocol.AsObject),
// which a workspace agent's hook would pay for on every call.
func object(raw json.RawMessage, what string) (protocol.Object, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("%s: a JSON object", what)
	}
	o := protocol.AsObject(raw)
	if o == nil {
		// json says what is wrong.
		var v map[string]any
		return nil, fmt.Errorf("%s: %v", what, json.Unmarshal(raw, &v))
	}
	return o, nil
}

func onlyKeys(o protocol.Object, known []string, prefix string) error {
	for _, k := range sortedKeys(o) {
		if !slices.Contains(known, k) {
			return fmt.Errorf("%s%s: unknown key (known: %s)", prefix, k, strings.Join(known, ", "))
		}
	}
	return nil
}

func stringOrList(raw json.RawMessage, what string) ([]string, error) {
	if s, ok := protocol.String(raw); ok {
		if s == "" {
			return nil, fmt.Errorf("%s: a non-empty string", what)
		}
		return []string{s}, nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil, fmt.Errorf("%s: a string or a list of strings", what)
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := protocol.String(e)
		if !ok || s == "" {
			return nil, fmt.Errorf("%s: a string or a list of non-empty strings", what)
		}
		out = append(out, s)
	}
	return out, nil
}

func boolField(o protocol.Object, key string) (bool, error) {
	if _, ok := o[key]; !ok {
		return false, nil
	}
	v, ok := o.Bool(key)
	if !ok {
		return false, fmt.Errorf("%s: true or false", key)
	}
	return v, nil
}

func sortedKeys(o protocol.Object) []string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func orElse(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// safeRel reports whether p is a slash-separated relative path that stays
// inside the workspace.
func safeRel(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || strings.Contains(p, ":") {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." || part == "" {
			return false
		}
	}
	return true
}
