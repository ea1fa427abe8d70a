package audit

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/intents"

	"github.com/intenthook/intenthook/internal/ledger"
)

func TestMarkdown(t *testing.T) {
	head := ledger.Head{Seq: 7, Hash: "sha256:ab"}
	tests := []struct {
		name string
		res  Result
		want string
	}{
		{
			name: "clean",
			res:  Result{IncrementsChecked: true, Range: "a..b", Commits: 2, Head: head},
			want: "### intenthook audit passed\n\n`a..b`: 2 commit(s), 0 error(s), 0 warning(s). Ledger tip `7:sha256:ab`.\n",
		},
		{
			name: "findings escaped",
			res: Result{IncrementsChecked: true, Range: "a..b", Commits: 1, Head: head, Findings: []Finding{
				{Commit: "0123456789abcdef", Path: "x|y.go", Severity: Error, Message: "out"},
				{Commit: "0123456789abcdef", Path: "z.go", Severity: Warning, Message: "un`traced"},
			}},
			want: "### intenthook audit failed\n\n`a..b`: 1 commit(s), 1 error(s), 1 warning(s). Ledger tip `7:sha256:ab`.\n\n" +
				"**Findings**\n\n| commit | path | severity | finding |\n| --- | --- | --- | --- |\n" +
				"| `0123456789ab` | `x\\|y.go` | error | out |\n" +
				"| `0123456789ab` | `z.go` | warning | un'traced |\n",
		},
		{
			name: "per intent and catalog",
			res: Result{IncrementsChecked: true, Range: "a..b", Commits: 2, Head: head,
				Intents: []IntentSummary{
					{Intent: "INT-001", Name: "Hooks", Files: []string{"a.go", "b.go"}, Changes: 3, Traced: 2, Sessions: []string{"s1", "s2"},
						Models: []string{"anthropic/claude-x"}, Denials: map[string]int{"scope_violation": 2, "intent_required": 1},
						Violations: map[string]int{}, Catalog: []string{"scope widened +src/x/**"}, Findings: 1},
					{Intent: "", Files: []string{"c.go"}, Changes: 1, Denials: map[string]int{}, Violations: map[string]int{"out_of_scope_change": 1}},
				},
				Catalog: []CatalogChange{{Commit: "0123456789abcdef", Author: "Dev <d@x>", Intent: "INT-001", Change: ScopeWidened, Detail: "+src/x/**"}},
			},
			want: "### intenthook audit passed\n\n`a..b`: 2 commit(s), 0 error(s), 0 warning(s). Ledger tip `7:sha256:ab`.\n\n" +
				"| intent | files | traced | sessions | models | denials | violations | scope changes | findings |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n" +
				"| `INT-001` Hooks | 2 | 66% (2/3) | 2 | anthropic/claude-x | scope_violation ×2, intent_required ×1 | — | scope widened +src/x/** | 1 |\n" +
				"| no intent | 1 | 0% (0/1) | — | — | — | out_of_scope_change ×1 | — | 0 |\n" +
				"\n**Catalog changes**\n\n| commit | author | intent | change |\n| --- | --- | --- | --- |\n" +
				"| `0123456789ab` | Dev &lt;d@x&gt; | `INT-001` | scope widened +src/x/** |\n",
		},
		{
			name: "cost per intent and model, session and agent",
			res: Result{IncrementsChecked: true, Range: "a..b", Commits: 1, Head: head,
				Intents: []IntentSummary{
					{Intent: "INT-001", Files: []string{}, Denials: map[string]int{}, Violations: map[string]int{}, Spend: &ledger.Spend{Share: ledger.Share{Calls: 3, Tokens: 1200, USD: 4500},
						Models:   []ledger.ModelSpend{{Model: "claude-sonnet-4-5", Share: ledger.Share{Calls: 2, Tokens: 1200, USD: 4500}}, {Model: "", Share: ledger.Share{Calls: 1}}},
						Sessions: []ledger.SessionSpend{{Session: "s1", Share: ledger.Share{Calls: 2, Tokens: 1000, USD: 4000}}, {Session: "s|2", Share: ledger.Share{Calls: 1, Tokens: 200, USD: 500}}},
						Agents:   []ledger.AgentSpend{{Agent: "a7", Share: ledger.Share{Calls: 1, Tokens: 200, USD: 500}}, {Agent: "main", Share: ledger.Share{Calls: 2, Tokens: 1000, USD: 4000}}}}},
					{Intent: "INT-002", Files: []string{}, Denials: map[string]int{}, Violations: map[string]int{}},
					{Intent: "INT-003", Files: []string{}, Denials: map[string]int{}, Violations: map[string]int{}, Spend: &ledger.Spend{Share: ledger.Share{Calls: 1, Tokens: 10},
						Models:   []ledger.ModelSpend{{Model: "gpt|5", Share: ledger.Share{Calls: 1, Tokens: 10}}},
						Sessions: []ledger.SessionSpend{{Session: "s1", Share: ledger.Share{Calls: 1, Tokens: 10}}},
						Agents:   []ledger.AgentSpend{{Agent: "main", Share: ledger.Share{Calls: 1, Tokens: 10}}}}},
				},
			},
			want: "### intenthook audit passed\n\n`a..b`: 1 commit(s), 0 error(s), 0 warning(s). Ledger tip `7:sha256:ab`.\n\n" +
				"| intent | files | traced | sessions | models | denials | violations | scope changes | findings |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n" +
				"| `INT-001` | 0 | — | — | — | — | — | — | 0 |\n" +
				"| `INT-002` | 0 | — | — | — | — | — | — | 0 |\n" +
				"| `INT-003` | 0 | — | — | — | — | — | — | 0 |\n" +
				"\n**Cost** (what the agents' transcripts recorded; dollars where config.yaml prices the model)\n\n| intent | model | calls | tokens | usd |\n| --- | --- | --- | --- | --- |\n" +
				"| `INT-001` | `claude-sonnet-4-5` | 2 | 1200 | $0.0045 |\n" +
				"| `INT-001` | no model named | 1 | 0 | $0.00 |\n" +
				"| `INT-001` | all | 3 | 1200 | $0.0045 |\n" +
				"| `INT-003` | `gpt\\|5` | 1 | 10 | $0.00 |\n" +
				"| **all** | | 4 | 1210 | $0.0045 |\n" +
				"\n| session | calls | tokens | usd |\n| --- | --- | --- | --- |\n" +
				"| `s1` | 3 | 1010 | $0.004 |\n" +
				"| `s\\|2` | 1 | 200 | $0.0005 |\n" +
				"\n| agent | calls | tokens | usd |\n| --- | --- | --- | --- |\n" +
				"| `a7` | 1 | 200 | $0.0005 |\n" +
				"| `main` | 3 | 1010 | $0.004 |\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			tt.res.Markdown(&b)
			if b.String() != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
			if got := tt.res.Failed(); got != strings.Contains(tt.want, "failed") {
				t.Fatalf("Failed() = %v", got)
			}
		})
	}
}

