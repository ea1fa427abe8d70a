package gate

import (
	"context"
	"fmt"

	"github.com/intenthook/intenthook/internal/anchors"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/selection"
	"github.com/intenthook/intenthook/internal/state"
)

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
	if g.call.Model != "" || g.call.TranscriptPath != "" {
		if err := g.updateSession(ctx, func(s *state.Session) {}); err != nil {
			return hook.Decision{}, err
		}
	}
	if g.call.Event == hook.SubagentStart {
		return g.subagentStart(ctx), nil
	}
	if g.call.Event == hook.PluginStart {
		return g.announcePlugin()
	}
	id, _ := g.activeIntent()
	in := g.Catalog.Find(id)
	if g.call.Event == hook.UserPromptSubmit {
		if in == nil {
			return hook.Decision{Context: "intenthook: no intent selected; run `intenthook select <ID>` before changing files"}, nil
		}
		return hook.Decision{Context: fmt.Sprintf("intenthook: working on %s (%s, %s); scope: %s", in.ID, in.Name, in.Status, in.ScopeSummary())}, nil
	}
	budget := g.Budget()
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
		// The intent's context first; what earlier sessions learned about
		// this work takes what is left, up to a quarter of the budget.
		text += g.SelectionContext(in, "", budget-len(text))
	}
	return hook.Decision{Context: lead + text}, nil
}

// subagentStart briefs a subagent as it starts: it claims its delegation,
// if one waits, and is told the intent it works on; without a delegation
// it works under the intent in force for it (its own selection, else its
// session's), and gets the governance preamble either way.
func (g *Gate) subagentStart(ctx context.Context) hook.Decision {
	budget := g.Budget()
	if d, ok := g.trackAgents(ctx); ok {
		if in := g.Catalog.Find(d.Intent); in != nil {
			head := fmt.Sprintf("intenthook: you were delegated intent %s (%s): change only files in its owned_scope (%s).", in.ID, in.Name, in.ScopeSummary())
			return hook.Decision{Context: head + "\n" + g.IntentContext(in, "", budget-len(head)-1)}
		}
	}
	text := preamble
	id, _ := g.activeIntent()
	if in := g.Catalog.Find(id); in != nil {
		text += fmt.Sprintf("\n\nYou work under intent %s (%s), selected for this session: change only files in its owned_scope.\n", in.ID, in.Name)
		text += g.IntentContext(in, "", budget-len(text))
	} else {
		text += "\n\nNo intent is selected for you yet. Intents you can select:\n" + selection.Selectable(g.Catalog, budget/3)
	}
	return hook.Decision{Context: text}
}
