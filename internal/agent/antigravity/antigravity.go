// Package antigravity speaks the Antigravity CLI's (agy) hook protocol, from
// its documentation and payloads others captured from it (1.0.5–1.1.11), not
// run here: a hooks.json whose top-level keys name hooks, each holding
// Claude-shaped event groups ({"intenthook": {"PreToolUse": [{"matcher",
// "hooks": [{"type": "command", "command"}]}]}}); events PreToolUse,
// PostToolUse and Stop; camelCase protojson on stdin with no event name
// ({conversationId, stepIdx, toolCall: {name, args}, transcriptPath,
// workspacePaths, artifactDirectoryPath}; args in PascalCase); and a
// PreToolUse answer that must carry a decision ({"decision":
// "allow"|"deny"|"ask"|"force_ask", "reason"}): the CLI fails closed on a
// missing one.
package antigravity

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// Name is the --agent value.
const Name = "antigravity"

// Title names the agent for people.
const Title = "Antigravity CLI"

// HooksFile is the project's hooks file (the CLI's customization root is
// .agents/ in a workspace, ~/.gemini/config/ for the user).
const HooksFile = ".agents/hooks.json"

// HookName is the key intenthook's hooks sit under in hooks.json.
const HookName = "intenthook"

// Governance are the Antigravity CLI's rows of the governance table.
var Governance = governed.Table{
	{Path: HooksFile, Use: governed.Wiring, Reason: "the Antigravity CLI's hooks (each named hook may be switched off with enabled: false)"},
}

// Agent describes the Antigravity CLI.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:     Name,
		Title:    Title,
		Verified: "documented, not verified live (documentation and payloads captured by others, 1.0.5–1.1.11; the CLI reaches a model only through a Google sign-in, which a mock model cannot stand in for)",
		Decode:   Decode,
		Tools:    Tools(),
		Encode:   Encode,
		Settings: []string{HooksFile},
		// The CLI sets none known in its shell; its hooks name no project
		// variable either: the event's workspacePaths anchor the root.
		Governance: Governance,
		Sample:     Sample,
		Wire:       Wire,
		Check:      Check,
		GradeNote:  "only once the hooks fire: by version (see antigravity version), and none under API-key auth",
		// 1.2.x reads no answer, or {} before a tool, as a refusal.
		AnswerAlways: true,
	}
}

// Tools is the Antigravity CLI's tool table (its own lowercase names;
// arguments in PascalCase). A write tool whose input names no file is
// target_unknown.
func Tools() protocol.Tools { return tools }

var filePath = []string{"TargetFile", "AbsolutePath", "FilePath", "Path"}

var tools = protocol.Tools{
	{Name: "write_to_file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: filePath, WholeFile: true}},
	{Name: "edit_file", Tool: protocol.Tool{Class: hook.ClassWrite, Path: filePath}},
	{Name: "replace_file_content", Tool: protocol.Tool{Class: hook.ClassWrite, Path: filePath}},
	{Name: "multi_replace_file_content", Tool: protocol.Tool{Class: hook.ClassWrite, Path: filePath}},
	{Name: "run_command", Tool: protocol.Tool{Class: hook.ClassShell, Command: "CommandLine", Dir: "Cwd"}},
	{Name: "view_file", Tool: protocol.Tool{Class: hook.ClassRead, Path: filePath}},
	{Name: "codebase_search", Tool: exempt}, {Name: "grep_search", Tool: exempt}, {Name: "find_by_name", Tool: exempt},
	{Name: "list_dir", Tool: exempt}, {Name: "ask_permission", Tool: exempt}, {Name: "read_url_content", Tool: exempt},
	{Name: "search_web", Tool: exempt},
}

var exempt = protocol.Tool{Class: hook.ClassExempt}

// Decode turns one event into a Call: the event is the hook command's
// (the payload names none; context's is Stop, the one event it is wired
// to), the session the conversation, the working directory the first
// workspace path.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	// intenthook context is wired to Stop only: the payload names no
	// event, and the command's own (SessionStart) is not what happened.
	if event == hook.SessionStart {
		event = hook.Stop
	}
	c := &hook.Call{
		Agent:          Name,
		Event:          event,
		SessionID:      ev.Str("conversationId"),
		TranscriptPath: ev.Str("transcriptPath"),
		Error:          ev.Str("error"),
	}
	if roots := ev.Strs("workspacePaths"); len(roots) > 0 {
		c.Cwd = protocol.NativePath(roots[0])
	}
	tc := ev.Obj("toolCall")
	if !ev.Has("toolCall") {
		// The Gemini API's remote Antigravity agent (pre_tool_execution,
		// from its documentation, not verified): tool_call {name, args}.
		tc = ev.Obj("tool_call")
	}
	c.ToolName = tc.Str("name")
	// The step's index within the conversation pairs a call's before- and
	// after-event (protojson writes it as a number or, for 64 bits, a
	// string).
	if step := strings.Trim(string(ev["stepIdx"]), `"`); step != "" && step != "null" && c.SessionID != "" {
		c.ToolUseID = c.SessionID + ":" + step
	}
	Tools().Fill(c, tc["args"])
	c.Failed = c.Error != ""
	return c, nil
}

