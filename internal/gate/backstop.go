package gate

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/intenthook/intenthook/internal/backstop"
	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// The gate's side of the backstop (package backstop): the picture before a
// shell call, and after it the records, lessons and answer for what the
// command changed.

// clientWrites is what the agent's client itself writes while a command
// waits for the user's permission: Claude Code saves a "don't ask again"
// answer there. It is not the command's doing.
const clientWrites = ".claude/settings.local.json"

// snapshot takes the backstop's picture for a shell call, unless the
// analysis proved the command read-only: then git status is not run.
func (g *Gate) snapshot(ctx context.Context, readOnly bool) *state.Pending {
	if !g.Config.Shell.Backstop || g.call.ToolUseID == "" {
		return nil
	}
	if readOnly {
		g.explain.step("backstop", "skip", "the command is proven read-only")
		return nil
	}
	p := backstop.Take(ctx, g.Root)
	if p == nil {
		g.explain.step("backstop", "off", "not a git repository")
		return nil
	}
	g.explain.step("backstop", "snapshot", fmt.Sprintf("%d changed path(s) before the command", len(p.Paths)))
	return &state.Pending{Backstop: p}
}

// backstopCall answers the backstop's questions about this call.
type backstopCall struct {
	g       *Gate
	pending state.Pending
	in      *intents.Intent
	// others is read once, after the command's changes are known: a
	// parallel call that recorded its write meanwhile is then in it.
	others map[string][]string
}

func (c *backstopCall) Excused(rel string) bool {
	if _, analysed := c.pending.PreHash[rel]; analysed { // a target the chain already judged
		return true
	}
	if workspace.Sidecar(c.g.Governance, rel, c.g.Config.LessonsFile) || c.g.Ignore.Match(rel, false) || rel == clientWrites {
		return true
	}
	if c.others == nil {
		c.others = c.g.othersWrites(c.pending.At)
	}
	// Another call's claim stands only where the rules the command started
	// under let it write: an intent of the catalog owns the path.
	for _, id := range c.others[rel] {
		if in := c.g.Catalog.Find(id); in != nil {
			if _, ok := in.Match(rel); ok {
				return true
			}
		}
	}
	return false
}

func (c *backstopCall) InScope(rel string) bool {
	if c.in == nil {
		return false
	}
	_, ok := c.in.Match(rel)
	return ok
}

// backstop compares the work tree with the call's picture. Changes inside
// the intent's scope become ordinary records; changes outside it are
// violations: recorded, and answered with exit 2 telling the model to
// revert them.
func (g *Gate) backstop(ctx context.Context, intentID string, pending state.Pending) (hook.Decision, []change) {
	in := g.Catalog.Find(intentID)
	call := &backstopCall{g: g, pending: pending, in: in}
	pending.Backstop.Since = pending.At
	r := backstop.Compare(ctx, g.Root, pending.Backstop, call)
	g.explain.step("backstop", "compare", fmt.Sprintf("%d changed, %d in scope, %d outside", r.Changed, len(r.InScope), len(r.Outside)))
	var inScope []change
	for _, bc := range r.InScope {
		c := change{rel: bc.Rel, post: bc.Post, scope: ledger.ScopePass, class: ledger.Classify(false, bc.Rel, existedMark(bc), bc.Post, false, false, "")}
		c.content, _ = osfile.ReadFile(filepath.Join(g.Root, filepath.FromSlash(bc.Rel)))
		inScope = append(inScope, c)
	}
	if len(r.Outside) == 0 {
		return hook.Decision{}, inScope
	}
	// One violation record per file, each naming it in files[] with what
	// happened to it, so blame and audits find it like any change.
	var recs []*ledger.Record
	var outside []string
	reverts := map[string]string{}
	for _, bc := range r.Outside {
		if backstop.PutCommand(bc) != "" {
			reverts[bc.Rel] = bc.Put()
		}
		rec := g.record(ledger.EventViolation, intentID)
		m := &rec.Metadata.Intenthook
		m.ScopeValidation, m.Decision, m.Code, m.Success = ledger.ScopeFail, "violation", backstop.CodeOutOfScopeChange, false
		m.Paths, m.Command, m.CommandHash = []string{bc.Rel}, g.call.Command, digest.String(g.call.Command)
		m.PostHash = ledger.NullString(bc.Post)
		m.MutationClass = ledger.Classify(false, bc.Rel, existedMark(bc), bc.Post, false, false, "")
		rec.Files = []ledger.File{g.fileEntry(bc.Rel, nil, intentID)}
		recs = append(recs, rec)
		outside = append(outside, bc.Rel)
	}
	g.note(g.appendRecords(ctx, recs...))
	// What the answer tells the session to run, it may run: the files this
	// violation names replace the last one's.
	g.note(g.updateSession(ctx, func(s *state.Session) { s.Reverts = reverts }))
	for _, rel := range outside {
		g.note(g.lesson(ctx, backstop.CodeOutOfScopeChange, intentID, rel, "the shell command `"+g.call.Command+"` changed it, outside the intent's scope"))
	}
	if in == nil {
		return backstop.Violation("", "", r.Outside, g.Budget()/2), inScope
	}
	return backstop.Violation(intentID, in.ScopeSummary(), r.Outside, g.Budget()/2), inScope
}

// existedMark stands in for the unknown pre-hash of a changed path when
// classifying it: non-empty when the path was there before the command.
func existedMark(c backstop.Change) string {
	if c.Existed {
		return "existed"
	}
	return ""
}

// othersWrites are the paths other tool calls wrote while this command ran,
// each with the intents those calls claimed: the paths another call
// recorded since the snapshot, and those another call that is still in
// flight was allowed to write. A parallel agent's write is not this
// command's doing. Denied calls wrote nothing and do not count; nor does a
// record whose own scope check failed: a post with no pre behind it (the
// binary run by the command on a made-up event writes one for any path)
// vouches for nothing. What a record or a pending entry claims is the
// writer's word (a program can append either), so Excused holds the claim
// to the catalog.
func (g *Gate) othersWrites(since time.Time) map[string][]string {
	out := map[string][]string{}
	// Only what was appended since the snapshot is read: decoding the whole
	// window on every shell call was most of a build-like call's own cost.
	// An append may wait for the lock (twice: the spool, then the record).
	recs, _ := ledger.ReadSince(g.Root, since, time.Second+2*g.Config.LockTimeout, workspace.TraceWindow)
	for i := range recs {
		r := &recs[i]
		m := &r.Metadata.Intenthook
		if m.Decision != "allow" || m.ScopeValidation != ledger.ScopePass || (m.Event != ledger.EventPostToolUse && m.Event != ledger.EventPostToolUseFailure) || m.ToolUseID == g.call.ToolUseID {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, r.Timestamp)
		if err != nil || t.Before(since.Add(-time.Second)) {
			continue
		}
		for _, f := range r.Files {
			out[f.Path] = append(out[f.Path], string(m.IntentID))
		}
	}
	for rel, ids := range g.Sessions.InFlight(g.call.ToolUseID) {
		out[rel] = append(out[rel], ids...)
	}
	return out
}
