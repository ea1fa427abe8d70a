package gate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/anchors"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/lessons"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// CodeGovernanceTampered is the violation of a shell command that changed
// the rules: the catalog, config, ignore file, an agent's hook settings,
// git's hooks or risky config keys, or the ledger's existing bytes.
const CodeGovernanceTampered = "governance_tampered"

// guardTargets lists what the guard watches in this workspace, and for
// the call's session: its selection and its denial log, which hooks alone
// write (only the session's own: one file per session of the workspace
// would make every picture grow with them).
func (g *Gate) guardTargets() ([]guard.Target, string) {
	targets, hooks := watched(g.env, g.Root)
	targets = lessonsTarget(targets, g.Config.LessonsFile)
	return append(targets,
		guard.Target{Rel: state.SessionFile(g.call.SessionID), Kind: guard.Whole, Fresh: true},
		guard.Target{Rel: state.DenialsFile(g.call.SessionID), Kind: guard.Whole, Fresh: true},
	), hooks
}

// sessionState reports whether rel is a session's own state under
// state/sessions/ or state/denials/, which only hooks write.
func sessionState(rel string) bool {
	return strings.HasPrefix(rel, state.StateDir+"/sessions/") || strings.HasPrefix(rel, state.StateDir+"/denials/")
}

// lessonsTarget points the table's lessons-file row at the lessons file
// config.yaml names: outside .orchestration/ (a root CLAUDE.md the agent
// also keeps its memory in) only its Lessons Learned section is watched;
// a name outside the workspace is not a lessons file (lessons refuses it).
func lessonsTarget(targets []guard.Target, file string) []guard.Target {
	file = cmp.Or(file, lessons.DefaultFile)
	out := targets[:0:0]
	for _, t := range targets {
		if t.Rel == lessons.DefaultFile {
			if !filepath.IsLocal(filepath.FromSlash(file)) {
				continue
			}
			t.Rel = file
			if !strings.HasPrefix(file, ".orchestration/") {
				t.Kind = guard.Lessons
			}
		}
		out = append(out, t)
	}
	return out
}

func watched(_ *Env, root string) ([]guard.Target, string) {
	config, hooks := git.ConfigAndHooks(root)
	return guard.Watch(root, workspace.Governance().Guarded(), config), hooks
}

// rescueRules puts back the rules a shell command left unreadable (the
// workspace did not load for its post), from the picture its pre took,
// and loads the workspace again. Only what a hook journaled is excused:
// nothing else can be judged before the rules are read.
func (g *Gate) rescueRules(root string, getenv func(string) string) (*workspace.Workspace, error) {
	ss := state.Sessions{Root: root}
	pending, ok := ss.PeekPending(g.call.SessionID, g.call.ToolUseID)
	if !ok || pending.Guard == nil {
		return nil, errNoPicture
	}
	targets, _ := watched(g.env, root)
	changes := guard.Compare(root, pending.Guard, targets)
	g.rescued = guard.Undo(root, changes, func(c guard.Change) bool {
		return g.hookWrote(root, pending.Guard, c)
	}, g.env.now())
	_ = os.Remove(filepath.Join(root, filepath.FromSlash(".orchestration/state/catalog.cache")))
	g.explain.step("guard", "rescue", fmt.Sprintf("%d rule file(s) put back before loading", len(g.rescued)))
	return workspace.Load(root, getenv, g.env.now)
}

var errNoPicture = errors.New("no picture of the rules from this call's pre")

// pictured returns root when its state holds the picture of the rules this
// call's pre took, else "".
func pictured(root string, call *hook.Call) string {
	if root == "" || call.ToolUseID == "" {
		return ""
	}
	if p, ok := (state.Sessions{Root: root}).PeekPending(call.SessionID, call.ToolUseID); !ok || p.Guard == nil {
		return ""
	}
	return root
}

