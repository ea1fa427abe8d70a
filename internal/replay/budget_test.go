package replay

import (
	"testing"

	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
)

func TestParseBudget(t *testing.T) {
	tests := []struct {
		in   string
		want intents.Budget
		bad  bool
	}{
		{in: "calls:300", want: intents.Budget{Calls: 300}},
		{in: "tokens:2M,usd:12.50", want: intents.Budget{Tokens: 2_000_000, MicroUSD: 12_500_000}},
		{in: "calls:5, tokens:500k", want: intents.Budget{Calls: 5, Tokens: 500_000}},
		{in: "calls:0", bad: true},
		{in: "calls:-1", bad: true},
		{in: "calls", bad: true},
		{in: "minutes:3", bad: true},
		{in: "usd:three", bad: true},
		{in: "tokens:9999999999G", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseBudget(tt.in)
			if (err != nil) != tt.bad || !tt.bad && got != tt.want {
				t.Errorf("ParseBudget(%q) = %+v, %v; want %+v (bad %v)", tt.in, got, err, tt.want, tt.bad)
			}
		})
	}
}

// TestMayWrite: the calls a budget stands before are those pre checks it
// for.
func TestMayWrite(t *testing.T) {
	r := New(&Candidate{Tools: map[string]string{"Notebook": "exempt"}}, Filter{})
	file := []ledger.File{{Path: "src/a.go"}}
	tests := []struct {
		name  string
		meta  ledger.Meta
		files []ledger.File
		want  bool
	}{
		{"a write", ledger.Meta{ToolName: "Write", MutationClass: ledger.FileCreation}, file, true},
		{"a shell command that may write", ledger.Meta{ToolName: "Bash", MutationClass: ledger.Configuration, Command: "make build"}, nil, true},
		{"a read-only command", ledger.Meta{ToolName: "Bash", MutationClass: ledger.Configuration, Command: "ls src"}, nil, false},
		{"intenthook's own look", ledger.Meta{ToolName: "Bash", MutationClass: ledger.Configuration, Command: "intenthook status"}, nil, false},
		{"an attributed change", ledger.Meta{ToolName: "mcp__fs__write", MutationClass: ledger.Attributed}, file, false},
		{"a revert", ledger.Meta{ToolName: "Bash", MutationClass: ledger.Revert}, file, false},
		{"a tool the candidate exempts", ledger.Meta{ToolName: "Notebook", MutationClass: ledger.FileCreation}, file, false},
		{"an unclassified tool's call", ledger.Meta{ToolName: "mcp__x__y"}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &ledger.Record{Files: tt.files}
			rec.Metadata.Intenthook = tt.meta
			if got := r.mayWrite(rec); got != tt.want {
				t.Errorf("mayWrite = %v, want %v", got, tt.want)
			}
		})
	}
}
