package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/budget"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/shell"
	"github.com/intenthook/intenthook/internal/state"
)

const budgetCatalog = `active_intents:
  - {id: INT-001, name: Calls, status: IN_PROGRESS, owned_scope: ["**"], budget: {calls: 2}, constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-002, name: Tokens and money, status: IN_PROGRESS, owned_scope: ["**"], budget: {tokens: 1000, usd: 1}, constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-003, name: Unlimited, status: IN_PROGRESS, owned_scope: ["**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
`

func budgetGate(t *testing.T, intent string) *Gate {
	t.Helper()
	g := testGate(t, &state.Session{ID: "s1", Intent: intent})
	c, err := intents.Parse([]byte(budgetCatalog))
	if err != nil {
		t.Fatal(err)
	}
	g.Catalog = c
	return g
}

// TestBudgetCheck: the step decides from the intent's counters and its
// budget, raises included; an intent without a budget, or no intent, is
// never refused; counters that cannot be read refuse.
func TestBudgetCheck(t *testing.T) {
	tests := []struct {
		name   string
		intent string
		spent  budget.Spent
		damage bool
		deny   string // a part of the deny's headline, "" for a pass
	}{
		{"no intent", "", budget.Spent{Calls: 99}, false, ""},
		{"no budget", "INT-003", budget.Spent{Calls: 99, Tokens: 1 << 40}, false, ""},
		{"under", "INT-001", budget.Spent{Calls: 1}, false, ""},
		{"reached", "INT-001", budget.Spent{Calls: 2}, false, "INT-001 has spent its budget: 2/2 calls"},
		{"raised", "INT-001", budget.Spent{Calls: 2, Raised: intents.Budget{Calls: 1}}, false, ""},
		{"tokens past", "INT-002", budget.Spent{Calls: 9, Tokens: 1200}, false, "INT-002 has spent its budget: 1200/1000 tokens"},
		{"usd reached", "INT-002", budget.Spent{Tokens: 10, MicroUSD: 1_000_000}, false, "INT-002 has spent its budget: $1.00/$1.00 usd"},
		{"counters damaged", "INT-001", budget.Spent{Calls: 1}, true, "INT-001's spend counters cannot be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := budgetGate(t, tt.intent)
			for _, id := range []string{"INT-001", "INT-002", "INT-003"} {
				if _, err := budget.Add(context.Background(), g.Root, id, tt.spent, time.Unix(1_800_000_000, 0), time.Second); err != nil {
					t.Fatal(err)
				}
			}
			if tt.damage {
				copyOf := filepath.Join(guard.MirrorDir(g.Root, budget.Dir), budget.LogName(tt.intent))
				if err := os.WriteFile(copyOf, []byte("not counters\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d := budgets{g}.check()
			switch {
			case tt.deny == "" && d != nil:
				t.Fatalf("denied: %s", d.Message)
			case tt.deny != "" && d == nil:
				t.Fatal("passed")
			case d != nil && (d.Verdict != hook.Deny || d.Code != hook.CodeBudgetExceeded || !strings.Contains(d.Message, tt.deny)):
				t.Fatalf("deny = %+v, want %q", d, tt.deny)
			}
		})
	}
}

// TestBudgetCount: a post's usage grows its intent's counters, and the
// session is told once it reaches 80 %.
func TestBudgetCount(t *testing.T) {
	g := budgetGate(t, "INT-002")
	g.Sessions = state.Sessions{Root: g.Root, Timeout: time.Second}
	ctx := context.Background()
	rec := func(tokens int64) *ledger.Record {
		r := &ledger.Record{}
		r.Metadata.Intenthook.IntentID = "INT-002"
		r.Metadata.Intenthook.Usage = &ledger.Usage{Calls: 1, InputTokens: tokens / 2, CacheReadInputTokens: tokens - tokens/2, USD: 1000}
		return r
	}
	budgets{g}.count(ctx, rec(500))
	if len(g.budgetNotes) != 0 {
		t.Fatalf("a word at 50 %%: %q", g.budgetNotes)
	}
	budgets{g}.count(ctx, rec(301))
	if want := "INT-002 has spent 80% of its budget (801/1000 tokens)"; len(g.budgetNotes) != 1 || !strings.Contains(g.budgetNotes[0], want) {
		t.Fatalf("notes = %q, want %q", g.budgetNotes, want)
	}
	d := budgets{g}.noteOnce(ctx, hook.Decision{})
	if !strings.Contains(d.Context, "80% of its budget") {
		t.Errorf("context = %q", d.Context)
	}
	s, err := budget.Read(g.Root, "INT-002")
	if want := (budget.Spent{Calls: 2, Tokens: 801, MicroUSD: 2000}); err != nil || s != want {
		t.Errorf("counters = %+v, %v; want %+v", s, err, want)
	}
	// Told once: the next call says nothing.
	budgets{g}.count(ctx, rec(100))
	if len(g.budgetNotes) != 0 {
		t.Errorf("told again: %q", g.budgetNotes)
	}
}

func TestSelfReadOnly(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{"intenthook budget INT-001", true},
		{"intenthook status --json", true},
		{"intenthook budget INT-001 --calls +5", false},
		{"intenthook status && touch x", false},
		{"intenthook status > out.txt", false},
		{"ls", false},
	}
	for _, tt := range tests {
		if got := selfReadOnly(shell.Analyse(tt.cmd, func(string) bool { return false })); got != tt.want {
			t.Errorf("selfReadOnly(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// TestSessionBudget: config.yaml's budget holds each session to its own
// spend, kept in its state, whatever its intents' budgets; a post counts
// it only where the budget is set, and tells the session once at 80 %.
func TestSessionBudget(t *testing.T) {
	ctx := context.Background()
	g := budgetGate(t, "INT-003")
	g.Sessions = state.Sessions{Root: g.Root, Timeout: time.Second}
	r := &ledger.Record{}
	r.Metadata.Intenthook.Usage = &ledger.Usage{Calls: 1, OutputTokens: 10}
	budgets{g}.count(ctx, r)
	if g.session.Spent != (state.Spent{}) {
		t.Fatalf("counted without a session budget: %+v", g.session.Spent)
	}
	g.Config.Budget.Calls = 5
	for range 4 {
		budgets{g}.count(ctx, r)
	}
	if want := (state.Spent{Calls: 4, Tokens: 40}); g.session.Spent != want {
		t.Fatalf("spent = %+v, want %+v", g.session.Spent, want)
	}
	if len(g.budgetNotes) != 1 || !strings.Contains(g.budgetNotes[0], "this session has spent 80% of its budget (4/5 calls)") {
		t.Fatalf("notes = %q", g.budgetNotes)
	}
	if d := (budgets{g}).check(); d != nil {
		t.Fatalf("denied at 4/5: %s", d.Message)
	}
	budgets{g}.count(ctx, r)
	d := budgets{g}.check()
	if d == nil || d.Code != hook.CodeBudgetExceeded || !strings.Contains(d.Message, "this session has spent its budget: 5/5 calls") {
		t.Fatalf("at 5/5: %+v", d)
	}
	// Another session starts from nothing.
	g2 := budgetGate(t, "INT-003")
	g2.Config.Budget.Calls = 5
	if d := (budgets{g2}).check(); d != nil {
		t.Fatalf("another session denied: %s", d.Message)
	}
}

// TestSpendLine: the session context's line says what the active intent
// spent and what is left of each kind its budget limits (raises
// included), says when writes are refused, and is absent for an intent
// without a budget.
func TestSpendLine(t *testing.T) {
	tests := []struct {
		name   string
		intent string
		spent  budget.Spent
		damage bool
		want   string
	}{
		{"no budget", "INT-003", budget.Spent{Calls: 5}, false, ""},
		{"nothing spent", "INT-001", budget.Spent{}, false, "intenthook: INT-001 has spent 0/2 calls (2 left) of its budget"},
		{"under", "INT-001", budget.Spent{Calls: 1}, false, "intenthook: INT-001 has spent 1/2 calls (1 left) of its budget"},
		{"raised", "INT-001", budget.Spent{Calls: 2, Raised: intents.Budget{Calls: 3}}, false, "intenthook: INT-001 has spent 2/5 calls (3 left) of its budget"},
		{"two kinds", "INT-002", budget.Spent{Calls: 4, Tokens: 250, MicroUSD: 400_000}, false,
			"intenthook: INT-002 has spent 250/1000 tokens (750 left), $0.40/$1.00 usd ($0.60 left) of its budget"},
		{"reached", "INT-001", budget.Spent{Calls: 3}, false,
			"intenthook: INT-001 has spent 3/2 calls (0 left) of its budget; reached: its writes are refused (budget_exceeded), finish or ask the user to raise it"},
		{"counters damaged", "INT-001", budget.Spent{Calls: 1}, true, "intenthook: INT-001's spend counters cannot be read, so its writes are refused (budget_exceeded)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := budgetGate(t, tt.intent)
			if _, err := budget.Add(context.Background(), g.Root, tt.intent, tt.spent, time.Unix(1_800_000_000, 0), time.Second); err != nil {
				t.Fatal(err)
			}
			if tt.damage {
				copyOf := filepath.Join(guard.MirrorDir(g.Root, budget.Dir), budget.LogName(tt.intent))
				if err := os.WriteFile(copyOf, []byte("not counters\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := (budgets{g}).spendLine(g.Catalog.Find(tt.intent)); got != tt.want {
				t.Errorf("line = %q\nwant   %q", got, tt.want)
			}
		})
	}
	if got := (budgets{budgetGate(t, "")}).spendLine(nil); got != "" {
		t.Errorf("no intent: %q", got)
	}
}
