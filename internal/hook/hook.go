// Package hook holds the agent-neutral shapes of a hook call: the Call an
// agent's event decodes into (with its tool's class), the Decision the gate
// answers with, and the Answer a process prints. Agent wire formats live in
// the packages under internal/agent; nothing past them knows which agent is
// on the line.
package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/safetext"
)

// Events a Call can carry.
const (
	PreToolUse         = "PreToolUse"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
	// PermissionRequest is the host's own permission question about a
	// call (Claude Code, Codex): with ask.via wait, a person answers it
	// where they are (docs/asks.md).
	PermissionRequest = "PermissionRequest"
	SessionStart      = "SessionStart"
	SubagentStart     = "SubagentStart"
	UserPromptSubmit  = "UserPromptSubmit"
	// Stop ends an agent's turn, SessionEnd its session: intenthook records
	// the session's summary then.
	Stop       = "Stop"
	SessionEnd = "SessionEnd"
	// PluginStart is an agent plugin announcing that it decides the
	// before-tool calls of the session Call.Plugin names (Cline 3's).
	PluginStart = "PluginStart"
	// PermissionDenied follows a call the agent refused itself (Claude
	// Code's auto mode, a rule or a hook): it carries the refused tool and
	// input, and the tool never runs. Ignored.
	PermissionDenied = "PermissionDenied"
	// PostToolBatch follows a batch of parallel calls, each of which had
	// its own PostToolUse. Ignored.
	PostToolBatch = "PostToolBatch"
	// PreModelSwitch and PostModelSwitch surround a change of model
	// (/model); they name no model: records keep taking it from the
	// transcript. Ignored.
	PreModelSwitch  = "PreModelSwitch"
	PostModelSwitch = "PostModelSwitch"
	// DirectoryAdded (a directory added to the session, --add-dir) and
	// CwdChanged (the session's working directory moved) change no root:
	// the agent's project directory still anchors it, and a write beyond
	// it is outside the workspace. Ignored.
	DirectoryAdded = "DirectoryAdded"
	CwdChanged     = "CwdChanged"
)

// Ignored reports whether event is one no hook command acts on, whichever
// it reaches: it is answered with nothing, exit 0, before any workspace is
// read. None of them stands for a tool about to run.
func Ignored(event string) bool {
	switch event {
	case PermissionDenied, PostToolBatch, PreModelSwitch, PostModelSwitch, DirectoryAdded, CwdChanged:
		return true
	}
	return false
}

// Class is what a tool does, as far as governance cares (SPEC §4).
type Class string

// Tool classes.
const (
	ClassWrite        Class = "write"
	ClassDelete       Class = "delete"
	ClassShell        Class = "shell"
	ClassRead         Class = "read"
	ClassSelect       Class = "select"
	ClassExempt       Class = "exempt"
	ClassUnclassified Class = "unclassified"
	// ClassSubmit is intenthook's own submit_for_review tool: an agent
	// submits its intent for review. Not a class config.yaml may assign.
	ClassSubmit Class = "submit"
)

// ValidClass reports whether c names a class (config's tools: map).
func ValidClass(c string) bool {
	switch Class(c) {
	case ClassWrite, ClassDelete, ClassShell, ClassRead, ClassSelect, ClassExempt, ClassUnclassified:
		return true
	}
	return false
}

// Hunk is one hunk of an edit's structured patch, in new-file lines.
type Hunk struct {
	NewStart int
	NewLines int
	// Added are the runs of lines the edit put in, as first and last line
	// of the new file; set when the hunk came with its lines (context lines
	// are not among them, and a pure deletion has none).
	Added    []LineRun
	HasLines bool
}

// LineRun is a run of lines, first and last inclusive, 1-based.
type LineRun struct{ First, Last int }

