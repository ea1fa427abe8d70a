package selection

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
)

// Selectable lists the intents an agent could select, one per line, within
// budget bytes.
func Selectable(c *intents.Catalog, budget int) string {
	var items []string
	for _, in := range c.All() {
		if in.ID == "" || in.Status == intents.Complete || in.Status == intents.Archived {
			continue
		}
		if _, _, stranded := c.Stranded(in); stranded {
			continue // waits on abandoned work: it can never start
		}
		mark := ""
		if !in.Valid() {
			mark = " (invalid)"
		}
		items = append(items, fmt.Sprintf("  %s %s [%s]%s: %s", in.ID, in.Name, in.Status, mark, in.ScopeSummary()))
	}
	if len(items) == 0 {
		return "  (none: ask the user to add or start an intent in .orchestration/active_intents.yaml)"
	}
	return hook.List(items, budget)
}

// maxReasoning bounds the reasoning a select record keeps.
const maxReasoning = 2000

// Reasoning is the reason a select record keeps for the selection tool's
// reasoning argument: agent text, so labelled as such, clipped on a
// character boundary and Go-quoted (one line, its end unmistakable). The
// ledger redacts secrets from it as from every reason.
func Reasoning(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	return "reasoning written by the agent: " + strconv.Quote(hook.Clip(text, maxReasoning))
}

// NotFound denies an intent id the catalog does not hold.
func NotFound(c *intents.Catalog, id string, budget int, evidence []string) hook.Decision {
	return hook.Denial{
		Code:     hook.CodeIntentNotFound,
		Headline: fmt.Sprintf("intent %s is not in .orchestration/active_intents.yaml", id),
		Why:      "the selected intent does not exist; intents you can select:\n" + Selectable(c, budget/2),
		Instead:  "select an existing intent with `intenthook select <ID>`, or ask the user to add this one",
		Evidence: evidence,
	}.Decision()
}

// Invalid denies an intent that fails validation.
func Invalid(in *intents.Intent, evidence []string) hook.Decision {
	return hook.Denial{
		Code:     hook.CodeCatalogInvalid,
		Headline: fmt.Sprintf("intent %s is invalid in .orchestration/active_intents.yaml", in.ID),
		Why:      strings.Join(in.Errors(), "; "),
		Instead:  "ask the user to fix the intent (intenthook intents validate), or select a valid intent",
		Evidence: evidence,
	}.Decision()
}

// NotInProgress denies work under an intent that is not IN_PROGRESS, saying
// what to do for its status.
func NotInProgress(in *intents.Intent, evidence []string) hook.Decision {
	d := hook.Denial{
		Code:     hook.CodeIntentNotInProgress,
		Headline: fmt.Sprintf("intent %s (%s) is %s, not IN_PROGRESS", in.ID, in.Name, in.Status),
		Evidence: evidence,
	}
	switch in.Status {
	case intents.Pending:
		d.Why = "work on a PENDING intent has not started"
		d.Instead = fmt.Sprintf("run `intenthook select %s` to start it, then retry", in.ID)
	case intents.InReview:
		d.Why = "the work was submitted for review; a person approves it or rejects it with a reason"
		d.Instead = "wait for the review: a rejection's reason reaches you with your next prompt; meanwhile select another intent for other work"
	case intents.Blocked:
		d.Why = "the intent is BLOCKED until the user resolves its blocker"
		d.Instead = "ask the user to resolve the blocker (intenthook intents transition " + in.ID + " IN_PROGRESS), or select another intent"
	case intents.Complete:
		d.Why = "completed work is immutable"
		d.Instead = "select the intent for the new work, or ask the user to create one"
	case intents.Archived:
		d.Why = "archived intents are closed for good"
		d.Instead = "select the intent for the new work, or ask the user to create one"
	}
	return d.Decision()
}