// answer is the CLI's decision object.
type answer struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
}

// allowed is the answer to an allowed call with no context, the answer to
// nearly every call, written out: encoding/json's reflection over answer
// would cost the hook's path more than the rest of the answer (TestAllowed
// holds it to the encoder's).
const allowed = `{"decision":"allow"}` + "\n"

// Encode answers the CLI. Before a tool every answer carries a decision
// (none is a deny): allow, deny with the reason, and an ask as force_ask,
// which a person's earlier "always allow" cannot answer; never {}, which
// 1.2.x reads as a refusal. After a tool a violation is a deny with the
// reason, the rest exactly {} (1.2.x reads an empty answer as a deny).
func Encode(c *hook.Call, d hook.Decision, budget int) hook.Answer {
	var a hook.Answer
	if len(d.Notes) > 0 {
		a.Stderr = strings.Join(d.Notes, "\n") + "\n"
	}
	switch {
	case c.Event == hook.PreToolUse && d.Verdict == hook.Deny:
		a.Stdout = protocol.JSON(answer{Decision: "deny", Reason: hook.Clip(d.Message, budget)})
	case c.Event == hook.PreToolUse && d.Verdict == hook.Ask:
		a.Stdout = protocol.JSON(answer{Decision: "force_ask", Reason: hook.Clip(d.Message, budget)})
	case c.Event == hook.PreToolUse && d.Context == "":
		a.Stdout = allowed
	case c.Event == hook.PreToolUse:
		a.Stdout = protocol.JSON(answer{Decision: "allow", Reason: hook.Clip(d.Context, budget)})
	case d.Violation || d.Verdict == hook.Deny:
		a.Stdout = protocol.JSON(answer{Decision: "deny", Reason: hook.Clip(d.Message, budget)})
	case c.Event == hook.PostToolUse:
		// 1.2.x reads an empty answer as a deny: after a tool that
		// passed, exactly {} (before one, {} too is a refusal).
		a.Stdout = nothingToSay
	}
	return a
}

// nothingToSay is the answer after a tool that passed.
const nothingToSay = "{}\n"

// Hooks are the hooks intenthook needs: before and after every tool (no
// matcher), and Stop for the end of a turn; timeouts in seconds.
func Hooks() []hookconfig.Hook {
	args := "--agent " + Name
	return []hookconfig.Hook{
		{Event: "PreToolUse", Subcommand: "pre", Args: args, Timeout: 30},
		{Event: "PostToolUse", Subcommand: "post", Args: args, Timeout: 30},
		{Event: "Stop", Subcommand: "context", Args: args, Timeout: 30},
		// The Gemini API's remote Antigravity agent reads the same file in
		// its sandbox with this event name (documentation only); the CLI
		// drops an event it does not know.
		{Event: RemotePreEvent, Subcommand: "pre", Args: args, Timeout: 30},
	}
}

// RemotePreEvent is the Gemini API remote agent's event before a tool.
const RemotePreEvent = "pre_tool_execution"

// notes are what a person must still do for the hooks to fire.
var notes = []string{
	"the Antigravity CLI runs " + HooksFile + " from 1.2 on; 1.1.26 and 1.1.27 drop its PreToolUse and PostToolUse hooks (upgrade); before 1.1.26 a project's hooks may run only from an installed plugin carrying them (the sources disagree: see the Antigravity CLI section of docs/agents.md)",
	"the Antigravity CLI runs no hooks under API-key auth: sign in with a Google account",
}