// hookWrote reports whether a change is a hook process's: a journal line
// written while the command ran names the new content and no hook of this
// call (guard.JournaledDuring), and the change is one a hook makes. A
// program in the command can append a journal line too; for the catalog
// the change itself is judged, and only transitions hooks make pass
// (lifecycle.HookMade). A journaled change to the catalog cache is taken
// out all the same: it is derived, and the next load makes it again.
func (g *Gate) hookWrote(root string, s *guard.Snapshot, c guard.Change) bool {
	if g.call.Plugin != "" && c.Rel == relState(g.pluginMarker(g.call.Agent, g.call.Plugin), root) {
		// The session's plugin announces at its start, never during one of
		// its commands: a marker that command changed is a forgery, whoever
		// journaled it (the real binary, run where no name check saw it).
		return false
	}
	journaled := guard.JournaledDuring
	if sessionState(c.Rel) {
		journaled = guard.HookJournaledDuring
	}
	if c.After.FP == "" || strings.HasPrefix(c.After.Hash, "!") || !journaled(root, s, c.Rel, c.After.Hash) {
		return false
	}
	switch {
	case c.Before.Kind == guard.Cache:
		_ = os.Remove(filepath.Join(root, filepath.FromSlash(c.Rel)))
	case c.Rel == intents.File:
		if err := catalogHookMade(root, c); err != nil {
			g.explain.step("guard", "journal", hook.Ev("path", c.Rel), "not a hook's change: "+err.Error())
			return false
		}
	}
	return true
}

// catalogHookMade judges a journaled change to the catalog by its effect:
// the picture's kept copy against the file now.
func catalogHookMade(root string, c guard.Change) error {
	before, ok := guard.Kept(root, c.Before)
	switch {
	case !ok:
		return errors.New("no copy from the picture (no hook creates the catalog)")
	case guard.Hash(before) != c.Before.Hash:
		return errors.New("the kept copy was changed")
	}
	after, err := osfile.ReadFile(filepath.Join(root, filepath.FromSlash(c.Rel)))
	if err != nil {
		return err
	}
	if guard.Hash(after) != c.After.Hash {
		return errors.New("changed again meanwhile")
	}
	return lifecycle.HookMade(before, after)
}

// guardSnapshot pictures the governance files before a shell command that
// may write (a command proven read-only cannot change them).
func (g *Gate) guardSnapshot(readOnly bool) *guard.Snapshot {
	if readOnly || g.call.ToolUseID == "" {
		return nil
	}
	targets, hooks := g.guardTargets()
	s, err := guard.Take(g.Root, targets, hooks, git.Revision(g.Root))
	if err != nil {
		g.note(fmt.Errorf("governance snapshot: %w", err))
	}
	s.Segments = guard.TakeSegments(g.Root, ledger.SegmentDir, ledger.ActiveSegment(g.Root))
	s.WriterN = ledger.WriterCount(g.Root)
	s.Call = g.call.ToolUseID
	anchorsAt := anchors.IndexSize(g.Root)
	s.AnchorsAt = &anchorsAt
	g.explain.step("guard", "snapshot", fmt.Sprintf("%d governance file(s)", len(s.Files)))
	return s
}

