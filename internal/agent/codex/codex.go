// Package codex speaks OpenAI Codex CLI's hook protocol (AGENT-PROTOCOLS.md
// §2, verified live against 0.169.0): Claude Code's event names, writes as
// apply_patch with the patch in tool_input.command (or as a shell command
// feeding apply_patch a here-document, which the shell analysis reads), tool
// responses as strings, no ask (an ask would let the tool run: it becomes an
// instructive deny), and hooks that run only once Codex's hook review has
// trusted them.
package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
	"github.com/intenthook/intenthook/internal/safetext"
)

// Name is the --agent value.
const Name = "codex"

// HooksFile is Codex's project hooks file.
const HooksFile = ".codex/hooks.json"

// Governance are Codex CLI's rows of the governance table: the
// descriptor's, reachable without building it.
var Governance = governed.Table{
	{Path: HooksFile, Use: governed.Rules, Watch: governed.HookSettings, Hooks: &governed.Hooks{Matchers: []string{preMatcher, postMatcher, sessionMatcher}}, Reason: "Codex's hooks"},
	// Restored whole: every table in it is a rule (MCP servers, the sandbox,
	// the hooks feature switch, hooks of its own), and Codex writes its
	// trust decisions to the user's file, not this one.
	{Path: ConfigFile, Use: governed.Rules, Reason: "Codex's project configuration: MCP servers, sandbox mode, the hooks feature"},
	{Path: ".codex", Use: governed.ReadOnly, Reason: "Codex's project directory: hooks and configuration"},
}

// Agent describes Codex CLI.
func Agent() protocol.Agent {
	return protocol.Agent{
		Name:           Name,
		Title:          "Codex CLI",
		Verified:       "0.169.0, live (AGENT-PROTOCOLS.md)",
		Decode:         Decode,
		Tools:          Tools(),
		Encode:         Dialect.Encode,
		ProjectDirVars: nil, // none: the event's cwd anchors the root
		// CODEX_SANDBOX* only inside a sandbox; CODEX_THREAD_ID in every
		// shell command (0.169.0, seen in make e2e).
		ShellMarkers: []string{"CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED", "CODEX_THREAD_ID"},
		Settings:     []string{HooksFile},
		Governance:   Governance,
		Sample:       Sample,
		Wire:         Wire,
		PreTimeout:   &protocol.PreTimeout{File: HooksFile, Event: "PreToolUse", Key: "timeout", Unit: time.Second, Unset: 600 * time.Second, Permission: hook.PermissionRequest},
		Check:        Check,
		Sandbox:      Sandbox,
		MCP:          MCP,
		GradeNote:    "Codex's workspace-write sandbox cannot keep single files read-only, so it cannot make Codex enforced",
	}
}

// Dialect is Codex's answer format: no ask, and never a bare
// permissionDecision "allow" (Codex marks the hook failed).
var Dialect = protocol.Dialect{Title: "Codex CLI", NoAsk: true, BareAllow: true}

// Tools is Codex's tool table.
func Tools() protocol.Tools { return tools }

var tools = protocol.Tools{
	{Name: "apply_patch", Tool: protocol.Tool{Class: hook.ClassWrite, Patch: "command"}},
	{Name: "Bash", Tool: protocol.Tool{Class: hook.ClassShell}},
	{Name: "Agent", Tool: protocol.Tool{Class: hook.ClassExempt}},
	{Name: "spawn_agent", Tool: protocol.Tool{Class: hook.ClassExempt}},
}

// Decode turns one Codex event into a Call.
func Decode(ev protocol.Object, event string) (*hook.Call, error) {
	c := protocol.DecodeClaudeShaped(Name, ev, event)
	Tools().Fill(c, ev["tool_input"])
	if resp, ok := ev.StrOK("tool_response"); ok {
		// "Exit code: 0\nWall time: …\nOutput: …" for apply_patch.
		if code, found := exitCode(resp); found && code != 0 {
			c.Failed, c.Error = true, safetext.FirstLine(resp)
		}
	}
	return c, nil
}

func exitCode(resp string) (int, bool) {
	rest, ok := strings.CutPrefix(resp, "Exit code: ")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(safetext.FirstLine(rest))
	return n, err == nil
}

// Init's matchers (Hooks).
const (
	preMatcher     = "apply_patch|Bash|mcp__.*"
	postMatcher    = "apply_patch|Bash"
	sessionMatcher = "startup|resume|clear|compact"
)

