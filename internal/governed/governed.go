// Package governed says what a governance file is: one row of the table
// package workspace keeps (workspace.Governance), with what intenthook does
// with the path and why. It holds the row's shape and the lists a table
// yields; the rows themselves are workspace's own and each agent's (its
// package's protocol.Agent.Governance), so that adding a file is adding a
// line where the file belongs.
package governed

import (
	"path"
	"strings"
)

// Use says what applies to a governance file; a row names one or more.
type Use uint8

const (
	// Protected: an agent's write is denied (protect_governance_files).
	Protected Use = 1 << iota
	// Guarded: watched while a shell command runs, and a change no hook
	// made is undone (how, the row's Watch says).
	Guarded
	// ReadOnly: kept read-only by an agent's OS sandbox (init --sandbox).
	ReadOnly
	// Sidecar: intenthook's and people's own file under .orchestration/:
	// precommit and audit do not judge it against an intent's scope.
	Sidecar
	// Listed: precommit and audit list a change to it with its author, as
	// they list the catalog's changes intent by intent: a change to the
	// rules is a person's, and a reviewer should see who made it.
	Listed
)

// Wiring is what an agent's hook settings are: rewritten, the agent's
// next session would run without intenthook. A commit may change them
// without an intent (a set-up commit), and the change is listed.
const Wiring = Protected | Guarded | ReadOnly | Sidecar | Listed

// Rules is an agent's wiring file that its sandbox does not keep
// read-only (a directory row does).
const Rules = Protected | Guarded | Sidecar | Listed

// Watch says how the guard compares a Guarded file.
type Watch uint8

const (
	// Whole: any change counts.
	Whole Watch = iota
	// Cache: derived from the catalog; a change is undone by removing it.
	Cache
	// AppendOnly: only its existing bytes count; it may grow.
	AppendOnly
	// GitConfig: git's config file, wherever git keeps it; only the keys
	// that make git run a program count.
	GitConfig
	// GitHooks: the files of git's hooks directory, wherever git keeps it.
	GitHooks
	// HookSettings: an agent's JSON hook settings (Claude-shaped, or a
	// flat hooks file), judged by effect: a change counts when it makes
	// intenthook's hooks fire less or adds a hook, or changes one of the
	// row's Hooks.Keys; only the hooks and those keys are put back, the
	// rest of the file (which the agent's client writes too) is kept.
	HookSettings
	// StateDir: a directory of state files that loosen a decision; only
	// hook processes write there, and a file anything else wrote during
	// a command is taken out.
	StateDir
	// Segments: the ledger's segment files below the directory; one added,
	// removed or changed (but for the active one's growth) counts.
	Segments
	// Program: a program the hook wiring runs (an npm install's binary),
	// pictured by a stat of it alone (device, inode, size, change time):
	// too large to copy or hash around every command, and impossible to
	// put back, any change counts and stands until a person reinstalls.
	Program
	// Journaled: a directory of state files that hooks, intenthook's
	// commands and a person's commands write, each write journaled (the
	// review state): every file is pictured whole, and a change no journal
	// line excuses is put back, a file added taken out.
	Journaled
	// Mirrored: a directory of append-only logs hooks append to on every
	// call (the sessions' counters): the hooks append to a copy of each
	// first, and a log that is no prefix of its copy is put back from it.
	Mirrored
	// GitMarker: a file under the work tree's git directory, wherever
	// git keeps it (a linked work tree's is outside the workspace); the
	// row's path names it under ".git/". Any change counts.
	GitMarker
	// Session: a directory of one file per session, which only hooks
	// write; the gate pictures the calling session's own file whole
	// around its commands (one file per session would make every picture
	// grow), and the guard lists the directory for nothing else.
	Session
	// Claims: the repository's claims, one file per holder below a
	// directory under the common git directory, wherever git keeps it
	// (the row names it under .git/, as a main work tree has it). Each
	// file is pictured whole; one removed or changed is put back unless
	// its holder no longer holds the intent (whose state the gate reads);
	// one added stays: a claim is a pointer its holder's session state
	// must confirm.
	Claims
	// CommonJournaled: a directory under the common git directory, one
	// per repository (the row names it under .git/), pictured file by file
	// as Journaled is; its writers journal in the repository's journal
	// beside it (.git/intenthook/journal), since another work tree's hook
	// or person writes there too.
	CommonJournaled
)

// File is one governance file.
type File struct {
	// Path is root-relative and slash-separated: a file, a directory
	// ("dir", for a sandbox), or a glob ("dir/**", "**/dir/**").
	Path  string
	Use   Use
	Watch Watch // for Guarded files
	// Hooks, for a HookSettings row: how the file is judged.
	Hooks  *Hooks
	Reason string
}

// Hooks is how the guard judges one agent's JSON hook settings by effect.
type Hooks struct {
	// Keys are the top-level keys besides "hooks" that decide whether the
	// hooks fire, or that make the agent start a program of the file's
	// choosing (an off switch, MCP servers): compared and put back whole.
	Keys []string
	// Matchers are the matchers init writes into the file: the tool names
	// in them, with the ones in the file's own matchers, are the governed
	// tools a changed matcher of intenthook's must still select.
	Matchers []string
}

// Table is a list of governance files, in the order lists are derived.
type Table []File

// Paths lists the paths of the rows that have use, each once, in the
// table's order.
func (t Table) Paths(use Use) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range t {
		if f.Use&use != 0 && !seen[f.Path] {
			seen[f.Path] = true
			out = append(out, f.Path)
		}
	}
	return out
}

// Guarded lists the Guarded rows, each path once, in the table's order.
func (t Table) Guarded() []File {
	var out []File
	seen := map[string]bool{}
	for _, f := range t {
		if f.Use&Guarded != 0 && !seen[f.Path] {
			seen[f.Path] = true
			out = append(out, f)
		}
	}
	return out
}

// Sidecar reports whether rel is one of the table's Sidecar files. A
// "dir/**" row covers what lies below dir, not dir itself.
func (t Table) Sidecar(rel string) bool {
	_, ok := t.Row(rel, Sidecar)
	return ok
}

// Row returns the first row with use that names rel: its path, a "dir/**"
// row for what lies below dir, or a pattern with * (path.Match).
func (t Table) Row(rel string, use Use) (File, bool) {
	for _, f := range t {
		if f.Use&use == 0 {
			continue
		}
		if dir, ok := strings.CutSuffix(f.Path, "/**"); ok {
			if strings.HasPrefix(rel, dir+"/") {
				return f, true
			}
		} else if rel == f.Path {
			return f, true
		} else if strings.Contains(f.Path, "*") {
			if ok, _ := path.Match(f.Path, rel); ok {
				return f, true
			}
		}
	}
	return File{}, false
}
