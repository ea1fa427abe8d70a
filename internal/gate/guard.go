package gate

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/anchors"
	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/backstop"
	"github.com/intenthook/intenthook/internal/budget"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/lessons"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/selection"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/summary"
	"github.com/intenthook/intenthook/internal/workspace"
)

// guardTargets lists what the guard watches in this workspace, and for
// the call's session: its selection, its denial log and its counters,
// which hooks alone write (only the session's own: one file per session of
// the workspace would make every picture grow with them).
func (g *Gate) guardTargets(ctx context.Context) ([]guard.Target, string) {
	targets, hooks := watched(g.Governance, g.Root)
	targets = lessonsTarget(targets, g.Config.LessonsFile)
	for i, t := range targets {
		switch {
		case t.Kind == guard.Mirrored && t.Rel == summary.Dir:
			// The session's own counters: another session's are read
			// from their copies (summary.Session).
			targets[i].Log = summary.LogName(g.call.SessionID)
		case t.Kind == guard.Mirrored && t.Rel == budget.Dir:
			// The intents' counters are compacted under their locks.
			targets[i].Lock = func(name string) (func(), error) {
				unlock, err := budget.LockLog(ctx, g.Root, name, g.Config.LockTimeout)
				return unlock, err
			}
		}
	}
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

func watched(governance governed.Table, root string) ([]guard.Target, string) {
	config, hooks := git.ConfigAndHooks(root)
	return guard.Watch(root, governance.Guarded(), config), hooks
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
	targets, _ := watched(g.Governance, root)
	g.rescued = guard.Rescue(root, pending.Guard, &guardCall{g: g, root: root, s: pending.Guard}, targets, g.env.now())
	_ = os.Remove(filepath.Join(root, filepath.FromSlash(".orchestration/state/catalog.cache")))
	g.explain.step("guard", "rescue", fmt.Sprintf("%d rule file(s) put back before loading", len(g.rescued)))
	return workspace.Load(root, g.Governance, getenv, g.env.now)
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
// may write (a command proven read-only cannot change them), and the mods
// folders in the user's home when the command could write there (mods).
func (g *Gate) guardSnapshot(readOnly, mods bool) *guard.Snapshot {
	if readOnly || g.call.ToolUseID == "" {
		return nil
	}
	targets, hooks := g.guardTargets(context.Background())
	if mods {
		for _, dir := range g.call.ModsDirs {
			targets = append(targets, guard.Target{Rel: filepath.Clean(dir), Kind: guard.Mods})
		}
	}
	s, err := guard.Take(g.Root, targets, hooks, git.Revision(g.Root))
	if err != nil {
		g.note(fmt.Errorf("governance snapshot: %w", err))
	}
	s.Segments = guard.TakeSegments(g.Root, ledger.SegmentDir, ledger.ActiveSegment(g.Root))
	s.WriterN = ledger.WriterCount(g.Root)
	s.Call = g.call.ToolUseID
	anchorsAt := anchors.IndexSize(g.Root)
	s.AnchorsAt = &anchorsAt
	g.explain.step("guard", "snapshot", fmt.Sprintf("%d governance file(s), %d mods folder(s)", len(s.Files), len(s.Mods)))
	return s
}

// guardCheck has the guard judge the governance files against the
// picture taken before the command (package guard: what no hook process
// made and no move of HEAD explains is put back), then records what the
// guard found, attributes what the command appended, reloads the rules it
// put back, and answers. It reports whether the rules were reloaded.
func (g *Gate) guardCheck(ctx context.Context, intentID string, s *guard.Snapshot) (hook.Decision, bool) {
	g.note(g.Sessions.CloseWindow(g.call.ToolUseID, g.env.now()))
	targets, _ := g.guardTargets(ctx)
	writer, count := ledger.WriterID(g.Root), ledger.WriterCount(g.Root)
	call := &guardCall{g: g, ctx: ctx, root: g.Root, s: s}
	res := guard.Check(g.Root, s, call, guard.Options{
		Targets:    targets,
		Head:       git.Revision(g.Root),
		Command:    g.call.Command,
		SegmentDir: ledger.SegmentDir,
		Active:     ledger.ActiveSegment(g.Root),
		Rollover: func(rel string) bool {
			seg, ok := ledger.ParseSegment(rel)
			return ok && writer != "" && seg.Writer == writer && seg.N > s.WriterN && seg.N <= count
		},
		HeadBlob:    call.headBlob,
		LessonsFile: cmp.Or(g.Config.LessonsFile, lessons.DefaultFile),
		Rescued:     g.rescued,
		Now:         g.env.now(),
	})
	g.rescued = nil
	if len(res.Installed) > 0 {
		g.note(fmt.Errorf("the git hooks changed (%s) under a hook installer (%s): intenthook precommit runs at commit time only if the new hooks call it; `intenthook doctor` checks", strings.Join(res.Installed, ", "), g.call.Command))
	}
	g.explain.step("guard", "compare", fmt.Sprintf("%d changed, %d undone, ledger intact=%v, %d segment(s) changed", len(res.Changes), len(res.Undone), res.LedgerOK, len(res.Segments)))
	g.attributeAppended(ctx, s, res)
	if !res.Tampered() {
		return hook.Decision{}, false
	}
	reload := g.reloadUndone(res.Undone)
	hookProgram{g}.leave(res.Programs)
	paths := res.Paths()
	r := g.record(ledger.EventViolation, intentID)
	m := &r.Metadata.Intenthook
	m.ScopeValidation, m.Decision, m.Code, m.Success = ledger.ScopeFail, "violation", guard.CodeGovernanceTampered, false
	m.Paths, m.Command, m.Commits = paths, g.call.Command, call.madeRules(res.Undone)
	g.note(g.appendRecords(ctx, r))
	for _, p := range paths {
		g.note(g.lesson(ctx, guard.CodeGovernanceTampered, intentID, p, "the shell command `"+g.call.Command+"` changed a governance file; intenthook put it back"))
	}
	return tampered(res), reload
}

// attributeAppended gives to the call what its command appended to the
// record while it ran, whatever the process that wrote it claimed: an
// anchor in the ledger, a note the lessons file gained (and kept), a
// person's anchor the index gained without a ledger record (a line a
// program appended under state/).
func (g *Gate) attributeAppended(ctx context.Context, s *guard.Snapshot, res guard.Result) {
	who := cmp.Or(g.call.AgentID, g.call.Agent)
	for _, span := range res.Appended {
		g.note(anchors.Attribute(ctx, g.Ledger(g.env.Version), g.Revision(), span.Rel, span.From, who, g.call.SessionID))
	}
	if c := res.Lessons; c != nil {
		before, _ := guard.Kept(g.Root, c.Before)
		g.note(lessons.Attribute(ctx, g.Root, g.Config.LessonsFile, g.Config.LockTimeout, before, time.Unix(0, s.At), callWriter(g.call)))
	}
	if s.AnchorsAt != nil && anchors.IndexSize(g.Root) > *s.AnchorsAt {
		g.note(anchors.AttributeIndex(ctx, g.Ledger(g.env.Version), g.Revision(), *s.AnchorsAt, who, g.call.SessionID))
	}
}

// reloadUndone reads again what the guard put back that the call holds in
// memory: the session's state, and the rules (the command's own judgement,
// the backstop's scope, must use the rules as they were, not as the
// command left them). It reports whether the rules were reloaded.
func (g *Gate) reloadUndone(undone []guard.Change) bool {
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
	if !reload {
		return false
	}
	_ = os.Remove(filepath.Join(g.Root, filepath.FromSlash(".orchestration/state/catalog.cache")))
	if ws, err := workspace.Load(g.Root, g.Governance, g.env.getenv, g.env.now); err == nil {
		ws.Sessions.By = g.Sessions.By
		g.Workspace = ws
		cwd := g.call.Cwd
		if cwd == "" {
			cwd = g.env.Wd
		}
		g.resolver = ws.Resolver(cwd)
	}
	return true
}

// callWriter names the agent and session of a call, as a lesson's writer.
func callWriter(call *hook.Call) string {
	who := cmp.Or(call.AgentID, call.Agent, "an agent")
	if call.SessionID != "" {
		who += ", session " + call.SessionID
	}
	return who
}

// guardCall answers the guard's questions about the call whose command
// ran (guard.Call).
type guardCall struct {
	g    *Gate
	ctx  context.Context
	root string
	s    *guard.Snapshot
	// made maps each path the commits the command made (or brought into
	// HEAD's history itself) changed to the commit; read once, when a
	// change first asks.
	made map[string]string
}

// madeBy returns the commit the command made that changed rel last, ""
// when none did: such a commit is the command's doing, and a governance
// file as it left it is the command's change, whatever HEAD holds.
func (c *guardCall) madeBy(rel string) string {
	if c.made == nil {
		p := &backstop.Picture{Head: c.s.Head, Reflog: c.s.Reflog, Tips: c.s.Tips, TipsKnown: c.s.TipsKnown}
		if c.s.At != 0 {
			p.Since = time.Unix(0, c.s.At)
		}
		if c.s.Reflog == 0 && !c.s.TipsKnown {
			// A picture from before the guard kept HEAD's history: every
			// commit HEAD gained may be the command's.
			p.Reflog, p.TipsKnown = 0, true
		}
		c.made = backstop.ChangedBy(c.context(), c.root, backstop.Made(c.context(), c.root, p))
	}
	return c.made[rel]
}

// madeRules lists the commits the command made that changed the files the
// guard put back, each once.
func (c *guardCall) madeRules(undone []guard.Change) []string {
	var out []string
	for _, ch := range undone {
		if id := c.madeBy(ch.Rel); id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// Wrote reports whether a change is a hook process's: a journal line
// written while the command ran names the new content and no hook of this
// call (guard.JournaledDuring), and the change is one a hook makes. A
// program in the command can append a journal line too; for the catalog
// the change itself is judged, and only transitions hooks make pass
// (lifecycle.HookMade). A journaled change to the catalog cache is taken
// out all the same: it is derived, and the next load makes it again.
func (gc *guardCall) Wrote(c guard.Change) bool {
	g, root, s := gc.g, gc.root, gc.s
	if g.call.Plugin != "" && c.Rel == relState(plugins{g}.pluginMarker(g.call.Agent, g.call.Plugin), root) {
		// The session's plugin announces at its start, never during one of
		// its commands: a marker that command changed is a forgery, whoever
		// journaled it (the real binary, run where no name check saw it).
		return false
	}
	journaled := guard.JournaledDuring
	if sessionState(c.Rel) {
		journaled = guard.HookJournaledDuring
	}
	switch {
	case c.Before.Kind == guard.Mirrored:
		// The hooks' appends never differ from the copy: nothing excuses
		// a log that does.
		return false
	case c.Before.Kind == guard.Files && claimFile(c.Rel):
		return gc.claimLetGo(c)
	case c.Before.Kind == guard.Files && commonAskFile(c.Rel):
		// Written by the hooks and people of every work tree, each line in
		// the repository's journal beside the asks.
		hash := c.After.Hash
		if c.After.FP == "" {
			hash = guard.RemovedHash
		}
		return !strings.HasPrefix(hash, "!") && asks.For(root).Wrote(rooted(root, c.Rel), hash)
	case c.Before.Kind == guard.Files && c.After.FP == "":
		return journaled(root, s, c.Rel, guard.RemovedHash)
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

// Committed reports whether rel is now as HEAD's tree has it (absent from
// both counts), as git hashes it: a checkout, pull or stash pop put it
// there.
func (c *guardCall) Committed(rel string) bool {
	if c.madeBy(rel) != "" {
		return false // committed by the command itself: excuses nothing
	}
	out, err := c.git("rev-parse", "-q", "--verify", "HEAD:"+rel)
	blob := strings.TrimSpace(string(out))
	_, statErr := os.Lstat(filepath.Join(c.root, filepath.FromSlash(rel)))
	gone := errors.Is(statErr, fs.ErrNotExist)
	if err != nil || blob == "" {
		// Absent from HEAD and from the work tree: a checkout took it away
		// only if the HEAD the command started from held it. A file git
		// never held (state, rules not committed yet) was removed by the
		// command, whatever it did to HEAD besides.
		return gone && c.heldBefore(rel)
	}
	if gone {
		return false
	}
	now, err := c.git("hash-object", "--", rel)
	return err == nil && strings.TrimSpace(string(now)) == blob
}

// heldBefore reports whether the commit HEAD named when the command
// started holds rel.
func (c *guardCall) heldBefore(rel string) bool {
	if c.s.Head == "" {
		return false
	}
	out, err := c.git("rev-parse", "-q", "--verify", c.s.Head+":"+rel)
	return err == nil && strings.TrimSpace(string(out)) != ""
}

// headBlob is HEAD's version of rel, to put a segment back from.
func (c *guardCall) headBlob(rel string) ([]byte, bool) {
	b, err := c.git("cat-file", "blob", "HEAD:"+rel)
	return b, err == nil
}

func (c *guardCall) context() context.Context {
	if c.ctx == nil {
		return context.Background()
	}
	return c.ctx
}

// git runs git in the root with arguments only: no event data reaches a
// shell; its environment is git.CleanEnv's (GIT_OPTIONAL_LOCKS=0 keeps git
// from taking the index lock under the agent's own git commands).
func (c *guardCall) git(args ...string) ([]byte, error) {
	return git.Output(c.context(), c.root, c.g.gitEnv(), args...)
}

// gitEnv is the environment of the hook's git processes (git.CleanEnv),
// made once per call.
func (g *Gate) gitEnv() []string {
	if g.cleanEnv == nil {
		g.cleanEnv = git.CleanEnv()
	}
	return g.cleanEnv
}

// tampered is the answer to a command that changed the rules or the
// record: what was put back, and where each displaced version is kept.
func tampered(res guard.Result) hook.Decision {
	undone, ledgerOK, segs := res.Undone, res.LedgerOK, res.Segments
	var b strings.Builder
	fmt.Fprintf(&b, "intenthook: violation [%s] the command changed the rules\n", guard.CodeGovernanceTampered)
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
		case c.IsMods() && c.Before.FP == "":
			what = "taken out (it did not exist before the command: a mod there runs inside Claude Code and sees each tool call before the hooks)"
		case c.Partial && c.Before.Kind == guard.Lessons:
			what = "restored (its Lessons Learned section as before; the rest of the file kept)"
		case c.Partial && c.Before.FP == "":
			what = "restored (the hook settings it gained taken out; the rest of the file kept)"
		case c.Before.FP == "":
			what = "removed (it did not exist before the command)"
		case c.Linked:
			what = "given a second name (a hard link): restored as a file of its own, and the other name left with the old one"
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
		show(c.Rel, c.Err, c.Kept)
		what := "restored from HEAD"
		switch {
		case c.Err != nil:
			what = "NOT restored: " + c.Err.Error()
			failed = append(failed, c.Rel)
		case c.What == "added":
			what = "removed (only hooks add segments)"
		}
		if c.Kept != "" {
			what += "; the command's version is kept at " + c.Kept
		}
		fmt.Fprintf(&b, "  %s: ledger segment %s by the command; %s\n", c.Rel, c.What, what)
	}
	shown = append(shown, programLines(&b, res.Programs)...)
	b.WriteString("why: the catalog, settings, ignore file, agents' hook settings, git hooks, the ledger, the programs the hooks run and the mods Claude Code loads are the rules and the record; only a person changes them, from their own terminal\n")
	b.WriteString("instead: do not change governance files; if a change is needed, ask the user. A person who made this change on purpose re-applies it with: cp <kept file> <path>")
	if !ledgerOK {
		shown = append(shown, guard.Ledger+" lost lines (NOT put back: run `intenthook ledger verify`)")
	}
	d := hook.Decision{Violation: true, Code: guard.CodeGovernanceTampered, Message: b.String(),
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
	e := lifecycle.NewEditor(g.Workspace, session, tool, toolVersion)
	e.Hook, e.ToolUse = true, g.call.ToolUseID
	return e
}

// claimFile reports whether rel, a change the guard found, is one of the
// repository's claims (state.ClaimsDir, in the common git directory).
// rooted is a watched path the guard names root-relative, or absolutely
// when it lies outside root, as an absolute path.
func rooted(root, rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(root, filepath.FromSlash(rel))
}

// commonAskFile says rel is a file of the repository's asks, under the
// common git directory.
func commonAskFile(rel string) bool {
	return strings.Contains("/"+filepath.ToSlash(rel), "/"+asks.CommonDir+"/")
}

func claimFile(rel string) bool {
	return strings.Contains("/"+filepath.ToSlash(rel), "/"+state.ClaimsDir+"/")
}

// claimLetGo judges a change to a claim by its effect, not by the
// journal: hooks of other work trees write claims and journal in their
// own. A claim added holds nothing by itself (its holder's session state
// must confirm it); one removed or changed excuses itself only when the
// claim it held no longer holds (its session ended, lapsed or selected
// another intent), else it is put back.
func (gc *guardCall) claimLetGo(c guard.Change) bool {
	if c.Before.FP == "" {
		return true
	}
	before, ok := guard.Kept(gc.root, c.Before)
	if !ok {
		return false
	}
	var cl state.Claim
	if json.Unmarshal(before, &cl) != nil {
		return true
	}
	_, holds := selection.ClaimHolds(cl, "", gc.g.env.now())
	return !holds
}
