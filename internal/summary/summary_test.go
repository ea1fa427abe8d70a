package summary

import (
	"reflect"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/ledger"
)

func rec(event, intent, code string, success bool, decision string, checks []string, files ...string) *ledger.Record {
	r := &ledger.Record{}
	m := &r.Metadata.Intenthook
	m.Event, m.IntentID, m.Code, m.Success, m.Decision, m.Checks = event, ledger.NullString(intent), ledger.NullString(code), success, decision, checks
	for _, f := range files {
		r.Files = append(r.Files, ledger.File{Path: f})
	}
	return r
}

func TestSessionAndIntent(t *testing.T) {
	root := t.TempDir()
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	steps := []struct {
		session string
		recs    []*ledger.Record
	}{
		{"s1", []*ledger.Record{rec(ledger.EventSelect, "INT-001", "", true, "allow", nil)}},
		{"s1", []*ledger.Record{rec(ledger.EventPostToolUse, "INT-001", "", true, "allow", nil, "src/a.go", "src/\"odd\"\n.go")}},
		{"s1", []*ledger.Record{rec(ledger.EventPreToolUse, "INT-001", "scope_violation", false, "deny", nil, "docs/x.md")}},
		{"s1", []*ledger.Record{rec(ledger.EventPostToolUseFailure, "INT-001", "", false, "allow", []string{"go test"})}},
		{"s1", []*ledger.Record{rec(ledger.EventPostToolUse, "INT-001", "", true, "allow", []string{"go test"})}},
		{"s1", []*ledger.Record{rec(ledger.EventViolation, "INT-001", "scope_violation", false, "deny", nil, "lib/b.go")}},
		{"s2", []*ledger.Record{rec(ledger.EventPostToolUse, "INT-002", "", true, "allow", nil, "lib/c.go")}},
		{"s2", []*ledger.Record{rec(ledger.EventPostToolUse, "INT-001", "", true, "allow", nil, "src/a.go")}},
		// A failed write changed nothing.
		{"s2", []*ledger.Record{rec(ledger.EventPostToolUseFailure, "INT-001", "", false, "allow", nil, "src/z.go")}},
	}
	for i, s := range steps {
		if err := Count(root, s.session, s.recs, at.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	got, changed, err := Session(root, "s1")
	if err != nil || !changed {
		t.Fatal(changed, err)
	}
	want := Summary{
		Intents: []string{"INT-001"}, Files: []string{"src/a.go", "src/\"odd\"\n.go"},
		Denials: map[string]int{"scope_violation": 1}, Violations: map[string]int{"scope_violation": 1},
		Checks:   []Check{{Command: "go test", Passed: 1, Failed: 1, Last: "pass"}},
		Sessions: []string{"s1"}, Started: "2026-11-22T10:00:00Z", Ended: "2026-11-22T10:05:00Z",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Session:\n%+v\nwant\n%+v", got, want)
	}
	if err := Mark(root, "s1", at); err != nil {
		t.Fatal(err)
	}
	if _, changed, _ := Session(root, "s1"); changed {
		t.Error("changed after Mark")
	}
	if s, changed, err := Session(root, "nobody"); err != nil || changed || !s.Empty() {
		t.Errorf("no log: %+v %v %v", s, changed, err)
	}
}

// The one cost a Write's post pays for the counters.
func BenchmarkCount(b *testing.B) {
	root := b.TempDir()
	recs := []*ledger.Record{rec(ledger.EventPostToolUse, "INT-001", "", true, "allow", nil, "src/billing/invoice.go")}
	now := time.Now()
	for b.Loop() {
		if err := Count(root, "s1", recs, now); err != nil {
			b.Fatal(err)
		}
	}
}

// What post records as spent grows the session's counters, by kind and
// by model; a record without usage (a denial, a select) spends nothing.
func TestUsageCounted(t *testing.T) {
	root := t.TempDir()
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	spent := func(model string, in, out, cc, cr int64, files ...string) *ledger.Record {
		r := rec(ledger.EventPostToolUse, "INT-001", "", true, "allow", nil, files...)
		r.Metadata.Intenthook.Usage = &ledger.Usage{Model: model, Calls: 1, InputTokens: in, OutputTokens: out,
			CacheCreationInputTokens: cc, CacheReadInputTokens: cr}
		return r
	}
	for i, recs := range [][]*ledger.Record{
		{spent("claude-sonnet-4-5", 3, 10, 100, 1000, "a.go"), rec(ledger.EventPostToolUse, "INT-001", "", true, "allow", nil, "b.go")},
		{rec(ledger.EventSelect, "INT-001", "", true, "allow", nil)},
		{spent("claude-opus-4-5", 5, 20, 0, 2000)},
		{spent("", 0, 0, 0, 0, "c.go")}, // an agent whose transcript has no usage: a call
	} {
		if err := Count(root, "s1", recs, at.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	got, _, err := Session(root, "s1")
	if err != nil {
		t.Fatal(err)
	}
	want := &Spend{Calls: 3, InputTokens: 8, OutputTokens: 30, CacheCreationInputTokens: 100, CacheReadInputTokens: 3000,
		Models: map[string]int64{"claude-sonnet-4-5": 1113, "claude-opus-4-5": 2025}}
	if !reflect.DeepEqual(got.Usage, want) {
		t.Errorf("usage %+v, want %+v", got.Usage, want)
	}
	if got.Usage.Tokens() != 3138 {
		t.Errorf("tokens %d", got.Usage.Tokens())
	}
}
