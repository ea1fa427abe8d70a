package replay

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/budget"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/money"
	"github.com/intenthook/intenthook/internal/shell"
)

// A budget replay answers what a budget would have stopped: the calls the
// replayed records spent under an intent (each post's usage: the call, its
// tokens, their price) are added up in the ledger's order, as post adds
// them to the intent's counters, and the first call pre would have
// refused budget_exceeded is the first that may write once the spend
// reached the budget. The spend starts from nothing at the first record
// replayed, and raises recorded by intenthook budget are not counted: the
// question is the budget given, not the one people raised.

// BudgetReport is what one intent's budget would have stopped.
type BudgetReport struct {
	Intent string `json:"intent"`
	// Budget is the budget asked about, by kind.
	Budget []Limit `json:"budget"`
	// Spent is what the replayed calls spent under the intent, all of
	// them.
	Spent Spend `json:"spent"`
	// FirstRefused is the first call pre would have refused; absent when
	// the budget stops nothing.
	FirstRefused *BudgetCall `json:"first_refused,omitempty"`
	// Refused counts the calls pre would have refused, the first one
	// included; Passed those after the first it would still let through
	// (a call that writes nothing: an unclassified tool, a command proven
	// read-only). After is what the calls from the first refused one on
	// spent.
	Refused int   `json:"refused"`
	Passed  int   `json:"passed"`
	After   Spend `json:"spent_after"`
	// Calls lists the refused calls, in order, up to the replay's limit;
	// More counts those left out.
	Calls []*BudgetCall `json:"refused_calls"`
	More  int           `json:"more,omitempty"`

	limit intents.Budget
	spent budget.Spent
}

// Limit is one kind a budget limits.
type Limit struct {
	Kind  string `json:"kind"`
	Limit string `json:"limit"` // a count, or dollars for usd
}

// Spend is calls, tokens of every kind and dollars.
type Spend struct {
	Calls  int64        `json:"calls"`
	Tokens int64        `json:"tokens"`
	USD    money.Amount `json:"usd"`
}

func (s *Spend) add(u *ledger.Usage) {
	s.Calls += u.Calls
	s.Tokens += u.Tokens()
	s.USD += u.USD
}

// BudgetCall is one recorded call a budget would have refused.
type BudgetCall struct {
	When    string   `json:"when"`
	Session string   `json:"session"`
	Tool    string   `json:"tool"`
	Paths   []string `json:"paths,omitempty"`
	Command string   `json:"command,omitempty"`
	// Reached is the kind the spend had reached before the call, as
	// spent/limit ("300/300 calls", "$12.50/$12.50 usd").
	Reached string `json:"reached"`
}

// ParseBudget reads a budget as --budget gives it: KIND:N pairs joined by
// commas (calls:300,tokens:2M,usd:12.50; k, M and G multiply a count).
func ParseBudget(s string) (intents.Budget, error) {
	var b intents.Budget
	for part := range strings.SplitSeq(s, ",") {
		kind, v, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return b, fmt.Errorf("%q is not KIND:N (calls, tokens or usd)", part)
		}
		var n int64
		var good bool
		switch kind {
		case "calls":
			n, good = count(v)
			b.Calls = n
		case "tokens":
			n, good = count(v)
			b.Tokens = n
		case "usd":
			n, good = money.Parse(v)
			b.MicroUSD = n
		default:
			return b, fmt.Errorf("%q: a budget limits calls, tokens or usd", kind)
		}
		if !good || n <= 0 {
			return b, fmt.Errorf("%s:%s is not an amount above nothing", kind, v)
		}
	}
	return b, nil
}

// count reads a whole number with an optional k, M or G.
func count(s string) (int64, bool) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1_000, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1_000_000, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mult, s = 1_000_000_000, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, false
	}
	return n * mult, true
}

// Budgets asks what each intent's budget would have stopped, listing up
// to limit refused calls of each (0: all).
func (r *Replayer) Budgets(b map[string]intents.Budget, limit int) {
	r.limit = limit
	r.budgets = map[string]*BudgetReport{}
	for id, limit := range b {
		rep := &BudgetReport{Intent: id, limit: limit, Calls: []*BudgetCall{}}
		for _, u := range budget.Uses(limit, budget.Spent{}) {
			rep.Budget = append(rep.Budget, Limit{Kind: string(u.Kind), Limit: u.Amount(u.Limit)})
		}
		r.budgets[id] = rep
	}
}

var usageKey = []byte(`"usage":{`)

// spend adds a post's usage to its intent's budget, and says whether the
// budget would have refused the call.
func (r *Replayer) spend(line []byte) {
	if !bytes.Contains(line, usageKey) {
		return
	}
	rec, err := ledger.ParseLine(line)
	if err != nil {
		return
	}
	m := &rec.Metadata.Intenthook
	rep := r.budgets[string(m.IntentID)]
	if m.Usage == nil || rep == nil || m.Event != ledger.EventPostToolUse {
		return
	}
	var e entry
	fromRecord(rec, &e)
	if !r.selected(&e) {
		return
	}
	// The spend only grows: once reached, a budget stays reached.
	u, over := budget.Exceeded(rep.limit, rep.spent)
	writes := over && r.mayWrite(rec)
	switch {
	case writes:
		c := &BudgetCall{When: rec.Timestamp, Session: m.SessionID, Tool: m.ToolName, Paths: e.paths, Command: m.Command, Reached: u.String()}
		if rep.FirstRefused == nil {
			rep.FirstRefused = c
		}
		rep.Refused++
		if r.limit > 0 && len(rep.Calls) >= r.limit {
			rep.More++
		} else {
			rep.Calls = append(rep.Calls, c)
		}
		rep.After.add(m.Usage)
	case rep.FirstRefused != nil:
		rep.Passed++
		rep.After.add(m.Usage)
	}
	rep.Spent.add(m.Usage)
	rep.spent = rep.spent.Add(budget.Spent{Calls: m.Usage.Calls, Tokens: m.Usage.Tokens(), MicroUSD: int64(m.Usage.USD)})
}

// mayWrite reports whether pre checks a budget before the recorded call:
// a write or delete (a record naming the files it changed), or a shell
// command not proven read-only that is not one of intenthook's own looks.
// An unclassified tool's, an attributed change and a revert are not.
func (r *Replayer) mayWrite(rec *ledger.Record) bool {
	m := &rec.Metadata.Intenthook
	switch hook.Class(r.c.Tools[m.ToolName]) {
	case hook.ClassRead, hook.ClassExempt, hook.ClassUnclassified, hook.ClassSelect:
		return false
	}
	switch {
	case m.MutationClass == ledger.Attributed || m.MutationClass == ledger.Revert:
		return false
	case m.Command != "":
		a := shell.Analyse(m.Command, nil)
		return !a.ReadOnly && !a.SelfLook()
	}
	return len(rec.Files) > 0
}

// budgetReports returns the budgets' answers by intent.
func (r *Replayer) budgetReports() []*BudgetReport {
	out := make([]*BudgetReport, 0, len(r.budgets))
	for _, rep := range r.budgets {
		out = append(out, rep)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Intent < out[j].Intent })
	return out
}
