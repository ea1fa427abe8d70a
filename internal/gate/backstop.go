package gate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/workspace"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/state"
)

// The backstop (SPEC §8) catches what shell analysis cannot see: PreToolUse
// snapshots the paths git reports as changed, PostToolUse compares, and a
// change outside the active intent's scope is a violation. It runs only for
// shell calls in git repositories.

// clientWrites is what the agent's client itself writes while a command
// waits for the user's permission: Claude Code saves a "don't ask again"
// answer there. It is not the command's doing.
const clientWrites = ".claude/settings.local.json"

// gitTimeout bounds the backstop's git status.
const gitTimeout = 5 * time.Second

// CodeOutOfScopeChange is the backstop's violation code.
const CodeOutOfScopeChange = "out_of_scope_change"

// dirtyPaths returns the root-relative paths `git status` reports as
// created, changed or deleted, each with a fingerprint of its size and
// modification time ("" for a path that is gone): hashing every dirty file
// on every shell call would cost as much as the repository is large. It
// runs one git process: the root's place in the work tree is worked out
// here; the untracked cache is on; a core.fsmonitor program is never run
// (git's built-in monitor is used when the repository turns it on); and
// intenthook's own files are left out (.orchestration/ is the ledger's and
// the hooks' to account for, and the ledger is always dirty). ok is false
// outside a git repository (or when git is missing).
func (g *Gate) dirtyPaths(ctx context.Context) (map[string]string, bool) {
	top, gitDir, ok := git.Top(g.Root)
	if !ok {
		return nil, false
	}
	prefix, err := filepath.Rel(canonicalDir(top), canonicalDir(g.Root))
	if err != nil || prefix == ".." || strings.HasPrefix(prefix, "../") {
		return nil, false
	}
	pre := ""
	if prefix != "." {
		pre = filepath.ToSlash(prefix) + "/"
	}
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	args := []string{"-c", "core.untrackedCache=true"}
	if !git.BuiltinFSMonitor(gitDir) {
		args = append(args, "-c", "core.fsmonitor=false")
	}
	args = append(args, "status", "--porcelain=v2", "-z", "--untracked-files=all", "--no-renames", "--", ".", ":(exclude).orchestration")
	out, err := g.git(ctx, args...)
	if err != nil {
		return nil, false
	}
	paths := map[string]string{}
	for _, entry := range strings.Split(string(out), "\x00") {
		p, fresh, ok := porcelainPath(entry)
		if !ok {
			continue
		}
		rel, ok := strings.CutPrefix(p, pre)
		if !ok {
			continue
		}
		mark := "e" // in HEAD: the call did not create it
		if fresh {
			mark = "n"
		}
		paths[rel] = mark + fingerprint(filepath.Join(g.Root, filepath.FromSlash(rel)))
	}
	return paths, true
}

// preMark stands in for the unknown pre-hash of a changed path when
// classifying it: non-empty when the path was there before the command (in
// HEAD, or dirty with content in the snapshot), empty when it is new.
func preMark(after, before string) string {
	if strings.HasPrefix(after, "e") || strings.HasPrefix(before, "e") || (len(before) > 1 && before[1:] != "") {
		return "existed"
	}
	return ""
}

// porcelainPath returns the path of one entry of `git status
// --porcelain=v2 -z`: changed ("1 XY sub mH mI mW hH hI path"), unmerged
// ("u XY sub m1 m2 m3 mW h1 h2 h3 path") and untracked ("? path") entries;
// fresh is set for a path not in HEAD (untracked, or added to the index).
func porcelainPath(entry string) (path string, fresh, ok bool) {
	fields := map[byte]int{'1': 8, 'u': 10, '?': 1}
	if entry == "" {
		return "", false, false
	}
	n, known := fields[entry[0]]
	if !known {
		return "", false, false
	}
	parts := strings.SplitN(entry, " ", n+1)
	if len(parts) != n+1 {
		return "", false, false
	}
	fresh = entry[0] == '?' || strings.HasPrefix(parts[1], "A")
	return parts[n], fresh, true
}

