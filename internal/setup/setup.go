// Package setup scaffolds a governed workspace and wires intenthook into an
// agent and into git: what `intenthook init` does. Every step is idempotent
// and additive: a file that exists is kept, a list gains only the lines it
// lacks, the agent's settings gain only the hooks they lack, and nothing is
// overwritten without --force. It does not decide governance; the files it
// writes are the ones people then edit.
package setup

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/git"

	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Options are the inputs of Init.
type Options struct {
	Root    string // the workspace root (see Root)
	Agent   string // the agent whose hooks to wire: "claude" (the default)
	GitHook bool   // also install .git/hooks/pre-commit
	Sandbox bool   // also turn on the agent's OS sandbox for its shell tool
	Force   bool   // replace files intenthook wrote before (.intentignore, the git hook)
	Roles   bool   // also write example subagent definitions (.claude/agents/) for roles
	Export  string // "otlp": add an export: block to config.yaml (export at SessionEnd)
	// User: wire the agent in the user's own hooks file under Home (an
	// agent that reads hooks from nowhere else: Junie), and nothing else
	// (InitUser).
	User bool
	Home string
	Now  func() time.Time
}

// Action says what Init did to a file.
type Action string

// Actions.
const (
	Created  Action = "created"
	Kept     Action = "kept"
	Updated  Action = "updated"
	Replaced Action = "replaced"
)

// Change is one file Init looked at.
type Change struct {
	Action Action
	Path   string // workspace-relative, or absolute outside it
	Note   string
	// Notes are what a person must still do.
	Notes []string
}

func (c Change) String() string {
	s := fmt.Sprintf("%-8s %s", c.Action, c.Path)
	if c.Note != "" {
		s += " (" + c.Note + ")"
	}
	for _, n := range c.Notes {
		s += "\n         note: " + n
	}
	return s
}

// ConflictError is a file Init will not change: it is someone else's, or
// not in a shape Init can merge into.
type ConflictError struct {
	Path   string
	Reason string
	Hint   string
}

func (e *ConflictError) Error() string { return e.Path + ": " + e.Reason }

// Conflicts are the files Init left alone; the other steps were done.
type Conflicts []*ConflictError

func (cs Conflicts) Error() string {
	msgs := make([]string, len(cs))
	for i, c := range cs {
		msgs[i] = c.Error()
	}
	return strings.Join(msgs, "; ")
}

// Hints returns each conflict's hint.
func (cs Conflicts) Hints() []string {
	var out []string
	for _, c := range cs {
		if c.Hint != "" {
			out = append(out, c.Hint)
		}
	}
	return out
}

// Root decides where init scaffolds: --root when given, else the governed
// root already around wd, else the top of wd's git work tree, else wd.
func Root(ctx context.Context, flagRoot, wd string) (string, error) {
	if flagRoot != "" {
		return filepath.Abs(flagRoot)
	}
	if root := workspace.FindRoot(wd); root != "" {
		return root, nil
	}
	if top, err := git.Line(ctx, wd, "rev-parse", "--show-toplevel"); err == nil && top != "" {
		return filepath.FromSlash(top), nil
	}
	return wd, nil
}

