// Package protocol holds what every agent adapter is made of: the Agent
// descriptor (decode an event into a hook.Call, encode a hook.Decision as
// the agent reads it, wire the agent's settings, check them), a lenient
// reader of JSON events, tool tables that map an agent's tool names and
// input fields to the gate's classes and paths, and the answer dialects the
// agents share. The adapters themselves live in the packages beside it, one
// per agent; nothing here knows a particular agent.
package protocol

import (
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// Agent is everything intenthook knows about one coding agent's hooks.
type Agent struct {
	Name  string // the --agent value: claude, gemini, …
	Title string // for people: "Gemini CLI"
	// Verified says how the protocol was checked: the client version run
	// live, or "documented, not verified live".
	Verified string
	// Decode turns one event into a Call. event is what the hook command
	// stands for (PreToolUse for `pre`), used when the payload names none.
	Decode func(ev Object, event string) (*hook.Call, error)
	// Tools is the agent's tool table; nil for an agent whose events say
	// what a call does without naming a tool of a table (Windsurf).
	Tools Tools
	// Encode renders d as the answer to c (c.Event says which event;
	// c.Variant which of the agent's shapes it came in); budget caps every
	// string handed to the agent.
	Encode func(c *hook.Call, d hook.Decision, budget int) hook.Answer
	// ProjectDirVars are the variables the agent sets to its project
	// directory in a hook's environment, in the order they are trusted.
	ProjectDirVars []string
	// ShellMarkers are variables the agent sets in its shell tool's
	// environment: a command run with one of them set was run by the agent.
	ShellMarkers []string
	// Settings are the agent's committed hook settings files, relative to
	// the workspace root.
	Settings []string
	// MCP is where the agent reads its project's MCP servers from, and
	// how init registers intenthook-mcp there; nil when init registers
	// none for the agent.
	MCP *MCPWiring
	// Wire merges intenthook's hooks into the agent's configuration under
	// root, keeping what is there; a second run changes nothing.
	Wire func(root string) (Change, error)
	// User is the user's hooks file ("~/…") of an agent that reads its
	// hooks only from there (Junie), and WireUser merges intenthook's hooks
	// into it under home (init --agent NAME --user); nil for the others.
	User     string
	WireUser func(home string) (Change, error)
	// Check inspects the wiring under root; configured is false when the
	// agent is not wired at all (doctor then says nothing about it).
	Check func(root string, env CheckEnv) (configured bool, checks []Check)
	// Governance are the agent's rows of the governance table
	// (workspace.Governance): its settings and MCP configuration, and what
	// its OS sandbox keeps read-only.
	Governance []governed.File
	// Sample is a PreToolUse event for an edit of rel (root-relative) in
	// session, in the agent's shape: tests and make bench feed it to the
	// hook.
	Sample func(root, rel, session, id string) []byte
	// NoPreTool: the agent runs no hook before a tool (precommit and audit
	// only); NoPostTool: none after one, so neither the guard nor the
	// backstop judges what a command did. Both shape the agent's grade.
	NoPreTool, NoPostTool bool
	// GradeNote says what the agent's grade leaves open, for doctor.
	GradeNote string
	// AnswerAlways: the agent reads no answer as a refusal (the
	// Antigravity CLI 1.2.x), so where intenthook has nothing to say
	// (governance off here, an event it ignores, an error under the open
	// fail mode) the hook still answers Encode's answer to an empty
	// decision.
	AnswerAlways bool
	// Sandbox, for agents with an OS sandbox for their shell tool, writes
	// its settings (init --sandbox): writes confined to the workspace and
	// temp, the readOnly paths (the governance table's) read-only. Nil: the
	// agent has none.
	Sandbox func(root string, readOnly []string) (Change, error)
	// PreTimeout says where the agent's wiring gives pre its time: a pre
	// that waits for a person's answer (ask.via) must end before it. Nil:
	// init does not set it for this agent.
	PreTimeout *PreTimeout
}

// Change is what wiring did to one file.
type Change struct {
	Action string // created, updated, kept
	Path   string // root-relative
	Detail string
	// Notes are what a person must still do (trust the hooks in Codex…).
	Notes []string
}

// Conflict is a file wiring refused to change, with what to do about it.
type Conflict struct {
	Path, Reason, Hint string
}

func (c *Conflict) Error() string { return c.Path + ": " + c.Reason }

// Status is a check's outcome, printed as its mark. Only Fail makes doctor
// fail: Warn is advice, Skip a check that could not run.
type Status string

// Outcomes.
const (
	Pass Status = "✓"
	Fail Status = "✗"
	Warn Status = "!"
	Skip Status = "-"
)

// Check is one line of doctor's report.
type Check struct {
	Status Status
	Name   string
	Detail string
	Hint   string // what to do, for Fail and Warn
}

// CheckEnv is what checks look at besides the workspace's files.
type CheckEnv struct {
	Getenv   func(string) string
	LookPath func(string) (string, error)
	// SandboxReadOnly is what an OS sandbox must keep read-only: the
	// governance table's ReadOnly paths.
	SandboxReadOnly []string
	// Run runs a program found by LookPath, with a short timeout, for a
	// check that must see whether it works here (an OS sandbox's probe);
	// nil: no check runs one.
	Run func(path string, args ...string) error
	// Output runs a program found by LookPath like Run and returns its
	// first line of output (an agent's --version); nil: none is run.
	Output func(path string, args ...string) (string, error)
	// GOOS is the system the checks judge, runtime.GOOS when empty.
	GOOS string
}

// Program is the hook command's program, found on PATH: committed settings
// then work for every teammate, wherever the binary is installed.
const Program = hookconfig.Program
