package workspace

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/lessons"
	"github.com/intenthook/intenthook/internal/remoteclaims"
	"github.com/intenthook/intenthook/internal/scopereq"
	"github.com/intenthook/intenthook/internal/state"
)

// own are intenthook's governance files. Each agent adds its own rows
// (protocol.Agent.Governance): Governance joins them, between these and
// git's.
var own = governed.Table{
	{Path: ".orchestration/active_intents.yaml", Use: governed.Protected | governed.Guarded | governed.ReadOnly | governed.Sidecar, Reason: "the catalog: intents, scopes, who may do what"},
	{Path: ".orchestration/config.yaml", Use: governed.Protected | governed.Guarded | governed.ReadOnly | governed.Sidecar | governed.Listed, Reason: "the settings: fail mode, protection, the shell's checks"},
	{Path: ".orchestration/.intentignore", Use: governed.Protected | governed.Guarded | governed.ReadOnly | governed.Sidecar | governed.Listed, Reason: "what no intent governs"},
	{Path: RootIgnoreFile, Use: governed.Protected | governed.Guarded | governed.ReadOnly | governed.Sidecar | governed.Listed, Reason: "what no intent governs (the workspace root's file, read before .orchestration/.intentignore)"},
	// A workspace's own agents: a description says which tools write and
	// where their inputs name the file, so a change can widen every scope
	// (a write tool mapped to read). The hook of that agent also watches
	// its description whole (described.Rows, through
	// the runner's RootRows).
	{Path: ".orchestration/agents", Use: governed.Protected | governed.ReadOnly, Reason: "the workspace's agent descriptions: renaming the directory would take them along"},
	{Path: ".orchestration/agents/**", Use: governed.Protected | governed.ReadOnly | governed.Sidecar | governed.Listed, Reason: "a workspace's agent description: how its events are read (a write tool mapped to read widens every scope)"},
	// Not read-only in a sandbox: a commit, a lesson or an anchor is
	// written there from an agent's shell.
	{Path: ".orchestration/agent_trace.jsonl", Use: governed.Protected | governed.Guarded | governed.Sidecar, Watch: governed.AppendOnly, Reason: "the legacy ledger, from before segments: its lines stay where they are, and hooks no longer append to it"},
	{Path: ".orchestration/ledger", Use: governed.Protected, Reason: "the segments' directory: renaming it would take every segment along"},
	{Path: ".orchestration/ledger/**", Use: governed.Protected | governed.Guarded | governed.Sidecar, Watch: governed.Segments, Reason: "the ledger's segments: only hooks add them, a sealed one never changes, the active one only grows"},
	{Path: ".orchestration/state/**", Use: governed.Protected | governed.Sidecar, Reason: "session state, the guard's copies, the catalog cache"},
	{Path: ".orchestration/state/catalog.cache", Use: governed.Guarded, Watch: governed.Cache, Reason: "the catalog as the hooks read it"},
	// Read-only in a sandbox as a directory: only hooks, which run outside
	// it, write there, while the rest of state/ takes writes from the
	// intenthook commands an agent runs (select, lesson) and precommit.
	{Path: ".orchestration/state/shells.log", Use: governed.ReadOnly, Reason: "the windows of agents' shell commands: a person's lever run by a process one of them left behind is the agent's (lever_by_agent); only hooks write it"},
	{Path: ".orchestration/state/pending", Use: governed.ReadOnly, Reason: "the pictures pre leaves for the call's post (the guard's, the backstop's): a command that rewrites or uses one up goes unjudged"},
	{Path: ".orchestration/state/plugins", Use: governed.Guarded, Watch: governed.StateDir, Reason: "a plugin's marker hands its session's denies to the plugin"},
	{Path: ".orchestration/state/precommit", Use: governed.Guarded, Watch: governed.StateDir, Reason: "precommit's caches: a ledger prefix they remember is not verified again"},
	{Path: ledger.WriterFile, Use: governed.Guarded, Reason: "this work tree's writer id and newest segment: a rollover seals the segment it names, so a program that points it elsewhere leaves the sealed one open"},
	{Path: ".orchestration/state/default.json", Use: governed.Guarded, Reason: "the workspace's default intent, a person's lever: it binds every session without a selection"},
	// Not read-only in a sandbox: submit, run in an agent's shell, writes
	// the review state, and every hook appends to the sessions' counters
	// (a hook of an agent started in the sandboxed shell would run there).
	{Path: ".orchestration/state/reviews", Use: governed.Guarded, Watch: governed.Journaled, Reason: "the review state: the submissions the hook vouched for, what submit hands the hook after it, and the notes naming a person's reject record; written by hooks, submit and a person's reject, each write journaled"},
	{Path: ".orchestration/state/summary", Use: governed.Guarded, Watch: governed.Mirrored, Reason: "the sessions' counters: only hooks append to them, each line first to the guard's copy, which the ledger's session summaries are made from; the guard compares the calling session's log alone"},
	// Read-only in a sandbox, with the hooks' copies: only hooks and a
	// person's intenthook budget write them, both outside it, and pre
	// holds budgets to the copies.
	{Path: ".orchestration/state/spend", Use: governed.Guarded | governed.ReadOnly, Watch: governed.Mirrored, Reason: "each intent's spend counters and the raises of its budget: pre refuses writes once they reach the intent's budget (budget_exceeded); hooks and a person's intenthook budget append to them, each line first to the guard's copy, which is what is read, and compact both to their last line past 4 KiB; every intent's log is compared, under its lock where it differs from its copy; this work tree's (docs/budgets.md)"},
	{Path: ".orchestration/state/guard/mirror/spend", Use: governed.ReadOnly, Reason: "the hooks' copies of the intents' spend counters, the ones pre reads (state/guard/ is protected as a whole): a program that rewrote a copy and its log together would lower a spend the guard cannot see"},
	// Read-only in a sandbox: only the waiting hook and a person's
	// intenthook ask write there, both outside it.
	{Path: ".orchestration/state/asks", Use: governed.Guarded | governed.ReadOnly, Watch: governed.Journaled, Reason: "pending asks (ask.via: wait) and a person's answers to them, in a workspace outside git: an answer lets a call run or denies it; written by the waiting hook and a person's intenthook ask, each write journaled, and the hook believes an answer only with its journal line (docs/asks.md)"},
	// Read-only in a sandbox: only hooks and the claims work they start
	// detached write there, outside it.
	{Path: ".orchestration/state/" + remoteclaims.RecordsDir, Use: governed.Guarded | governed.ReadOnly, Watch: governed.Journaled, Reason: "this work tree's sessions' claims on claims.remote: when a hook call starts a renewal, what status shows a teammate's machine cannot see; written by the select hook and the renewals and releases it starts, each write journaled; nothing about another machine's claim is read from them, always from the remote; this work tree's (docs/workspace.md)"},
	// Each file a hook reads has a row of its own, with who writes it and
	// why it may be believed (TestHookReadersHaveRows holds the hooks to
	// it); state/** above only says what no agent writes.
	{Path: ".orchestration/.gitignore", Use: governed.Protected | governed.Guarded | governed.Sidecar | governed.Listed, Reason: "what git leaves out under .orchestration/ (init writes it: state/ stays out of commits); the hooks' git status reads it"},
	{Path: ".orchestration/state/sessions", Use: governed.Guarded, Watch: governed.Session, Reason: "each session's selection, delegations and recorded hashes: only hooks write them; the calling session's own is pictured whole around its commands"},
	{Path: ".orchestration/state/denials", Use: governed.Guarded, Watch: governed.Session, Reason: "each session's recent denials, for loop detection: only hooks write them; the calling session's own is pictured whole around its commands"},
	{Path: ".orchestration/state/spool", Use: governed.Guarded, Watch: governed.StateDir, Reason: "records a hook could not append under a busy lock, which the next append writes to the ledger: only the appender writes here, each file journaled; one planted by a program is taken out"},
	{Path: ".orchestration/state/guard", Use: governed.Protected | governed.Sidecar, Reason: "the guard's copies (each checked against the hash its picture holds before it is put back), index, the journal of hook writes and the hooks' copies of the counters; without an OS sandbox a program can write a journal line too (docs/threat-model.md)"},
	{Path: ".orchestration/state/locks", Use: governed.Protected | governed.Sidecar, Reason: "lock files: only their locks are taken, no byte of them is read"},
	{Path: ".orchestration/state/ledger@*.head", Use: governed.Protected | governed.Sidecar, Reason: "each branch's newest ledger record and active segment, a cache the appender reads under the ledger lock and checks against the segment's last line (a tail it does not find is recorded as lost)"},
	{Path: ".orchestration/state/anchors.jsonl", Use: governed.Protected | governed.Sidecar, Reason: "the anchors' index, which contexts show fenced as an agent's words: intenthook anchor writes it from an agent's shell, and what a command adds is attributed to its call from the ledger"},
	{Path: ".orchestration/state/" + RecentDir, Use: governed.Protected | governed.Sidecar, Reason: "each intent's memo of where its last changes are in the ledger and how far the search for them went, which a context's recent trace resumes from: each line it names is read again from the ledger and checked, so a forged memo can hide a change from a context, never add one"},
	{Path: ".orchestration/state/seen", Use: governed.Protected | governed.Sidecar, Reason: "the files each session was shown, by hash: a write to one of them is no stale_file; a forged line lets the session write a file it did not read again, within its scope"},
	{Path: ".orchestration/intent_map.md", Use: governed.Sidecar, Reason: "written by the hooks from the ledger"},
	// A lessons file config.yaml names takes this one's place (Sidecar,
	// and the guard's: outside .orchestration/ only its Lessons Learned
	// section is watched). Not read-only in a sandbox: intenthook lesson
	// writes it from an agent's shell.
	{Path: lessons.DefaultFile, Use: governed.Sidecar | governed.Guarded, Watch: governed.Whole, Reason: "lessons the hooks and intenthook lesson write; every later session's context reads them, so a program may not rewrite them"},
	// An npm install's hooks run the project's own binaries (docs/install.md):
	// one replaced by an agent would answer every later call. The whole
	// package is not guarded (the guard would hash four large binaries
	// around every shell call); the two programs a hook runs are pictured
	// by a stat each. Read-only in a sandbox as directories, and npm's
	// links in node_modules/.bin one by one (the directory holds every
	// package's links): a person's npx intenthook runs them.
	{Path: "node_modules/.bin/intenthook", Use: governed.Protected | governed.ReadOnly, Reason: "npm's link to the binary: a person's npx intenthook runs it, and older wiring did"},
	{Path: "node_modules/.bin/intenthook-full", Use: governed.Protected | governed.ReadOnly, Reason: "npm's link to the full binary beside it"},
	{Path: "node_modules/.bin/intenthook-mcp", Use: governed.Protected | governed.ReadOnly, Reason: "npm's link to the MCP server"},
	{Path: "node_modules/.bin/intenthook-export", Use: governed.Protected | governed.ReadOnly, Reason: "npm's link to the exporter the full binary runs"},
	{Path: "node_modules/.bin/intenthook-attest", Use: governed.Protected | governed.ReadOnly, Reason: "npm's link to the attestation binary the full binary runs"},
	{Path: "node_modules/.bin/intenthook-console", Use: governed.Protected | governed.ReadOnly, Reason: "npm's link to the console binary the full binary runs, where a person's answers are checked"},
	{Path: "node_modules/intenthook/**", Use: governed.Protected, Reason: "the binaries an npm install's hook wiring runs"},
	{Path: "node_modules/@intenthook/**", Use: governed.Protected, Reason: "the binaries an npm install's hook wiring runs (the platform's package)"},
	{Path: "node_modules/intenthook", Use: governed.ReadOnly, Reason: "the binaries an npm install's hook wiring runs"},
	{Path: "node_modules/@intenthook", Use: governed.ReadOnly, Reason: "the binaries an npm install's hook wiring runs (the platform's package)"},
	{Path: "node_modules/intenthook/bin/intenthook", Use: governed.Guarded, Watch: governed.Program, Reason: "the program an npm install's hook wiring runs: a command that changes it is a violation, and every later call is denied (hook_replaced) until a person reinstalls intenthook"},
	{Path: "node_modules/intenthook/bin/intenthook-full", Use: governed.Guarded, Watch: governed.Program, Reason: "the full binary the hook binary runs from beside itself (a catalog's parse, a lifecycle edit): as much the hooks' program"},
	// What git runs at a person's commit, kept in the work tree: husky 9's
	// scripts (its stubs under .husky/_ are core.hooksPath, which git's
	// hooks row watches) and the pre-commit framework's configuration.
	// Not read-only in a sandbox: a missing read-only path appears there
	// as a stand-in that stops git add -A, and most workspaces have none.
	{Path: ".husky/pre-commit", Use: governed.Rules, Watch: governed.Whole, Reason: "husky's pre-commit script, which runs intenthook precommit (init --git-hook adds it): rewritten, a commit goes unchecked"},
	{Path: ".husky/commit-msg", Use: governed.Rules, Watch: governed.Whole, Reason: "husky's commit-msg script, which marks a person's commit (intenthook precommit --commit-msg): rewritten, an agent's commit could pass unmarked checks or a person's go unmarked"},
	{Path: ".pre-commit-config.yaml", Use: governed.Rules, Watch: governed.Whole, Reason: "the pre-commit framework's hooks, which run intenthook precommit (init --git-hook adds it) and whatever programs it names at a person's commit"},
	{Path: HookReplacedFile, Use: governed.Guarded, Reason: "the programs the hooks run that an agent's command replaced: while one is still in place pre denies every call that may change anything (hook_replaced); only hooks write it"},
}

