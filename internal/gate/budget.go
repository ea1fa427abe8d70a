package gate

import (
	"context"
	"fmt"
	"slices"

	"github.com/intenthook/intenthook/internal/budget"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/shell"
	"github.com/intenthook/intenthook/internal/state"
)

// budgets are the intents' spend counters as the hooks keep and read them:
// post adds each call's usage to its intent's, pre refuses a call that may
// write once the intent's spend reaches its budget, and the session is
// told once when it comes near.
type budgets struct{ g *Gate }

// intentBudget returns the active intent and its budget, when it has one.
func (b budgets) intentBudget() (string, intents.Budget, bool) {
	g := b.g
	id, _ := g.activeIntent()
	if id == "" || g.Catalog == nil {
		return "", intents.Budget{}, false
	}
	in := g.Catalog.Find(id)
	if in == nil || !in.Budget.Set() {
		return "", intents.Budget{}, false
	}
	return id, in.Budget, true
}

// check denies a call that may write under an intent whose spend has
// reached its budget (budget_exceeded). Reads never come here. Counters
// that cannot be read deny too: an agent's program that damaged the
// guard's copy must not buy an unlimited budget.
func (b budgets) check() *hook.Decision {
	g := b.g
	id, limit, ok := b.intentBudget()
	if !ok {
		return nil
	}
	spent, err := budget.Read(g.Root, id)
	if err != nil {
		g.explain.step("budget", "deny", "counters unreadable: "+err.Error())
		d := hook.Denial{
			Code:     hook.CodeBudgetExceeded,
			Headline: fmt.Sprintf("%s's spend counters cannot be read, so its budget cannot be held", id),
			Why:      "the intent has a budget, and what it spent is unknown: " + err.Error(),
			Instead:  "finish without writing, or ask the user to look at .orchestration/state/spend (intenthook doctor)",
			Evidence: []string{hook.Ev("intent", id), hook.Ev("session", g.call.SessionID)},
		}.Decision()
		return &d
	}
	u, over := budget.Exceeded(limit, spent)
	if !over {
		g.explain.step("budget", "pass", hook.Ev("intent", id))
		return nil
	}
	g.explain.step("budget", "deny", hook.Ev("intent", id), hook.Ev("spent", u.String()))
	d := hook.Denial{
		Code:     hook.CodeBudgetExceeded,
		Headline: fmt.Sprintf("%s has spent its budget: %s", id, u.String()),
		Why:      fmt.Sprintf("an intent's writes stop once its spend reaches its budget (%s spent of %s %s); reads stay allowed", u.Amount(u.Spent), u.Amount(u.Limit), u.Kind),
		Instead:  fmt.Sprintf("finish (submit what is done), or ask the user to raise it: intenthook budget %s --%s +N", id, u.Kind),
		Evidence: []string{hook.Ev("intent", id), hook.Ev(string(u.Kind), u.String()), hook.Ev("session", g.call.SessionID)},
	}.Decision()
	return &d
}

// selfReadOnly reports whether the command is one call of intenthook's
// that changes nothing governed (status, budget ID, intents list, …): an
// agent over its budget may still look.
func selfReadOnly(a shell.Analysis) bool {
	return a.Simple && len(a.Self) == 1 && a.Self[0].Kind == shell.SelfReadOnly && len(a.ByPath) == 0 &&
		len(a.Writes)+len(a.Deletes)+len(a.LinkSources)+len(a.Destructive)+len(a.Opaque)+len(a.Activates) == 0
}

// count adds what r, the first record of a post, spent to its intent's
// counters, and keeps a word for the session when the intent's spend
// comes near its budget.
func (b budgets) count(ctx context.Context, r *ledger.Record) {
	g := b.g
	m := &r.Metadata.Intenthook
	id := string(m.IntentID)
	if m.Usage == nil || id == "" {
		return
	}
	d := budget.Spent{Calls: m.Usage.Calls, Tokens: m.Usage.Tokens(), MicroUSD: int64(m.Usage.USD)}
	spent, err := budget.Add(ctx, g.Root, id, d, g.env.now(), g.Config.LockTimeout)
	if err != nil {
		g.note(fmt.Errorf("intent spend counters: %w", err))
		return
	}
	if g.Catalog == nil {
		return
	}
	in := g.Catalog.Find(id)
	if in == nil || slices.Contains(g.session.BudgetNoted, id) {
		return
	}
	if u, near := budget.Near(in.Budget, spent); near {
		g.budgetNote = fmt.Sprintf("intenthook: %s has spent %d%% of its budget (%s); at 100%% its writes are refused (budget_exceeded): finish, or ask the user to raise it", id, u.Percent(), u.String())
		g.budgetNoted = id
	}
}

// noteOnce adds the near-budget word to d's context, once per session and
// intent.
func (b budgets) noteOnce(ctx context.Context, d hook.Decision) hook.Decision {
	g := b.g
	if g.budgetNote == "" {
		return d
	}
	id := g.budgetNoted
	g.note(g.updateSession(ctx, func(s *state.Session) {
		if !slices.Contains(s.BudgetNoted, id) {
			s.BudgetNoted = append(s.BudgetNoted, id)
		}
	}))
	if d.Context != "" {
		d.Context += "\n\n"
	}
	d.Context += g.budgetNote
	return d
}
