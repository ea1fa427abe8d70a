package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/intentctx"
	"github.com/intenthook/intenthook/internal/intents"

	"github.com/intenthook/intenthook/internal/anchors"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/review"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/selection"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/summary"
)

// contextHook is what SessionContext tells the agent besides the rules:
// the plan, what people said, a subagent's intent.
type contextHook struct{ *Gate }

const preamble = `This workspace is governed by intenthook. Every file change must belong to a declared intent
from .orchestration/active_intents.yaml, and may only touch files in that intent's owned_scope.
Before changing files, select the intent the work belongs to by running the shell command:
  intenthook select <ID>
A denied tool call explains why and what to do instead; governance files are changed by the user.
When you learn something later sessions should know, record it: intenthook lesson "<text>" --intent <ID>
(or the record_lesson tool of the intenthook MCP server).`

// SessionContext answers SessionStart (every source, compact included, so
// the context survives compaction) and UserPromptSubmit (SPEC §9).
func (g *Gate) SessionContext(ctx context.Context) (hook.Decision, error) {
	if g.call.Repeat {
		g.explain.step("context", "skip", "the agent resends this event without news")
		return hook.Decision{}, nil
	}
	var resumed string
	switch {
	case g.call.Event == hook.SessionEnd:
		// The end, with the model and transcript, in one write (below).
	case g.call.Event == hook.SessionStart && g.call.Source == "resume" && (sessionEnds{g}).holdsAnything():
		told, err := sessionEnds{g}.resume(ctx)
		if err != nil {
			return hook.Decision{}, err
		}
		resumed = told
	case g.call.Model != "" || g.call.TranscriptPath != "":
		if err := g.updateSession(ctx, func(s *state.Session) {}); err != nil {
			return hook.Decision{}, err
		}
	}
	if g.call.Event == hook.SubagentStart {
		return contextHook{g}.subagentStart(ctx), nil
	}
	if g.call.Event == hook.PluginStart {
		return plugins{g}.announcePlugin()
	}
	if g.call.Event == hook.Stop || g.call.Event == hook.SessionEnd {
		// A turn's end releases nothing; the session's end releases its
		// claim first, the cheap part. Then the summary: an export started
		// now sends it too.
		var ended error
		if g.call.Event == hook.SessionEnd {
			ended = sessionEnds{g}.endSession(ctx)
		}
		err := contextHook{g}.recordSummary(ctx)
		g.startExport()
		return hook.Decision{}, errors.Join(ended, err)
	}
	id, _ := g.activeIntent()
	in := g.Catalog.Find(id)
	said := resumed + contextHook{g}.peopleSaid()
	if g.call.Event == hook.UserPromptSubmit {
		if in == nil {
			return hook.Decision{Context: said + "intenthook: no intent selected; run `intenthook select <ID>` before changing files"}, nil
		}
		line := said + fmt.Sprintf("intenthook: working on %s (%s, %s); scope: %s", in.ID, in.Name, in.Status, in.ScopeSummary())
		if plan := (contextHook{g}).planLine(in); plan != "" {
			line += "\n" + plan
		}
		if spend := (budgets{g}).spendLine(in); spend != "" {
			line += "\n" + spend
		}
		if an := anchors.Turn(anchors.Newest(g.Root, in.ID, 3), g.Budget()-len(line)-1); an != "" {
			line += "\n" + an
		}
		return hook.Decision{Context: line}, nil
	}
	budget := g.Budget() - len(said)
	// After a compaction the anchored decisions come first, and take up to
	// half the budget before anything else is cut: the rest can be read
	// again, they cannot.
	lead := ""
	if g.call.Source == "compact" {
		if lead = anchors.Block(anchors.Recent(g.Root, id), id, budget/2); lead != "" {
			lead += "\n\n"
			budget -= len(lead)
		}
	}
	text := preamble + "\n\nIntents you can select:\n" + selection.Selectable(g.Catalog, budget/3)
	// What earlier sessions learned about the whole workspace reaches every
	// session, selected or not, within an eighth of the budget.
	text += g.GeneralLessons(budget / 8)
	if in != nil {
		text += "\n\nYour active intent:\n"
		if plan := (contextHook{g}).planLine(in); plan != "" {
			text += plan + "\n"
		}
		if spend := (budgets{g}).spendLine(in); spend != "" {
			text += spend + "\n"
		}
		// The intent's context first; what earlier sessions learned about
		// this work takes what is left, up to a quarter of the budget.
		text += g.SelectionContext(in, "", review.Rejected(g.Workspace, in), budget-len(text))
	}
	return hook.Decision{Context: said + lead + text}, nil
}