// Init runs every step and returns what each did. Conflicts do not stop the
// other steps; they come back together as the error, of type Conflicts.
func Init(ctx context.Context, opts Options) ([]Change, error) {
	if opts.Agent == "" {
		opts.Agent = agent.Default
	}
	ag, err := agent.LookupIn(opts.Root, opts.Agent)
	if err != nil {
		return nil, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	// A workspace init makes (no catalog yet) lets people's own commits
	// through; one made before the setting keeps its rule.
	fresh := !exists(filepath.Join(opts.Root, filepath.FromSlash(intents.File)))
	steps := []func() (Change, error){
		func() (Change, error) { return writeCatalog(opts.Root, opts.Now()) },
		func() (Change, error) { return writeIntentIgnore(opts.Root, opts.Force) },
		func() (Change, error) { return ensureLine(opts.Root, ".gitignore", stateIgnore) },
		func() (Change, error) {
			return ensureLine(opts.Root, ".gitattributes", workspace.TextAttribute, mapUnion, lessonsUnion(opts.Root))
		},
		func() (Change, error) { return wire(ag, opts.Root) },
		func() (Change, error) { return markGoverned(opts.Root) },
	}
	if cfg, err := config.Load(opts.Root, nil); err == nil && cfg.Ask.Waits() && ag.PreTimeout != nil {
		steps = append(steps, func() (Change, error) {
			return fromAgent(protocol.RaisePreTimeout(opts.Root, ag, cfg.Ask.Timeout))
		})
	}
	if ag.MCP != nil {
		steps = append(steps, func() (Change, error) { return fromAgent(ag.MCP.Register(opts.Root)) })
	}
	if opts.Sandbox {
		if ag.Sandbox == nil {
			return nil, fmt.Errorf("%s has no OS sandbox intenthook can configure (Claude Code and Codex do)", ag.Title)
		}
		steps = append(steps, func() (Change, error) {
			c, err := ag.Sandbox(opts.Root, workspace.SandboxReadOnlyAt(workspace.Governance(agent.Governance()), opts.Root))
			return fromAgent(c, err)
		})
	}
	if opts.GitHook {
		steps = append(steps,
			func() (Change, error) { return installGitHook(ctx, opts.Root, opts.Force) },
			func() (Change, error) { return installCommitMsgHook(ctx, opts.Root, opts.Force) })
		if preCommitConfig(ctx, opts.Root) != "" {
			steps = append(steps, func() (Change, error) { return installPreCommitEntry(ctx, opts.Root) })
		}
	}
	if opts.Roles {
		for _, ra := range roleAgents {
			steps = append(steps, func() (Change, error) { return writeRoleAgent(opts.Root, ra.name, ra.text) })
		}
	}
	switch opts.Export {
	case "":
	case "otlp":
		steps = append(steps, func() (Change, error) { return writeExport(opts.Root, ag) })
	default:
		return nil, fmt.Errorf("--export %q: the only export is otlp", opts.Export)
	}
	if fresh {
		steps = append(steps, func() (Change, error) { return writePeople(opts.Root) })
	}
	var changes []Change
	var conflicts Conflicts
	for _, step := range steps {
		c, err := step()
		var ce *ConflictError
		switch {
		case errors.As(err, &ce):
			conflicts = append(conflicts, ce)
		case err != nil:
			return changes, err
		default:
			changes = append(changes, c)
		}
	}
	if len(conflicts) > 0 {
		return changes, conflicts
	}
	return changes, nil
}

// InitUser wires opts.Agent in the user's hooks file under opts.Home ($HOME
// when empty), merging with what the file holds: the one file init --user
// writes. The workspace itself is init's without --user.
func InitUser(opts Options) (Change, error) {
	if opts.Home == "" {
		if opts.Home = os.Getenv("HOME"); opts.Home == "" {
			opts.Home, _ = os.UserHomeDir()
		}
	}
	ag, err := agent.LookupIn(opts.Root, opts.Agent)
	if err != nil {
		return Change{}, err
	}
	if ag.WireUser == nil {
		return Change{}, fmt.Errorf("%s is wired in the repository, not per user: run intenthook init --agent %s without --user", ag.Title, ag.Name)
	}
	c, err := fromAgent(ag.WireUser(opts.Home))
	var ce *ConflictError
	if errors.As(err, &ce) {
		return c, Conflicts{ce}
	}
	return c, err
}

// markGoverned records, under the work tree's git directory, that root is
// governed: should .orchestration/ go away as a whole, the hooks deny
// what may change anything (governance_missing) instead of reading the
// work tree as ungoverned. Outside git there is nowhere to keep it.
func markGoverned(root string) (Change, error) {
	path, added, err := workspace.Mark(root)
	switch {
	case err != nil:
		return Change{}, fmt.Errorf("mark the work tree governed: %w", err)
	case path == "":
		return Change{Action: Kept, Path: workspace.GovernedMarker, Note: "not a git work tree: nothing marks it governed should .orchestration/ go away"}, nil
	case !added:
		return Change{Action: Kept, Path: displayPath(root, path)}, nil
	}
	return Change{Action: Created, Path: displayPath(root, path), Note: "marks this work tree governed: without its catalog the hooks refuse changes until the rules are back or a person runs intenthook uninstall"}, nil
}

// writeCatalog creates the example catalog. An existing catalog is always
// kept, --force or not: it is the one file init's example could destroy
// real work in.
func writeCatalog(root string, now time.Time) (Change, error) {
	path := filepath.Join(root, filepath.FromSlash(intents.File))
	if exists(path) {
		return Change{Action: Kept, Path: intents.File, Note: "an existing catalog is never replaced"}, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Change{}, err
	}
	if err := state.WriteFile(path, ExampleCatalog(now), 0o644, true); err != nil {
		return Change{}, err
	}
	return Change{Action: Created, Path: intents.File, Note: "one example PENDING intent: edit it"}, nil
}

// writeIntentIgnore creates the example .intentignore; an existing one is
// kept unless force, with a note on what committing the set-up needs.
func writeIntentIgnore(root string, force bool) (Change, error) {
	path := filepath.Join(root, filepath.FromSlash(workspace.IgnoreFile))
	action := Created
	if old, err := os.ReadFile(path); err == nil {
		if string(old) == exampleIgnoreText {
			return Change{Action: Kept, Path: workspace.IgnoreFile, Note: ""}, nil
		}
		if !force {
			return Change{Action: Kept, Path: workspace.IgnoreFile, Note: missingIgnoreNote(old)}, nil
		}
		action = Replaced
	} else if !errors.Is(err, fs.ErrNotExist) {
		return Change{}, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Change{}, err
	}
	if err := state.WriteFile(path, []byte(exampleIgnoreText), 0o644, true); err != nil {
		return Change{}, err
	}
	return Change{Action: action, Path: workspace.IgnoreFile, Note: ""}, nil
}

// missingIgnoreNote says which of the set-up files an existing .intentignore
// does not exempt: committing them will be refused as out of scope.
func missingIgnoreNote(data []byte) string {
	ig := workspace.ParseIgnore(data)
	var missing []string
	for _, p := range []string{".gitignore", ".gitattributes", ".claude/settings.json"} {
		if !ig.Match(p, false) {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return "it does not exempt " + strings.Join(missing, ", ") + ": precommit will call them out_of_scope; --force replaces it with the example"
}

// Lines init makes sure of. The ledger needs no merge attribute: its
// segments only ever meet identical blobs or new files in a merge (an
// existing union line for the legacy file is kept). The intent map and the
// lessons file are lines hooks add and people edit: a union merge keeps
// both branches' lines. No byte under .orchestration/ may change in a
// checkout (a CRLF conversion would break the ledger's hashes).
const (
	stateIgnore = ".orchestration/state/"
	mapUnion    = ".orchestration/intent_map.md merge=union"
)

// lessonsUnion is the union attribute of the lessons file (config
// lessons_file, read when it can be).
func lessonsUnion(root string) string {
	file := config.Default().LessonsFile
	if c, err := config.Load(root, nil); err == nil && c.LessonsFile != "" {
		file = c.LessonsFile
	}
	return file + " merge=union"
}

// ensureLine appends each line to the file at name unless an equivalent
// line is there, creating the file when needed.
func ensureLine(root, name string, lines ...string) (Change, error) {
	path := filepath.Join(root, name)
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Change{}, err
	}
	exists := err == nil
	var missing []string
	for _, line := range lines {
		found := false
		for _, l := range strings.Split(string(old), "\n") {
			found = found || sameEntry(l, line)
		}
		if !found {
			missing = append(missing, line)
		}
	}
	if len(missing) == 0 {
		return Change{Action: Kept, Path: name, Note: "has " + strings.Join(lines, ", ")}, nil
	}
	data := old
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	for _, line := range missing {
		data = append(data, line+"\n"...)
	}
	if err := state.WriteFile(path, data, modeOf(path, 0o644), true); err != nil {
		return Change{}, err
	}
	if exists {
		return Change{Action: Updated, Path: name, Note: "added " + strings.Join(missing, ", ")}, nil
	}
	return Change{Action: Created, Path: name, Note: strings.Join(missing, ", ")}, nil
}

// sameEntry reports whether an existing .gitignore or .gitattributes line
// already says what want says: the same path (with or without a leading or
// trailing slash) and, for attributes, every attribute of want.
func sameEntry(have, want string) bool {
	hf, wf := strings.Fields(have), strings.Fields(want)
	if len(hf) == 0 || strings.HasPrefix(hf[0], "#") {
		return false
	}
	norm := func(p string) string { return strings.Trim(p, "/") }
	if norm(hf[0]) != norm(wf[0]) {
		return false
	}
	for _, attr := range wf[1:] {
		found := false
		for _, h := range hf[1:] {
			found = found || h == attr
		}
		if !found {
			return false
		}
	}
	return true
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// modeOf keeps an existing file's permissions across a rewrite.
func modeOf(path string, def os.FileMode) os.FileMode {
	if st, err := os.Stat(path); err == nil {
		return st.Mode().Perm()
	}
	return def
}

// wire merges the agent's hooks into its configuration.
func wire(ag protocol.Agent, root string) (Change, error) {
	return fromAgent(ag.Wire(root))
}

// fromAgent turns what an agent package did into Init's terms.
func fromAgent(c protocol.Change, err error) (Change, error) {
	var conflict *protocol.Conflict
	if errors.As(err, &conflict) {
		return Change{}, &ConflictError{Path: conflict.Path, Reason: conflict.Reason, Hint: conflict.Hint}
	}
	if err != nil {
		return Change{}, err
	}
	return Change{Action: Action(c.Action), Path: c.Path, Note: c.Detail, Notes: c.Notes}, nil
}