func TestDiffCatalogs(t *testing.T) {
	parse := func(text string) *intents.Catalog {
		c, err := intents.Parse([]byte("active_intents:\n" + text))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	item := func(id, status string, scope ...string) string {
		return fmt.Sprintf("  - {id: %s, name: x, status: %s, owned_scope: [%s], constraints: [], acceptance_criteria: []}\n", id, status, strings.Join(scope, ", "))
	}
	tests := []struct {
		name        string
		before, now *intents.Catalog
		want        []string // change detail
	}{
		{"no catalog before", nil, parse(item("INT-1", "PENDING", "a/**")), []string{"INT-1 added PENDING, owns a/**"}},
		{"unchanged", parse(item("INT-1", "PENDING", "a/**")), parse(item("INT-1", "PENDING", "a/**")), nil},
		{"status", parse(item("INT-1", "PENDING", "a/**")), parse(item("INT-1", "IN_PROGRESS", "a/**")), []string{"INT-1 status PENDING → IN_PROGRESS"}},
		{"widened and narrowed", parse(item("INT-1", "IN_PROGRESS", "a/**", "b/**")), parse(item("INT-1", "IN_PROGRESS", "a/**", "c/**", "d/**")),
			[]string{"INT-1 scope_widened +c/** +d/**", "INT-1 scope_narrowed -b/**"}},
		{"narrowed to a file within", parse(item("INT-1", "IN_PROGRESS", "src/**")), parse(item("INT-1", "IN_PROGRESS", "src/a.go")),
			[]string{"INT-1 scope_narrowed -src/** +src/a.go (within the old scope)"}},
		{"narrowed to a directory within", parse(item("INT-1", "IN_PROGRESS", "src/**")), parse(item("INT-1", "IN_PROGRESS", "src/api/**", "lib/x.go")),
			[]string{"INT-1 scope_widened +lib/x.go", "INT-1 scope_narrowed -src/** +src/api/** (within the old scope)"}},
		{"a glob beside the old one is new ground", parse(item("INT-1", "IN_PROGRESS", "src/*.go")), parse(item("INT-1", "IN_PROGRESS", "src/**")),
			[]string{"INT-1 scope_widened +src/**", "INT-1 scope_narrowed -src/*.go"}},
		{"removed", parse(item("INT-1", "COMPLETE", "a/**") + item("INT-2", "PENDING")), parse(item("INT-1", "COMPLETE", "a/**")),
			[]string{"INT-2 removed was PENDING, owned nothing"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range diffCatalogs("c1", "Dev <d@x>", tt.before, tt.now) {
				if c.Commit != "c1" || c.Author != "Dev <d@x>" {
					t.Errorf("commit/author = %q/%q", c.Commit, c.Author)
				}
				got = append(got, c.Intent+" "+c.Change+" "+c.Detail)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSARIF(t *testing.T) {
	res := Result{Findings: []Finding{
		{Commit: "c1", Path: "docs/x.md", Severity: Error, Code: OutOfScope, Message: "outside"},
		{Commit: "c2", Path: "src/a.go", Severity: Warning, Code: Untraced, Message: "not traced"},
	}}
	var b strings.Builder
	if err := res.SARIF(&b, "1.2.3"); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					Physical struct {
						Artifact struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(b.String()), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "intenthook" {
		t.Fatalf("log = %+v", log)
	}
	ids := map[string]bool{}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		ids[r.ID] = true
	}
	tests := []struct{ rule, level, uri string }{{OutOfScope, "error", "docs/x.md"}, {Untraced, "warning", "src/a.go"}}
	for i, tt := range tests {
		got := log.Runs[0].Results[i]
		if got.RuleID != tt.rule || got.Level != tt.level || got.Locations[0].Physical.Artifact.URI != tt.uri || !ids[got.RuleID] {
			t.Errorf("result %d = %+v, want %+v (a declared rule)", i, got, tt)
		}
	}
}
