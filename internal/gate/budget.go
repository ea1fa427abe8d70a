package gate

import (
	"context"
	"fmt"
	"slices"
	"strings"

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
// reached its budget, or in a session whose spend has reached
// config.yaml's session budget (budget_exceeded). Reads never come here.
// Counters that cannot be read deny too: an agent's program that damaged
// the guard's copy must not buy an unlimited budget.
func (b budgets) check() *hook.Decision {
	if d := b.checkIntent(); d != nil {
		return d
	}
	return b.checkSession()
}

func (b budgets) checkIntent() *hook.Decision {
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

// sessionLimit is config.yaml's session budget in an intent budget's
// shape, and the session's spend in the counters' shape.
func (b budgets) sessionLimit() (intents.Budget, budget.Spent) {
	c, s := b.g.Config.Budget, b.g.session.Spent
	return intents.Budget{Tokens: int64(c.Tokens), MicroUSD: int64(c.USD), Calls: int64(c.Calls)},
		budget.Spent{Calls: s.Calls, Tokens: s.Tokens, MicroUSD: s.MicroUSD}
}

func (b budgets) checkSession() *hook.Decision {
	g := b.g
	if !g.Config.Budget.Set() {
		return nil
	}
	u, over := budget.Exceeded(b.sessionLimit())
	if !over {
		g.explain.step("budget", "pass", hook.Ev("session", g.call.SessionID))
		return nil
	}
	g.explain.step("budget", "deny", hook.Ev("session", g.call.SessionID), hook.Ev("spent", u.String()))
	d := hook.Denial{
		Code:     hook.CodeBudgetExceeded,
		Headline: fmt.Sprintf("this session has spent its budget: %s", u.String()),
		Why:      fmt.Sprintf("config.yaml's budget: limits what each session spends (%s spent of %s %s); reads stay allowed", u.Amount(u.Spent), u.Amount(u.Limit), u.Kind),
		Instead:  "finish (submit what is done), or ask the user to raise budget: in .orchestration/config.yaml",
		Evidence: []string{hook.Ev("session", g.call.SessionID), hook.Ev(string(u.Kind), u.String())},
	}.Decision()
	return &d
}

// selfReadOnly reports whether the command is one call of intenthook's
// that changes nothing governed (status, budget ID, intents list, …): an
// agent over its budget may still look.
func selfReadOnly(a shell.Analysis) bool { return a.SelfLook() }

// sessionNoted is the session's own name among the budgets it was told
// about (state.Session.BudgetNoted), beside intent ids.
const sessionNoted = "session"

// count adds what r, the first record of a post, spent to its intent's
// counters and, under a session budget, to the session's, and keeps a
// word for the session when either comes near its budget.
func (b budgets) count(ctx context.Context, r *ledger.Record) {
	g := b.g
	m := &r.Metadata.Intenthook
	if m.Usage == nil {
		return
	}
	d := budget.Spent{Calls: m.Usage.Calls, Tokens: m.Usage.Tokens(), MicroUSD: int64(m.Usage.USD)}
	if g.Config.Budget.Set() {
		g.note(g.updateSession(ctx, func(s *state.Session) {
			s.Spent.Calls += d.Calls
			s.Spent.Tokens += d.Tokens
			s.Spent.MicroUSD += d.MicroUSD
		}))
		if u, near := budget.Near(b.sessionLimit()); near {
			b.noteNear(sessionNoted, fmt.Sprintf("intenthook: this session has spent %d%% of its budget (%s); at 100%% its writes are refused (budget_exceeded): finish, or ask the user to raise budget: in config.yaml", u.Percent(), u.String()))
		}
	}
	id := string(m.IntentID)
	if id == "" {
		return
	}
	spent, err := budget.Add(ctx, g.Root, id, d, g.env.now(), g.Config.LockTimeout)
	if err != nil {
		g.note(fmt.Errorf("intent spend counters: %w", err))
		return
	}
	if g.Catalog == nil {
		return
	}
	if in := g.Catalog.Find(id); in != nil {
		if u, near := budget.Near(in.Budget, spent); near {
			b.noteNear(id, fmt.Sprintf("intenthook: %s has spent %d%% of its budget (%s); at 100%% its writes are refused (budget_exceeded): finish, or ask the user to raise it", id, u.Percent(), u.String()))
		}
	}
}

// noteNear keeps msg for the session unless it was told about what (an
// intent id, or sessionNoted) already.
func (b budgets) noteNear(what, msg string) {
	g := b.g
	if slices.Contains(g.session.BudgetNoted, what) || slices.Contains(g.budgetNoted, what) {
		return
	}
	g.budgetNotes = append(g.budgetNotes, msg)
	g.budgetNoted = append(g.budgetNoted, what)
}

// noteOnce adds the near-budget words to d's context, once per session
// and budget.
func (b budgets) noteOnce(ctx context.Context, d hook.Decision) hook.Decision {
	g := b.g
	if len(g.budgetNotes) == 0 {
		return d
	}
	g.note(g.updateSession(ctx, func(s *state.Session) {
		for _, what := range g.budgetNoted {
			if !slices.Contains(s.BudgetNoted, what) {
				s.BudgetNoted = append(s.BudgetNoted, what)
			}
		}
	}))
	for _, msg := range g.budgetNotes {
		// A violation's answer carries its reason alone: the word goes
		// with it.
		switch {
		case d.Violation:
			d.Message += "\n\n" + msg
		case d.Context != "":
			d.Context += "\n\n" + msg
		default:
			d.Context = msg
		}
	}
	g.budgetNotes, g.budgetNoted = nil, nil
	return d
}

// spendLine is the one line the session context gives of in's spend: what
// it spent and what is left of each kind its budget limits, from the
// counters pre reads (never the ledger); "" for an intent without a
// budget.
func (b budgets) spendLine(in *intents.Intent) string {
	if in == nil || !in.Budget.Set() {
		return ""
	}
	s, err := budget.Read(b.g.Root, in.ID)
	if err != nil {
		return fmt.Sprintf("intenthook: %s's spend counters cannot be read, so its writes are refused (budget_exceeded)", in.ID)
	}
	var parts []string
	for _, u := range budget.Uses(in.Budget, s) {
		parts = append(parts, fmt.Sprintf("%s (%s left)", u.String(), u.Amount(u.Left())))
	}
	line := fmt.Sprintf("intenthook: %s has spent %s of its budget", in.ID, strings.Join(parts, ", "))
	if _, over := budget.Exceeded(in.Budget, s); over {
		line += "; reached: its writes are refused (budget_exceeded), finish or ask the user to raise it"
	}
	return line
}