// Hooks returns the hooks intenthook needs in Codex (timeouts in seconds).
func Hooks() []hookconfig.Hook {
	args := "--agent " + Name
	return []hookconfig.Hook{
		{Event: "PreToolUse", Matcher: preMatcher, Subcommand: "pre", Args: args, Timeout: 30},
		{Event: "PostToolUse", Matcher: postMatcher, Subcommand: "post", Args: args, Timeout: 30},
		{Event: "SessionStart", Matcher: sessionMatcher, Subcommand: "context", Args: args, Timeout: 30},
		{Event: "UserPromptSubmit", Subcommand: "context", Args: args, Timeout: 30},
		{Event: "SessionEnd", Subcommand: "context", Args: args, Timeout: 30},
	}
}

// trustNote says how a person makes Codex run the hooks: it skips an
// untrusted hook without a word.
const trustNote = "Codex runs these hooks only in a trusted project and once each is trusted: open `codex` here, approve the intenthook hooks in the hook review (/hooks), and approve again after any edit to " + HooksFile + "; in CI run `codex exec --dangerously-bypass-hook-trust`"

// Wire merges the hooks into .codex/hooks.json.
func Wire(root string) (protocol.Change, error) {
	// Codex runs a hook with the session's working directory, which may
	// lie below the project's, and names no project directory: an npm
	// install's hooks look for the project's binary from there up.
	ch, err := protocol.WireJSON(root, HooksFile, protocol.ForInstall(root, Agent(), Hooks()), "the Codex section of docs/agents.md")
	if err == nil {
		ch.Notes = append(ch.Notes, trustNote)
	}
	return ch, err
}

// Check checks the wiring and whether Codex's user configuration records a
// trust decision for the project's hooks.
func Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	configured, checks := protocol.CheckClaudeShaped(protocol.ClaudeShaped{
		Agent: Agent(), Root: root, Env: env, Project: HooksFile, User: "~/.codex/hooks.json",
		Hooks: Hooks(), Matches: hookconfig.Matches,
		Requirements: []protocol.Requirement{
			{Event: "PreToolUse", Subcommand: "pre", Names: []string{"apply_patch", "Bash"}},
			{Event: "PostToolUse", Subcommand: "post", Names: []string{"apply_patch", "Bash"}},
			{Event: "SessionStart", Subcommand: "context", Names: []string{"startup", "resume", "clear", "compact"}},
			{Event: "UserPromptSubmit", Subcommand: "context"},
		},
	})
	if !configured {
		return false, checks
	}
	checks = append(checks, checkTrust(root, env.Getenv))
	if c, ok := checkDoubleHooks(root); ok {
		checks = append(checks, c)
	}
	if c, ok := checkPatchDeny(env.GOOS); ok {
		checks = append(checks, c)
	}
	return true, checks
}

// checkTrust looks in ~/.codex/config.toml for the project's trust level and
// a trusted hash for its hooks file. The hash itself is Codex's own: a
// matching entry is the best evidence files can give, not a proof.
func checkTrust(root string, getenv func(string) string) protocol.Check {
	const name = "codex hook trust"
	home := ""
	if getenv != nil {
		home = getenv("CODEX_HOME")
		if home == "" && getenv("HOME") != "" {
			home = filepath.Join(getenv("HOME"), ".codex")
		}
	}
	data, err := os.ReadFile(filepath.Join(home, "config.toml"))
	if home == "" || err != nil {
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: "no ~/.codex/config.toml: Codex has trusted neither this project nor its hooks, and skips untrusted hooks silently", Hint: trustNote}
	}
	text := string(data)
	hooksPath := filepath.Join(root, filepath.FromSlash(HooksFile))
	switch {
	case !strings.Contains(text, "[projects.\""+root+"\"]"):
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: "the project is not trusted in ~/.codex/config.toml: Codex loads no project hooks", Hint: trustNote}
	case !strings.Contains(text, hooksPath) || !strings.Contains(text, "trusted_hash"):
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: "no trusted_hash for " + HooksFile + " in ~/.codex/config.toml: Codex skips the hooks silently", Hint: trustNote}
	}
	return protocol.Check{Status: protocol.Pass, Name: name, Detail: "~/.codex/config.toml trusts the project and records hashes for " + HooksFile + " (re-approve after editing it)"}
}

// Sample is a PreToolUse event for an edit of rel (root-relative) in
// session, as the agent sends it: for tests and make bench.
func Sample(root, rel, session, id string) []byte {
	return fmt.Appendf(nil, `{"session_id":%q,"turn_id":"t","transcript_path":"/h/sessions/bench.jsonl","cwd":%q,"hook_event_name":"PreToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: %s\n@@\n-x\n+x\n*** End Patch"},"tool_use_id":%q}`, session, root, rel, id)
}
