package replay

import (
	"testing"

	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/judge"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/roles"
	"github.com/intenthook/intenthook/internal/workspace"
)

const candidateCatalog = `active_intents:
  - {id: INT-001, name: Done, status: COMPLETE, owned_scope: ["src/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
`

// TestOutcomes holds a replay's judgement of single records: the status
// as recorded, denials of the moment left as they were, the candidate's
// tools: and roles, removed intents.
func TestOutcomes(t *testing.T) {
	c, err := intents.Parse([]byte(candidateCatalog))
	if err != nil {
		t.Fatal(err)
	}
	prot, _ := workspace.NewProtected(governed.Table{}, true, nil)
	cand := &Candidate{
		Rules: judge.Rules{Catalog: c, Protected: prot, Roles: roles.Roles{"Executor": {Tools: []string{"write"}}}},
		Tools: map[string]string{"Notebook": "exempt"},
	}
	write := func(path, code string) entry {
		e := entry{event: ledger.EventPostToolUse, intent: "INT-001", session: "s", tool: "Write", class: "AST_REFACTOR",
			scope: ledger.ScopePass, decision: "allow", success: true, paths: []string{path}, roleKnown: true, when: "2026-11-01T00:00:00.000Z"}
		if code != "" {
			e.event, e.decision, e.code, e.scope, e.success = ledger.EventPreToolUse, "deny", code, ledger.ScopeFail, false
		}
		return e
	}
	tests := []struct {
		name   string
		before []entry // transitions and records replayed first
		e      entry
		want   string
	}{
		{name: "in scope, the intent COMPLETE since", e: write("src/a.go", ""), want: Unchanged},
		{name: "out of scope now", e: write("lib/a.go", ""), want: NewlyDenied},
		{name: "a stale file stays denied", e: write("src/a.go", "stale_file"), want: Unchanged},
		{name: "a scope denial the candidate allows", e: write("src/a.go", "scope_violation"), want: NewlyAllowed},
		{name: "a denial for the status recorded stays", e: write("src/a.go", "intent_not_in_progress"), want: Unchanged},
		{name: "a protected path, the intent blocked then",
			before: []entry{{event: ledger.EventTransition, intent: "INT-001", to: "BLOCKED"}},
			e:      write("src/a.go", "protected_path"), want: Unchanged},
		{name: "a protected path, no transition recorded", e: write("src/a.go", "protected_path"), want: NewlyAllowed},
		{name: "a tool the candidate exempts", e: func() entry { e := write("lib/a.go", "scope_violation"); e.tool = "Notebook"; return e }(), want: NewlyAllowed},
		{name: "a deletion a role may not make", e: func() entry { e := write("src/a.go", ""); e.class, e.role = ledger.FileDeletion, "Executor"; return e }(), want: NewlyDenied},
		{name: "a subagent of unknown role", e: func() entry {
			e := write("src/a.go", "")
			e.class, e.agent, e.roleKnown = ledger.FileDeletion, "a1", false
			return e
		}(), want: Unchanged},
		{name: "an intent the candidate removed", e: func() entry { e := write("src/a.go", ""); e.intent = "INT-009"; return e }(), want: Removed},
		{name: "outside the root: not replayed", e: write("/etc/passwd", ""), want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(cand, Filter{})
			for _, b := range tt.before {
				r.add(&b)
			}
			e := tt.e
			r.add(&e)
			rep := r.Report("", 0)
			got := ""
			for outcome, b := range map[string]Bucket{NewlyDenied: rep.NewlyDenied, NewlyAllowed: rep.NewlyAllowed, Unchanged: rep.Unchanged, Removed: rep.RemovedIntents} {
				if b.Count > 0 {
					got = outcome
				}
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