// Call is one tool call (or session event) as the gate sees it. Every field
// may be empty: agents leave out what they do not have.
type Call struct {
	Event     string
	SessionID string
	AgentID   string
	// AgentType is the kind of agent making the call (Claude Code's
	// agent_type on subagent events: Explore, general-purpose, a custom
	// agent's name); empty for the top-level agent.
	AgentType      string
	TranscriptPath string
	Cwd            string
	// ProjectDir is the project directory the event itself names (Junie's
	// project_path), and ProjectFromEvent says the agent's events carry
	// one: its hook runs from the agent's own home, so that field, never
	// the working directory, anchors the root, and an event without it
	// cannot be placed (gate.ProjectUnknown).
	ProjectDir       string
	ProjectFromEvent bool
	// UserWiring is the absolute path of the calling agent's hooks file in
	// the user's home when that file is its only wiring (Junie's
	// ~/.junie/config.json): a governance file outside the workspace, which
	// no write of the agent's may reach.
	UserWiring string
	// ModsDirs are the folders in the user's home from which an agent loads
	// code into its own process that sees each tool call before the hooks
	// (Claude Code's dev-mods): no governed agent's write may reach them.
	ModsDirs []string
	Model    string
	Source   string // SessionStart: startup, resume, clear, compact
	Prompt   string
	// Repeat marks an event the agent resends without news (Qwen Code's
	// UserPromptSubmit before every model round trip): answered with nothing.
	Repeat bool
	// Plugin is the key of a session whose before-tool calls an agent
	// plugin may decide: on PluginStart, the plugin announces itself under
	// it; on a hook file's PreToolUse, the call is left to the plugin once
	// it has (the hook file runs first and can only stop the whole run,
	// the plugin can refuse the one call).
	Plugin string
	// PluginProcess is the process the plugin runs in, on PluginStart: its
	// session's calls are left to it only while that process lives.
	PluginProcess int

	// Agent names the agent that sent the event (claude, gemini, …), and
	// Variant which of its shapes ("claude" for Copilot CLI running
	// Claude-format hooks), for the answer.
	Agent     string
	Variant   string
	ToolName  string
	ToolUseID string
	// Class is the tool's class in the agent's own tool table; config's
	// tools: map may override it.
	Class Class
	// Paths are the file paths the tool names, as given (absolute or
	// relative to Cwd), Windows-shaped ones with / separators. A patch's
	// added, updated, deleted and moved files are all here.
	Paths []string
	// Unparsed is set when a write-class tool's input should name its files
	// but intenthook could not find them (a patch it cannot read, an input
	// of an unknown shape): the call's target is unknown.
	Unparsed string
	// Input is the tool's input as the event carried it, for reading it
	// again under the class config.yaml's tools: map gives the tool.
	Input   []byte
	Command string // shell tools
	// Unsandboxed marks a shell call that asks the agent to run it outside
	// its OS sandbox (Claude Code's dangerouslyDisableSandbox).
	Unsandboxed bool
	IntentID    string // select tools
	// Reasoning is a select tool's reasoning argument: agent text.
	Reasoning string
	// SubagentType is the type of agent a spawning tool (Task, Agent) starts.
	SubagentType  string
	MutationClass string // an agent-declared class (seed 004)
	NewStrings    []string
	// WholeFile marks a tool that writes a file's whole content (Write):
	// the whole file is its range.
	WholeFile bool
	// PatchAhead is the patch of a call whose after-event the agent may
	// send before the patch is on disk (VS Code's apply_patch,
	// microsoft/vscode#315926): post takes a file's new content from it
	// while the file still equals what pre saw.
	PatchAhead string

	// Tool response (PostToolUse).
	Failed          bool // PostToolUseFailure, or success:false in the response
	Error           string
	Hunks           []Hunk
	HasHunks        bool
	OriginalFile    *string
	ResponseContent *string
}

// AfterTool reports whether the call is a tool's after-event: its
// PostToolUse, or its PostToolUseFailure when the tool failed.
func (c *Call) AfterTool() bool {
	return c.Event == PostToolUse || c.Event == PostToolUseFailure
}

// PairPrefix starts a tool-use id intenthook made (PairID), never an
// agent's.
const PairPrefix = "ih-"

// PairCall gives a tool call whose agent sends no tool-use id (Gemini CLI,
// Droid, Auggie, Copilot CLI's own format) one its before- and after-event
// share, so that the guard and the backstop pair them: made from the
// session, the agent, the tool and its input's bytes (each of those agents
// writes both events' input from the same object; the bytes are hashed, not
// decoded again: a Write's input holds the whole file). Two identical calls
// running at once in one session share it; the second's before-event then
// takes the first's place, as for any repeated id.
func (c *Call) PairCall() {
	if c.ToolUseID != "" || c.SessionID == "" || c.ToolName == "" {
		return
	}
	if c.Event != PreToolUse && !c.AfterTool() {
		return
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(c.SessionID), []byte(c.AgentID), []byte(c.ToolName), c.Input} {
		h.Write(part)
		h.Write([]byte{0})
	}
	c.ToolUseID = PairPrefix + hex.EncodeToString(h.Sum(nil)[:12])
}

// Verdict is what the gate decided.
type Verdict int

// Verdicts, from the mildest: when several targets disagree, the largest wins.
const (
	Allow Verdict = iota // silent: the user's own permission prompts stay in force
	AllowWithContext
	Ask
	Deny
)

func (v Verdict) String() string {
	return [...]string{"allow", "allow", "ask", "deny"}[v]
}

// Decision is the gate's answer to a Call.
type Decision struct {
	Verdict Verdict
	// Code is the deny code (scope_violation, …), or for a post-hook
	// violation its code.
	Code string
	// Message is the deny message (first line "intenthook: deny [code] …")
	// or the reason shown to the user for ask and allow.
	Message string
	// Context is text for the model (additionalContext).
	Context string
	// Warning is shown to the user (systemMessage); Notes go to stderr only.
	Warning string
	Notes   []string
	// Violation marks a post-hook answer that must block (exit 2, or the
	// agent's JSON block where it reads one after the tool).
	Violation bool
	// AskCode says what an ask is about (destructive_command, …): a
	// person's standing answer allows one session's asks of one code. It
	// is not a deny code: a host that cannot ask still denies with
	// approval_required.
	AskCode string
}

// Stricter reports whether d outranks o (deny > ask > allow).
func (d Decision) Stricter(o Decision) bool { return d.Verdict > o.Verdict }

// Clip cuts s to at most max bytes on a rune boundary, marking the cut.
func Clip(s string, max int) string {
	if max <= 0 {
		return ""
	}
	if len(s) <= max {
		return s
	}
	return safetext.ClipMark(s, max, "\n… (truncated)")
}

// List joins items one per line within max bytes; what does not fit ends the
// list as "… and N more".
func List(items []string, max int) string {
	var b strings.Builder
	for i, it := range items {
		sep := ""
		if i > 0 {
			sep = "\n"
		}
		reserve := 0
		if left := len(items) - i - 1; left > 0 {
			reserve = len("\n… and  more") + len(strconv.Itoa(left))
		}
		if b.Len()+len(sep)+len(it)+reserve > max {
			b.WriteString(sep + "… and " + strconv.Itoa(len(items)-i) + " more")
			break
		}
		b.WriteString(sep + it)
	}
	return b.String()
}

// Answer is what a hook process prints and how it exits.
type Answer struct {
	Exit   int
	Stdout string
	Stderr string
}
