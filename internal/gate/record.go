package gate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/lessons"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/selection"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/summary"
	"github.com/intenthook/intenthook/internal/transcript"
)

// ranges attributes lines of content (the file after the call) to the call:
// the runs of lines an edit's hunks added (context lines are not the
// call's; a pure deletion adds none, and has no range), else the hunks'
// extent when they came without their lines, else the lines where its new
// strings stand, else the whole file. Each range's hash covers exactly its
// lines' bytes, newlines included, so a whole-file range's hash is the
// file's post-hash.
func ranges(c *hook.Call, content []byte) []ledger.Range {
	if len(content) == 0 {
		return nil
	}
	starts := lineStarts(content)
	span := func(first, last int) ledger.Range {
		end := len(content)
		if last < len(starts) {
			end = starts[last]
		}
		return ledger.Range{StartLine: first, EndLine: last, ContentHash: digest.Bytes(content[starts[first-1]:end])}
	}
	if !c.WholeFile {
		if out, ok := addedRanges(c.Hunks, len(starts), span); ok {
			return out
		}
		var out []ledger.Range
		for _, h := range c.Hunks {
			if h.NewLines <= 0 || h.NewStart < 1 || h.NewStart > len(starts) {
				continue
			}
			out = append(out, span(h.NewStart, min(h.NewStart+h.NewLines-1, len(starts))))
		}
		if len(out) > 0 {
			return out
		}
		for _, s := range c.NewStrings {
			i := bytes.Index(content, []byte(s))
			if s == "" || i < 0 {
				continue
			}
			first := lineOf(starts, i)
			last := lineOf(starts, i+len(s)-1)
			out = append(out, span(first, last))
		}
		if len(out) > 0 {
			return out
		}
	}
	return []ledger.Range{span(1, len(starts))}
}

// addedRanges turns the added runs of hunks that came with their lines into
// ranges; ok is false when no hunk has its lines.
func addedRanges(hunks []hook.Hunk, lines int, span func(first, last int) ledger.Range) (out []ledger.Range, ok bool) {
	out = []ledger.Range{}
	for _, h := range hunks {
		if !h.HasLines {
			continue
		}
		ok = true
		for _, r := range h.Added {
			if r.First < 1 || r.First > lines {
				continue
			}
			out = append(out, span(r.First, min(r.Last, lines)))
		}
	}
	return out, ok
}