// HookReplacedFile names, for pre, the programs the hooks run that an
// agent's shell command replaced (the gate writes it after the guard
// found the change): JSON, written by hooks alone.
const HookReplacedFile = ".orchestration/state/hook-replaced"

// TextAttribute is the .gitattributes line init writes and doctor looks
// for: no checkout may convert line ends under .orchestration/ (a
// core.autocrlf=true clone would change ledger bytes, and every hash).
const TextAttribute = ".orchestration/** -text"

// gits are git's files: any of them changes what git runs or records.
var gits = governed.Table{
	{Path: ".git/**", Use: governed.Protected, Reason: "git's own files: history, refs, hooks, config"},
	{Path: "**/.git/**", Use: governed.Protected, Reason: "a nested repository's git files"},
	{Path: ".git/hooks", Use: governed.Guarded | governed.ReadOnly, Watch: governed.GitHooks, Reason: "git's hooks, wherever core.hooksPath puts them: precommit runs from there"},
	{Path: ".git/config", Use: governed.Guarded | governed.ReadOnly, Watch: governed.GitConfig, Reason: "git's config: hooksPath, aliases, filters make git run programs"},
	// Under .git/** (protected); one per repository, in the common git
	// directory (in a linked work tree, outside the workspace).
	// One per repository, in the common git directory (in a linked work
	// tree, outside the workspace): the guard watches it there, and the
	// sandbox's list names it there (SandboxReadOnlyAt).
	{Path: ".git/" + state.ClaimsDir, Use: governed.Guarded | governed.ReadOnly, Watch: governed.Claims, Reason: "the sessions' claims of every work tree of the repository (exclusive_intents): a claim removed lets another work tree's session take the intent; only hooks and a person's select write them, each a pointer its holder's session state confirms"},
	{Path: ".git/" + asks.CommonDir, Use: governed.Guarded | governed.ReadOnly, Watch: governed.CommonJournaled, Reason: "the repository's pending asks (ask.via: wait), standing answers and a person's answers, shared by its work trees: an answer lets a call run or denies it; written by the waiting hook, intenthook-mcp and a person's intenthook ask or console, each write journaled in the repository's journal beside them, and an answer is believed only with its line (docs/asks.md)"},
	{Path: ".git/" + asks.CommonJournal, Use: governed.ReadOnly, Reason: "the repository's journal of the writes to its pending asks, from every work tree; without an OS sandbox a program can write a line too (docs/threat-model.md)"},
	{Path: ".git/" + scopereq.CommonFile, Use: governed.ReadOnly, Reason: "the scope changes agents asked for (request_scope_change), one file for the repository's work trees: a person approves from its listing; written by intenthook-mcp and a person's intents scope"},
	{Path: ".git/" + remoteclaims.CloneFile, Use: governed.Guarded | governed.ReadOnly, Watch: governed.GitMarker, Reason: "this clone's id in claims on claims.remote: a claim naming it is this clone's own, renewed and released by its sessions; a copy of another clone's id would let this one overwrite that clone's claims"},
	{Path: ".git/" + remoteclaims.ModeFile, Use: governed.Guarded | governed.ReadOnly, Watch: governed.GitMarker, Reason: "the form of claims claims.remote takes (the branch intenthook/claims where the host refuses refs/intenthook/*): where a selection writes its claim; claims are read in both forms whatever it says"},
	{Path: ".git/" + GovernedMarker, Use: governed.Guarded | governed.ReadOnly, Watch: governed.GitMarker, Reason: "the marker init writes: this work tree is governed, so a catalog that went away with .orchestration/ is governance_missing, not an ungoverned work tree; a person's intenthook uninstall removes it, and a command that removes or changes it is put back"},
}