// fingerprint is a file's size and modification time, "" when it is gone.
func fingerprint(path string) string {
	st, err := os.Lstat(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d:%d", st.Size(), st.ModTime().UnixNano())
}

func canonicalDir(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// git runs git in the root with arguments only: no event data reaches a
// shell. GIT_OPTIONAL_LOCKS=0 keeps git status from taking the index lock
// under the agent's own git commands.
func (g *Gate) git(ctx context.Context, args ...string) ([]byte, error) {
	return git.Output(ctx, g.Root, append(os.Environ(), "GIT_OPTIONAL_LOCKS=0"), args...)
}

// snapshot takes the backstop's before-picture for a shell call, unless
// the analysis proved the command read-only: then git status is not run.
func (g *Gate) snapshot(ctx context.Context, readOnly bool) *state.Pending {
	if !g.Config.Shell.Backstop || g.call.ToolUseID == "" {
		return nil
	}
	if readOnly {
		g.explain.step("backstop", "skip", "the command is proven read-only")
		return nil
	}
	paths, ok := g.dirtyPaths(ctx)
	if !ok {
		g.explain.step("backstop", "off", "not a git repository")
		return nil
	}
	g.explain.step("backstop", "snapshot", fmt.Sprintf("%d changed path(s) before the command", len(paths)))
	head, tips, known := git.BranchTips(g.Root)
	return &state.Pending{Backstop: true, Snapshot: paths, Reflog: git.ReflogSize(g.Root), Head: head, Tips: tips, TipsKnown: known}
}

// changedSince returns the paths whose size or modification time differs
// from the snapshot (new in git status, changed since, or restored to their
// committed state), each with the digest of its content now ("" when gone):
// only these are read.
func (g *Gate) changedSince(ctx context.Context, pending state.Pending) (changed, after map[string]string) {
	before := pending.Snapshot
	after, ok := g.dirtyPaths(ctx)
	if !ok {
		return nil, nil
	}
	changed = map[string]string{}
	for p, fp := range after {
		if old, seen := before[p]; !seen || old != fp {
			changed[p] = ""
		}
	}
	for p, old := range before {
		if _, still := after[p]; !still && fingerprint(filepath.Join(g.Root, filepath.FromSlash(p))) != old[1:] {
			changed[p] = ""
		}
	}
	for rel := range g.committedSince(ctx, pending) {
		changed[rel] = ""
	}
	for p := range changed {
		changed[p], _ = digest.File(filepath.Join(g.Root, filepath.FromSlash(p)))
	}
	return changed, after
}

// committedSince returns the paths (root-relative) changed by commits the
// command brought into HEAD's history itself, which git status no longer
// shows:
//   - the commits it made: HEAD's reflog entries after the snapshot that are
//     commits, amends, cherry-picks or reverts (awk … && git commit
//     --no-verify -am x is judged like the awk);
//   - when HEAD moved (a checkout or reset to a commit made by plumbing,
//     git commit-tree and the like), the commits on its new side that no
//     local branch held before the command, no remote-tracking branch or
//     tag holds, and that are not the equivalent of a commit on its old side:
//     a pull, a checkout of a branch or of others' work, and a rebase bring
//     commits made elsewhere, which are not the command's doing. A merge is
//     judged by what it changes beyond its parents.
func (g *Gate) committedSince(ctx context.Context, p state.Pending) map[string]bool {
	var ids []string
	for _, e := range git.Reflog(g.Root, p.Reflog) {
		switch {
		case strings.HasPrefix(e.Message, "commit (merge)"): // brings other commits' changes
		case strings.HasPrefix(e.Message, "commit"), strings.HasPrefix(e.Message, "cherry-pick"), strings.HasPrefix(e.Message, "revert"):
			ids = append(ids, e.New)
		}
	}
	ids = append(ids, g.broughtIn(ctx, p)...)
	out := map[string]bool{}
	if len(ids) == 0 {
		return out
	}
	_, paths, err := git.Locate(ctx, g.Root, g.Root)
	if err != nil {
		return out
	}
	fed := map[string]bool{}
	for _, id := range ids {
		fed[id] = true
	}
	names, err := git.OutputFed(ctx, g.Root, append(os.Environ(), "GIT_OPTIONAL_LOCKS=0"), []byte(strings.Join(ids, "\n")+"\n"),
		"diff-tree", "--stdin", "-r", "-c", "--root", "--name-only", "-z")
	if err != nil {
		return out
	}
	for _, name := range git.NulList(names) {
		if fed[strings.TrimSpace(name)] {
			continue // the line naming the commit
		}
		if rel, ok := paths.ToRoot(name); ok && !strings.HasPrefix(rel, ".orchestration/") {
			out[rel] = true
		}
	}
	return out
}

// maxBroughtIn bounds the commits a move of HEAD is judged by.
const maxBroughtIn = 500

// broughtIn returns the commits a move of HEAD inside the command brought
// that were not there before it (see committedSince), none when HEAD did
// not move.
func (g *Gate) broughtIn(ctx context.Context, p state.Pending) []string {
	_, now := git.HeadInfo(g.Root)
	if p.Head == "" || now == "" || now == p.Head {
		return nil
	}
	before := []string{p.Head}
	if p.TipsKnown {
		before = append(before, p.Tips...)
	} else {
		before = append(before, "--branches")
	}
	limit := "--max-count=" + strconv.Itoa(maxBroughtIn)
	// What HEAD holds now that nothing held before the command, nor a
	// remote-tracking branch or tag (what a pull or a fetch brought).
	fresh, err := g.revs(ctx, append([]string{"rev-list", limit, now, "--not", "--remotes", "--tags"}, before...)...)
	if err != nil || len(fresh) == 0 {
		return nil
	}
	// What was held before and HEAD no longer holds: the commits a rebase
	// copied. A fresh commit with the same patch as one of them is a copy.
	gone, err := g.revs(ctx, append(append([]string{"rev-list", limit}, before...), "--not", now)...)
	if err != nil || len(gone) == 0 {
		return fresh
	}
	ids, err := g.patchIDs(ctx, append(slices.Clone(fresh), gone...))
	if err != nil {
		return fresh
	}
	copied := map[string]bool{}
	for _, c := range gone {
		copied[ids[c]] = true
	}
	var out []string
	for _, c := range fresh {
		if id := ids[c]; id == "" || !copied[id] {
			out = append(out, c)
		}
	}
	return out
}

// revs runs a rev-list and returns the commits it lists.
func (g *Gate) revs(ctx context.Context, args ...string) ([]string, error) {
	out, err := g.git(ctx, args...)
	return strings.Fields(string(out)), err
}

// patchIDs maps each commit to the stable patch id of its change (none for
// a merge or an empty change).
func (g *Gate) patchIDs(ctx context.Context, commits []string) (map[string]string, error) {
	env := append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	patches, err := git.OutputFed(ctx, g.Root, env, []byte(strings.Join(commits, "\n")+"\n"), "diff-tree", "--stdin", "-p", "--root")
	if err != nil {
		return nil, err
	}
	out, err := git.OutputFed(ctx, g.Root, env, patches, "patch-id", "--stable")
	if err != nil {
		return nil, err
	}
	ids := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if id, commit, ok := strings.Cut(line, " "); ok {
			ids[commit] = id
		}
	}
	return ids, nil
}

// backstop compares the work tree with the call's snapshot. Changes inside
// the intent's scope become ordinary records; changes outside it are
// violations: recorded, and answered with exit 2 telling the model to
// revert them.
func (g *Gate) backstop(ctx context.Context, intentID string, pending state.Pending) (hook.Decision, []change) {
	changed, after := g.changedSince(ctx, pending)
	others := g.othersWrites(pending.At)
	in := g.Catalog.Find(intentID)
	var inScope []change
	var outside []string
	for rel, h := range changed {
		_, analysed := pending.PreHash[rel] // a target the chain already judged
		switch {
		case analysed, workspace.Sidecar(rel, g.Config.LessonsFile), g.Ignore.Match(rel, false), others[rel], rel == clientWrites:
			continue
		}
		if in != nil {
			if _, ok := in.Match(rel); ok {
				// The snapshot holds fingerprints, not digests: what the file
				// held before the command is not known, only whether it was
				// there.
				c := change{rel: rel, post: h, scope: ScopePass}
				c.content, _ = osfile.ReadFile(filepath.Join(g.Root, filepath.FromSlash(rel)))
				c.class = classify(false, rel, preMark(after[rel], pending.Snapshot[rel]), c.post, false, false, "")
				inScope = append(inScope, c)
				continue
			}
		}
		outside = append(outside, rel)
	}
	slices.Sort(outside)
	g.explain.step("backstop", "compare", fmt.Sprintf("%d changed, %d in scope, %d outside", len(changed), len(inScope), len(outside)))
	if len(outside) == 0 {
		return hook.Decision{}, inScope
	}
	// One violation record per file, each naming it in files[] with what
	// happened to it, so blame and audits find it like any change.
	var recs []*ledger.Record
	for _, rel := range outside {
		r := g.record(ledger.EventViolation, intentID)
		m := &r.Metadata.Intenthook
		m.ScopeValidation, m.Decision, m.Code, m.Success = ScopeFail, "violation", CodeOutOfScopeChange, false
		m.Paths, m.Command, m.CommandHash = []string{rel}, g.call.Command, digest.String(g.call.Command)
		post := changed[rel]
		m.PostHash = ledger.NullString(post)
		m.MutationClass = classify(false, rel, preMark(after[rel], pending.Snapshot[rel]), post, false, false, "")
		r.Files = []ledger.File{g.fileEntry(rel, nil, intentID)}
		recs = append(recs, r)
	}
	g.note(g.appendRecords(ctx, recs...))
	for _, rel := range outside {
		g.note(g.lesson(ctx, CodeOutOfScopeChange, intentID, rel, "the shell command `"+g.call.Command+"` changed it, outside the intent's scope"))
	}
	return g.violation(intentID, in, outside), inScope
}

func (g *Gate) violation(intentID string, in *intents.Intent, outside []string) hook.Decision {
	var b strings.Builder
	if in != nil {
		fmt.Fprintf(&b, "intenthook: violation [%s] %d file(s) changed outside %s's scope\n", CodeOutOfScopeChange, len(outside), intentID)
	} else {
		fmt.Fprintf(&b, "intenthook: violation [%s] %d file(s) changed with no intent selected\n", CodeOutOfScopeChange, len(outside))
	}
	fmt.Fprintf(&b, "files:\n%s\n", hook.List(prefixAll("  ", outside), g.Budget()/2))
	if in != nil {
		fmt.Fprintf(&b, "why: the command changed files that intent does not own (it owns %s)\n", in.ScopeSummary())
	} else {
		b.WriteString("why: every change must belong to a selected intent, and this session has none\n")
	}
	b.WriteString("instead: revert those files now (git checkout -- <file>, or delete files you created), then change only files in scope; ask the user if the change is needed")
	return hook.Decision{Violation: true, Code: CodeOutOfScopeChange, Message: b.String()}
}

func prefixAll(p string, items []string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = p + it
	}
	return out
}

// othersWrites are the paths other tool calls wrote while this command ran:
// those another call recorded since the snapshot, and those another call
// that is still in flight was allowed to write. A parallel agent's write is
// not this command's doing. Denied calls wrote nothing and do not count.
func (g *Gate) othersWrites(since time.Time) map[string]bool {
	out := map[string]bool{}
	// Only what was appended since the snapshot is read: decoding the whole
	// window on every shell call was most of a build-like call's own cost.
	// An append may wait for the lock (twice: the spool, then the record).
	recs, _ := ledger.ReadSince(g.Root, since, time.Second+2*g.Config.LockTimeout, workspace.TraceWindow)
	for i := range recs {
		r := &recs[i]
		m := &r.Metadata.Intenthook
		if m.Decision != "allow" || (m.Event != ledger.EventPostToolUse && m.Event != ledger.EventPostToolUseFailure) || m.ToolUseID == g.call.ToolUseID {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, r.Timestamp)
		if err != nil || t.Before(since.Add(-time.Second)) {
			continue
		}
		for _, f := range r.Files {
			out[f.Path] = true
		}
	}
	for rel := range g.Sessions.InFlight(g.call.ToolUseID) {
		out[rel] = true
	}
	return out
}