// Wire merges intenthook's named hook into .agents/hooks.json, keeping
// every other named hook.
func Wire(root string) (protocol.Change, error) {
	path := filepath.Join(root, filepath.FromSlash(HooksFile))
	data, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return protocol.Change{}, err
	}
	doc, err := hookconfig.Decode(data)
	if err != nil {
		return protocol.Change{}, &protocol.Conflict{Path: HooksFile, Reason: "not valid JSON: " + err.Error(), Hint: "fix " + HooksFile + " (or move it aside) and run intenthook init again"}
	}
	wrap, err := named(doc)
	if err != nil {
		return protocol.Change{}, &protocol.Conflict{Path: HooksFile, Reason: err.Error(), Hint: "fix " + HooksFile}
	}
	hookconfig.MigrateNPM(wrap)
	added, err := hookconfig.Merge(wrap, protocol.ForInstall(root, Agent(), Hooks()))
	if err != nil {
		return protocol.Change{}, &protocol.Conflict{Path: HooksFile, Reason: err.Error(), Hint: "fix " + HooksFile}
	}
	if len(added) == 0 {
		return protocol.Change{Action: protocol.Kept, Path: HooksFile, Detail: "the hooks are wired", Notes: notes}, nil
	}
	v, _ := wrap.Get("hooks")
	doc.Set(HookName, v)
	out, err := hookconfig.Encode(doc)
	if err != nil {
		return protocol.Change{}, err
	}
	if err := protocol.WriteFile(path, out); err != nil {
		return protocol.Change{}, err
	}
	action := protocol.Created
	if existed {
		action = protocol.Updated
	}
	var what []string
	for _, h := range added {
		what = append(what, h.Event+": "+h.Command())
	}
	return protocol.Change{Action: action, Path: HooksFile, Detail: "added " + HookName + " (" + strings.Join(what, ", ") + ")", Notes: notes}, nil
}

// named returns a document whose "hooks" object is intenthook's named hook
// in doc (the shape hookconfig reads), the same object, so a merge lands in
// doc once set back.
func named(doc *hookconfig.Object) (*hookconfig.Object, error) {
	wrap := &hookconfig.Object{}
	v, ok := doc.Get(HookName)
	if !ok || v == nil {
		return wrap, nil
	}
	o, ok := v.(*hookconfig.Object)
	if !ok {
		return nil, fmt.Errorf("%q is not an object", HookName)
	}
	wrap.Set("hooks", o)
	return wrap, nil
}

// Check checks .agents/hooks.json: intenthook's named hook runs pre, post
// and context, is not switched off, and its program resolves; and says what
// the files cannot show: whether the installed CLI's version runs them
// (versionCheck), API-key auth.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(HooksFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	name := Name + " hooks"
	if err != nil {
		return true, []protocol.Check{{Status: protocol.Fail, Name: name, Detail: err.Error()}}
	}
	doc, err := hookconfig.Decode(data)
	if err != nil {
		return true, []protocol.Check{{Status: protocol.Fail, Name: name, Detail: HooksFile + ": " + err.Error(), Hint: "fix the JSON: the CLI ignores a hooks file it cannot parse"}}
	}
	wrap, err := named(doc)
	if err != nil {
		return true, []protocol.Check{{Status: protocol.Fail, Name: name, Detail: HooksFile + ": " + err.Error(), Hint: "run intenthook init --agent " + Name}}
	}
	docs := []protocol.SettingsDoc{{Name: HooksFile, Doc: wrap}}
	if !protocol.Wired(docs, []string{"PreToolUse", "PostToolUse", "Stop"}) {
		return false, nil
	}
	jc := protocol.JSONCheck{Agent: Name, Fix: "run intenthook init --agent " + Name, Matches: hookconfig.Matches, Ours: Hooks()}
	checks, found := jc.Requirements(docs, []protocol.Requirement{
		{Event: "PreToolUse", Subcommand: "pre"},
		{Event: "PostToolUse", Subcommand: "post"},
		{Event: "Stop", Subcommand: "context"},
	})
	if o, _ := wrap.Get("hooks"); o != nil {
		if v, ok := o.(*hookconfig.Object).Get("enabled"); ok && v == false {
			checks = append(checks, protocol.Check{Status: protocol.Fail, Name: name, Detail: HookName + ".enabled is false in " + HooksFile + ": the CLI runs none of intenthook's hooks", Hint: "remove \"enabled\": false from the " + HookName + " hook"})
		}
	}
	checks = append(checks, protocol.CheckCommands(Name+" hook command", Title, root, found, env.LookPath), versionCheck(env))
	if env.Getenv != nil {
		for _, v := range []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"} {
			if env.Getenv(v) != "" {
				checks = append(checks, protocol.Check{Status: protocol.Warn, Name: Name + " auth", Detail: v + " is set: under API-key auth the Antigravity CLI runs no hooks, so none of intenthook's would run", Hint: notes[1]})
				break
			}
		}
	}
	return true, checks
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the CLI sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"conversationId":%q,"stepIdx":7,"toolCall":{"name":"replace_file_content","args":{"TargetFile":%q,"ReplacementChunks":[{"TargetContent":"x","ReplacementContent":"x"}]}},"transcriptPath":"/h/.gemini/antigravity-cli/conversations/bench.pb","workspacePaths":[%q]}`, session, root+"/"+rel, root)
}