// guardCheck compares the governance files with the picture taken before
// the command and undoes every change no hook process made and no move of
// HEAD explains. It reports whether the rules were reloaded.
func (g *Gate) guardCheck(ctx context.Context, intentID string, s *guard.Snapshot) (hook.Decision, bool) {
	targets, _ := g.guardTargets()
	changes := guard.Compare(g.Root, s, targets)
	head := git.Revision(g.Root)
	installer := hookInstaller(g.call.Command)
	var installed []string
	excused := func(c guard.Change) bool {
		if g.hookWrote(g.Root, s, c) {
			return true
		}
		if installer && (c.Before.Kind == guard.Hook || c.Before.Kind == guard.GitConfig) {
			installed = append(installed, c.Rel)
			return true
		}
		return head != s.Head && head != "" && g.committed(ctx, c.Rel, c.After)
	}
	undone := append(g.rescued, guard.Undo(g.Root, changes, excused, g.env.now())...)
	g.rescued = nil
	if len(installed) > 0 {
		g.note(fmt.Errorf("the git hooks changed (%s) under a hook installer (%s): intenthook precommit runs at commit time only if the new hooks call it; `intenthook doctor` checks", strings.Join(installed, ", "), g.call.Command))
	}
	ledgerOK := guard.LedgerIntact(g.Root, s)
	segs := g.undoSegments(ctx, s, head)
	g.explain.step("guard", "compare", fmt.Sprintf("%d changed, %d undone, ledger intact=%v, %d segment(s) changed", len(changes), len(undone), ledgerOK, len(segs)))
	// An anchor appended while the agent's command ran is the agent's,
	// whatever the process that wrote it claimed.
	for _, span := range g.appended(s) {
		g.note(anchors.Attribute(ctx, g.Ledger(g.env.Version), g.Revision(), span.rel, span.from, cmp.Or(g.call.AgentID, g.call.Agent), g.call.SessionID))
	}
	// So is a note the lessons file gained (and kept) meanwhile.
	if c, ok := g.lessonsKept(changes, undone); ok {
		before, _ := guard.Kept(g.Root, c.Before)
		g.note(lessons.Attribute(ctx, g.Root, g.Config.LessonsFile, g.Config.LockTimeout, before, time.Unix(0, s.At), g.callWriter()))
	}
	// So is a person's anchor the index gained without a ledger record
	// (a line a program appended under state/).
	if s.AnchorsAt != nil && anchors.IndexSize(g.Root) > *s.AnchorsAt {
		g.note(anchors.AttributeIndex(ctx, g.Ledger(g.env.Version), g.Revision(), *s.AnchorsAt, cmp.Or(g.call.AgentID, g.call.Agent), g.call.SessionID))
	}
	if len(undone) == 0 && ledgerOK && len(segs) == 0 {
		return hook.Decision{}, false
	}
	reload := false
	for _, c := range undone {
		switch {
		case c.Rel == state.SessionFile(g.call.SessionID):
			if sess, err := g.Sessions.Read(g.call.SessionID); err == nil {
				g.session = sess
			}
		case c.Before.Kind == guard.Whole && strings.HasPrefix(c.Rel, ".orchestration/") && !sessionState(c.Rel):
			reload = true
		}
	}
	if reload {
		// The command's own judgement (the backstop's scope) must use the
		// rules as they were, not as the command left them.
		_ = os.Remove(filepath.Join(g.Root, filepath.FromSlash(".orchestration/state/catalog.cache")))
		if ws, err := workspace.Load(g.Root, g.env.Getenv, g.env.now); err == nil {
			ws.Sessions.By = g.Sessions.By
			g.Workspace = ws
			cwd := g.call.Cwd
			if cwd == "" {
				cwd = g.env.Wd
			}
			g.resolver = ws.Resolver(cwd)
		}
	}
	var paths []string
	for _, c := range undone {
		paths = append(paths, c.Rel)
	}
	if !ledgerOK {
		paths = append(paths, guard.Ledger)
	}
	for _, c := range segs {
		paths = append(paths, c.Rel)
	}
	r := g.record(ledger.EventViolation, intentID)
	m := &r.Metadata.Intenthook
	m.ScopeValidation, m.Decision, m.Code, m.Success = ledger.ScopeFail, "violation", CodeGovernanceTampered, false
	m.Paths, m.Command = paths, g.call.Command
	g.note(g.appendRecords(ctx, r))
	for _, p := range paths {
		g.note(g.lesson(ctx, CodeGovernanceTampered, intentID, p, "the shell command `"+g.call.Command+"` changed a governance file; intenthook put it back"))
	}
	return g.tampered(undone, ledgerOK, segs), reload
}

// lessonsKept returns the lessons file's change during the command when
// the change stood (intenthook lesson wrote it, not a program).
func (g *Gate) lessonsKept(changes, undone []guard.Change) (guard.Change, bool) {
	rel := cmp.Or(g.Config.LessonsFile, lessons.DefaultFile)
	is := func(c guard.Change) bool { return c.Rel == rel }
	i := slices.IndexFunc(changes, is)
	if i < 0 || slices.ContainsFunc(undone, is) {
		return guard.Change{}, false
	}
	return changes[i], true
}

// callWriter names the agent and session of the call, as a lesson's writer.
func (g *Gate) callWriter() string {
	who := cmp.Or(g.call.AgentID, g.call.Agent, "an agent")
	if g.call.SessionID != "" {
		who += ", session " + g.call.SessionID
	}
	return who
}

// span is where a ledger file grew during a command: rel from byte from.
type span struct {
	rel  string
	from int64
}