// lineStarts returns the byte offset where each line begins.
func lineStarts(b []byte) []int {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' && i+1 < len(b) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf returns the 1-based line holding byte offset off.
func lineOf(starts []int, off int) int {
	lo, hi := 0, len(starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1
}

// record starts a ledger record for this call.
func (g *Gate) record(event, intentID string) *ledger.Record {
	return ledger.ForCall(g.Revision(), event, intentID, g.call)
}

// fileEntry attributes ranges of rel to this conversation and its intent.
func (g *Gate) fileEntry(rel string, rs []ledger.Range, intentID string) ledger.File {
	a := ledger.Attribution{Transcript: g.transcript(), Model: g.model(), IntentID: intentID}
	if in := g.Catalog.Find(intentID); intentID != "" && in != nil {
		for _, s := range in.RelatedSpecs {
			a.Specs = append(a.Specs, s.URL)
		}
	}
	return ledger.NewFile(rel, rs, a)
}

func (g *Gate) transcript() string {
	t := g.call.TranscriptPath
	if t == "" {
		t = g.session.Transcript
	}
	// A subagent's calls name the parent's transcript; Claude Code keeps
	// the subagent's own beside it, <session>/subagents/agent-<id>.jsonl.
	if base, ok := strings.CutSuffix(t, ".jsonl"); ok && g.call.AgentID != "" && !strings.ContainsAny(g.call.AgentID, `/\`) {
		own := base + "/subagents/agent-" + g.call.AgentID + ".jsonl"
		if _, err := os.Stat(own); err == nil {
			return own
		}
	}
	return t
}

// model is the model behind the call: named by the event, else known to the
// session, else read once from the tail of the transcript (Claude Code's -p
// runs name it on no event) and remembered for the session by
// rememberModel.
func (g *Gate) model() string {
	switch {
	case g.call.Model != "":
		return g.call.Model
	case g.session.Model != "":
		return g.session.Model
	case g.learned == nil:
		m := transcript.Model(g.transcript())
		g.learned = &m
	}
	return *g.learned
}

// attributeModel names model, the one the call's transcript shows it spent
// on (its newest assistant message), as the contributor of recs' AI
// ranges, when the event named none: the records were attributed before
// the transcript was read, from what the session knew, and a switch of
// model (/model, whose events name no model) since then would be lost.
func attributeModel(recs []*ledger.Record, named, model string) {
	if named != "" || model == "" {
		return
	}
	id := ledger.ModelID(model)
	for _, r := range recs {
		for i := range r.Files {
			for j := range r.Files[i].Conversations {
				if c := r.Files[i].Conversations[j].Contributor; c != nil && c.Type == "ai" {
					c.ModelID = id
				}
			}
		}
	}
}

// rememberModel keeps a model learned from the transcript in the session
// state, so later calls need not read the transcript again.
func (g *Gate) rememberModel(ctx context.Context) {
	if g.learned == nil || *g.learned == "" || g.session.Model != "" {
		return
	}
	m := *g.learned
	g.note(g.updateSession(ctx, func(s *state.Session) { s.Model = m }))
}

// appendRecords writes records; a record that cannot be written is spooled
// by the ledger, so an error here means even the spool failed. Decisions
// stand regardless: the error becomes a note on stderr.
func (g *Gate) appendRecords(ctx context.Context, recs ...*ledger.Record) error {
	if len(recs) > 0 && g.call.AfterTool() && !g.usageAdded {
		g.usageAdded = true
		g.addUsage(ctx, recs[0])
		attributeModel(recs, g.call.Model, recs[0].Metadata.Intenthook.Usage.Model)
		// Before the ledger: a spend the ledger could not hold still
		// counts against the intent's budget.
		budgets{g}.count(ctx, recs[0])
	}
	if err := g.Ledger(g.env.Version).Append(ctx, recs...); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	// The session's counters, for its summary and its intents' results:
	// counted as recorded, so that neither ever reads the ledger.
	if err := summary.Count(g.Root, g.call.SessionID, recs, g.env.now()); err != nil {
		return fmt.Errorf("session counters: %w", err)
	}
	return nil
}

// lesson records a lesson in the shared brain; like records, a lesson that
// cannot be written never changes a decision.
func (g *Gate) lesson(ctx context.Context, code, intentID, rel, msg string) error {
	return lessons.Record(ctx, g.Root, g.Config.LessonsFile, g.Config.LockTimeout, lessons.Lesson{
		Time: g.env.now(), Code: code, Intent: intentID, Tool: g.call.ToolName, Path: rel, Message: msg, Keep: g.Config.LessonsMax,
	})
}

// recordDenial appends a deny as a FAIL record and, for scope and stale
// denials, records a lesson.
func (g *Gate) recordDenial(ctx context.Context, t *target, d hook.Decision) {
	if t == nil {
		t = &target{}
		t.intentID, _ = g.activeIntent()
	}
	r := g.record(ledger.EventPreToolUse, t.intentID)
	m := &r.Metadata.Intenthook
	m.ScopeValidation, m.Decision, m.Code, m.Success = ledger.ScopeFail, "deny", ledger.NullString(d.Code), false
	m.Reason = safetext.FirstLine(d.Message)
	if g.call.Command != "" {
		m.Command, m.CommandHash = g.call.Command, digest.String(g.call.Command)
	}
	if t.res.Rel != "" {
		r.Files = []ledger.File{g.fileEntry(t.res.Rel, nil, t.intentID)}
	}
	g.note(g.appendRecords(ctx, r))
	if d.Code == hook.CodeScopeViolation || d.Code == hook.CodeStaleFile {
		g.note(g.lesson(ctx, d.Code, t.intentID, t.res.Rel, safetext.FirstLine(d.Message)))
	}
}

// recordSelect appends a select record.
func (g *Gate) recordSelect(ctx context.Context, in *intents.Intent) {
	r := g.record(ledger.EventSelect, in.ID)
	m := &r.Metadata.Intenthook
	m.ScopeValidation, m.Decision = ledger.ScopeExempt, "allow"
	m.Reason = selection.Reasoning(g.call.Reasoning)
	g.note(g.appendRecords(ctx, r))
}

// note keeps a non-fatal error for stderr: the decision stands without it.
func (g *Gate) note(err error) {
	if err != nil {
		g.notes = append(g.notes, "intenthook: warning: "+safetext.OneLine(err.Error()))
	}
}