// recordSummary appends the session's session_summary record, from its
// counters (never the ledger): at its end always, at a turn's end only when
// something was counted since the last one, so that an agent without a
// session end leaves one summary per turn that did something, the newest
// holding the whole session.
func (g contextHook) recordSummary(ctx context.Context) error {
	s, changed, err := summary.Session(g.Root, g.call.SessionID)
	if err != nil || s.Empty() || (!changed && g.call.Event == hook.Stop) {
		return err
	}
	if !changed {
		// SessionEnd after a Stop that recorded everything already.
		return nil
	}
	raw, err := json.Marshal(s.Capped())
	if err != nil {
		return err
	}
	intent, _ := g.activeIntent()
	r := g.record(ledger.EventSessionSummary, intent)
	m := &r.Metadata.Intenthook
	m.ScopeValidation, m.Decision, m.Success, m.Summary = ledger.ScopeExempt, "allow", true, raw
	m.Reason = s.Line()
	if err := g.Ledger(g.env.Version).Append(ctx, r); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return summary.Mark(g.Root, g.call.SessionID, g.env.now())
}

// planLine says how far the plan of in (or, for a child, of its parent)
// has come, and which child can be taken up next; "" for an intent outside
// any tree.
func (g contextHook) planLine(in *intents.Intent) string {
	head := in
	p := g.Catalog.Progress(in.ID)
	if p.Total == 0 {
		if head = g.Catalog.Find(in.ParentIntent); head == nil || head == in {
			return ""
		}
		p = g.Catalog.Progress(head.ID)
	}
	line := fmt.Sprintf("plan %s (%s): %d/%d done", head.ID, safetext.OneLine(head.Name), p.Done, p.Total)
	switch {
	case p.Next != nil:
		line += fmt.Sprintf("; next: %s %s [%s]", p.Next.ID, safetext.OneLine(p.Next.Name), p.Next.Status)
	case p.Done < p.Total:
		line += "; no child can be taken up now (the rest wait on dependencies, a review or a person)"
	}
	return line
}

// peopleSaid is what a person left for this session (a rejection's
// reason), delivered once, fenced as a person's words; "" when nothing
// waits. The reason is clipped to a quarter of the budget.
func (g contextHook) peopleSaid() string {
	notes, err := review.NewStore(g.Workspace).Inbox(g.call.SessionID)
	if err != nil {
		g.note(fmt.Errorf("review notes: %w", err))
	}
	var b strings.Builder
	for _, n := range notes {
		fmt.Fprintf(&b, "intenthook: A person rejected the submission of %s; it is IN_PROGRESS again. Their reason, in their own words:\n", n.Intent)
		fmt.Fprintf(&b, "<review_rejection intent=%q written_by=\"person\">\n%s\n</review_rejection>\n", intentctx.Text(n.Intent), intentctx.Text(safetext.Clip(n.Reason, g.Budget()/4)))
		fmt.Fprintf(&b, "Address it, then submit again with `intenthook submit %s`.\n\n", n.Intent)
	}
	return b.String()
}

// subagentStart briefs a subagent as it starts: it claims its delegation,
// if one waits, and is told the intent it works on; without a delegation
// it works under the intent in force for it (its own selection, else its
// session's), and gets the governance preamble either way.
func (g contextHook) subagentStart(ctx context.Context) hook.Decision {
	budget := g.Budget()
	if d, ok := delegations(g).trackAgents(ctx); ok {
		if in := g.Catalog.Find(d.Intent); in != nil {
			head := fmt.Sprintf("intenthook: you were delegated intent %s (%s): change only files in its owned_scope (%s).", in.ID, in.Name, in.ScopeSummary())
			return hook.Decision{Context: head + "\n" + g.IntentContext(in, "", review.Rejected(g.Workspace, in), budget-len(head)-1)}
		}
	}
	text := preamble
	id, _ := g.activeIntent()
	if in := g.Catalog.Find(id); in != nil {
		text += fmt.Sprintf("\n\nYou work under intent %s (%s), selected for this session: change only files in its owned_scope.\n", in.ID, in.Name)
		text += g.IntentContext(in, "", review.Rejected(g.Workspace, in), budget-len(text))
	} else {
		text += "\n\nNo intent is selected for you yet. Intents you can select:\n" + selection.Selectable(g.Catalog, budget/3)
	}
	return hook.Decision{Context: text}
}