// Governance is the one table of governance files: intenthook's own rows,
// the agents' (agents: every agent's rows, agent.Governance; a session of
// one agent may write no other agent's wiring either), git's. Protected
// paths, the guard's watch list, an OS sandbox's read-only list and
// precommit's and audit's sidecars are derived from it. Package workspace
// knows no agent: what knows them makes the table, once per process, and
// hands it on (Load).
func Governance(agents []governed.Table) governed.Table {
	n := len(own) + len(gits)
	for _, rows := range agents {
		n += len(rows)
	}
	t := make(governed.Table, 0, n) // one allocation: the table is built on every hook call
	t = append(t, own...)
	for _, rows := range agents {
		t = append(t, rows...)
	}
	return append(t, gits...)
}

// GovernanceChange says why a change to rel is listed by precommit and
// audit (a Listed row's reason in t); ok is false for any other path.
func GovernanceChange(t governed.Table, rel string) (reason string, ok bool) {
	f, ok := t.Row(rel, governed.Listed)
	return f.Reason, ok
}

// SandboxReadOnly lists what an OS sandbox must keep read-only for the
// rules of t to hold.
func SandboxReadOnly(t governed.Table) []string { return t.Paths(governed.ReadOnly) }

// SandboxReadOnlyAt is SandboxReadOnly for the work tree at root: in a
// linked work tree (git worktree add), whose .git is a file, git's rows
// name where git keeps those files, relative to root: git's config, its
// hooks, the claims and the governed marker, in the common git directory.
// In a repository's main work tree the list is SandboxReadOnly's.
func SandboxReadOnlyAt(t governed.Table, root string) []string {
	list := SandboxReadOnly(t)
	if st, err := os.Lstat(filepath.Join(root, ".git")); err != nil || st.IsDir() {
		return list
	}
	top, _, ok := git.Top(root)
	common, _ := git.CommonDir(root)
	if !ok || filepath.Clean(top) != filepath.Clean(root) {
		return list
	}
	out := make([]string, 0, len(list))
	for _, p := range list {
		rest, isGit := strings.CutPrefix(p, ".git/")
		if !isGit {
			out = append(out, p)
			continue
		}
		rel, err := filepath.Rel(root, filepath.Join(common, filepath.FromSlash(rest)))
		if err != nil {
			rel = filepath.Join(common, filepath.FromSlash(rest))
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// initFile says why rel is a git file init writes lines into: not a
// governance file, but a commit that adopts the rules holds it for that
// reason.
func initFile(rel string) (reason string, ok bool) {
	switch rel {
	case ".gitignore":
		return "git's ignore file (init keeps .orchestration/state/ out of commits)", true
	case ".gitattributes":
		return "git's attributes (init keeps every byte under .orchestration/ as written)", true
	}
	return "", false
}

// AdoptionReason says what rel is when the commit that adopts the rules
// holds it: any row of t, or a git file init writes; ok is false for any
// other path.
func AdoptionReason(t governed.Table, rel string) (reason string, ok bool) {
	if f, ok := t.Row(rel, ^governed.Use(0)); ok {
		return f.Reason, true
	}
	return initFile(rel)
}