// appended finds what the hooks' appender wrote during the command: the
// segment active at the picture past its size then, and the segment active
// now from its start when a rollover started a new one. Nothing else is
// read.
func (g *Gate) appended(s *guard.Snapshot) []span {
	var out []span
	before := ""
	for rel, m := range s.Segments {
		if m.Tail != "" {
			before = rel
			if st, err := os.Stat(filepath.Join(g.Root, filepath.FromSlash(rel))); err == nil && st.Size() > m.Size {
				out = append(out, span{rel, m.Size})
			}
		}
	}
	if now := ledger.ActiveSegment(g.Root); now != "" && now != before {
		if _, had := s.Segments[now]; !had {
			out = append(out, span{now, 0})
		}
	}
	return out
}

// segmentUndo is a segment the command added, removed or changed, and
// what became of it.
type segmentUndo struct {
	guard.SegmentChange
	kept string
	err  error
}

// undoSegments finds the segments the command added, removed or changed
// (a hook's rollover and a move of HEAD that brought committed segments
// excepted) and undoes each: an added one moves to state/undone/, a
// removed or changed one is put back from HEAD when it is committed there.
func (g *Gate) undoSegments(ctx context.Context, s *guard.Snapshot, head string) []segmentUndo {
	writer := ledger.WriterID(g.Root)
	rollover := func(rel string) bool {
		seg, ok := ledger.ParseSegment(rel)
		return ok && writer != "" && seg.Writer == writer && seg.N > s.WriterN && seg.N <= ledger.WriterCount(g.Root)
	}
	var out []segmentUndo
	for _, c := range guard.CompareSegments(g.Root, ledger.SegmentDir, s, rollover) {
		if head != s.Head && head != "" && g.segmentCommitted(ctx, c) {
			continue
		}
		var committed []byte
		if c.What != "added" {
			if b, err := g.git(ctx, "cat-file", "blob", "HEAD:"+c.Rel); err == nil {
				committed = b
			}
		}
		kept, err := guard.UndoSegment(g.Root, c, committed, g.env.now().UTC().Format("20060102T150405.000000000Z"))
		out = append(out, segmentUndo{c, kept, err})
	}
	return out
}

// segmentCommitted reports whether a segment is now as HEAD's tree has it
// (absent from both counts).
func (g *Gate) segmentCommitted(ctx context.Context, c guard.SegmentChange) bool {
	out, err := g.git(ctx, "rev-parse", "-q", "--verify", "HEAD:"+c.Rel)
	blob := strings.TrimSpace(string(out))
	if err != nil || blob == "" {
		return c.What == "removed"
	}
	if c.What == "removed" {
		return false
	}
	now, err := g.git(ctx, "hash-object", "--", c.Rel)
	return err == nil && strings.TrimSpace(string(now)) == blob
}

// committed reports whether the file now equals its version in HEAD's
// tree (absent from both counts): a checkout, pull or stash pop put it
// there.
func (g *Gate) committed(ctx context.Context, rel string, after guard.File) bool {
	if filepath.IsAbs(rel) {
		return false
	}
	out, err := g.git(ctx, "rev-parse", "-q", "--verify", "HEAD:"+rel)
	blob := strings.TrimSpace(string(out))
	if err != nil || blob == "" {
		return after.FP == ""
	}
	if after.FP == "" {
		return false
	}
	now, err := g.git(ctx, "hash-object", "--", rel)
	return err == nil && strings.TrimSpace(string(now)) == blob
}

// git runs git in the root with arguments only: no event data reaches a
// shell; its environment is git.CleanEnv's (GIT_OPTIONAL_LOCKS=0 keeps git
// from taking the index lock under the agent's own git commands).
func (g *Gate) git(ctx context.Context, args ...string) ([]byte, error) {
	return git.Output(ctx, g.Root, g.gitEnv(), args...)
}

// gitEnv is the environment of the hook's git processes (git.CleanEnv),
// made once per call.
func (g *Gate) gitEnv() []string {
	if g.cleanEnv == nil {
		g.cleanEnv = git.CleanEnv(state.Path(g.Root, "git"))
	}
	return g.cleanEnv
}

func (g *Gate) tampered(undone []guard.Change, ledgerOK bool, segs []segmentUndo) hook.Decision {
	var b strings.Builder
	fmt.Fprintf(&b, "intenthook: violation [%s] the command changed the rules\n", CodeGovernanceTampered)
	b.WriteString("files:\n")
	var failed []string
	// shown is what the person sees (systemMessage where the agent shows
	// one): each file put back and where the version it displaced is kept,
	// so that a person's own edit made while the command ran does not
	// vanish unseen.
	var shown []string
	show := func(rel string, err error, kept string) {
		switch {
		case err != nil:
			rel += " (NOT put back: " + err.Error() + ")"
		case kept != "":
			rel += " (displaced version: " + kept + ")"
		}
		shown = append(shown, rel)
	}
	for _, c := range undone {
		show(c.Rel, c.Err, c.Kept)
		what := "restored"
		switch {
		case c.Err != nil:
			what = "NOT restored: " + c.Err.Error()
			failed = append(failed, c.Rel)
		case c.Partial && c.Before.Kind == guard.Lessons:
			what = "restored (its Lessons Learned section as before; the rest of the file kept)"
		case c.Partial && c.Before.FP == "":
			what = "restored (the hook settings it gained taken out; the rest of the file kept)"
		case c.Before.FP == "":
			what = "removed (it did not exist before the command)"
		case c.Partial:
			what = "restored (the hooks and the switches that turn them off as before; the rest of the file kept)"
		}
		if c.Kept != "" {
			what += "; the changed version is kept at " + c.Kept
		}
		fmt.Fprintf(&b, "  %s: %s\n", c.Rel, what)
	}
	if !ledgerOK {
		fmt.Fprintf(&b, "  %s: its existing lines were removed or rewritten (it only grows); run `intenthook ledger verify` and restore it from git or a backup\n", guard.Ledger)
	}
	for _, c := range segs {
		show(c.Rel, c.err, c.kept)
		what := "restored from HEAD"
		switch {
		case c.err != nil:
			what = "NOT restored: " + c.err.Error()
			failed = append(failed, c.Rel)
		case c.What == "added":
			what = "removed (only hooks add segments)"
		}
		if c.kept != "" {
			what += "; the command's version is kept at " + c.kept
		}
		fmt.Fprintf(&b, "  %s: ledger segment %s by the command; %s\n", c.Rel, c.What, what)
	}
	b.WriteString("why: the catalog, settings, ignore file, agents' hook settings, git hooks and the ledger are the rules and the record; only a person changes them, from their own terminal\n")
	b.WriteString("instead: do not change governance files; if a change is needed, ask the user. A person who made this change on purpose re-applies it with: cp <kept file> <path>")
	if !ledgerOK {
		shown = append(shown, guard.Ledger+" lost lines (NOT put back: run `intenthook ledger verify`)")
	}
	d := hook.Decision{Violation: true, Code: CodeGovernanceTampered, Message: b.String(),
		Warning: "intenthook put back what an agent's command changed: " + strings.Join(shown, "; ") +
			". A change of your own made meanwhile: copy it back from there (`intenthook status` lists them)."}
	if len(failed) > 0 {
		d.Message += "\nwarning: " + strings.Join(failed, ", ") + " could not be restored"
	}
	return d
}

// Editor is the workspace's catalog editor, marked as a hook process's:
// its writes are journaled, so the guard of a command running meanwhile
// does not take them for the command's.
func (g *Gate) Editor(session, tool, toolVersion string) *lifecycle.Editor {
	e := g.Workspace.Editor(session, tool, toolVersion)
	e.Hook, e.ToolUse = true, g.call.ToolUseID
	return e
}

// hookInstaller reports whether command runs a tool whose job is to
// install git hooks (husky through a package manager, pre-commit,
// lefthook): the hooks and core.hooksPath it changes are its normal work.
// Nothing else it changes is excused.
func hookInstaller(command string) bool {
	words := strings.FieldsFunc(command, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '&' || r == '|' || r == '(' || r == ')'
	})
	for i, w := range words {
		next := ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		switch filepath.Base(w) {
		case "husky":
			return true
		case "npm", "pnpm", "yarn", "bun":
			switch next {
			case "install", "i", "ci", "add", "prepare":
				return true
			}
		case "pre-commit", "lefthook", "prek", "overcommit":
			if next == "install" || next == "--install" {
				return true
			}
		}
	}
	return false
}
