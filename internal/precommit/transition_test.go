package precommit

import (
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/intents"
)

func TestTransitions(t *testing.T) {
	const before = `active_intents:
  - id: INT-001
    name: A
    status: PENDING
    owned_scope: ["src/**"]
    constraints: []
    acceptance_criteria: []
    created_at: "2026-01-01T00:00:00Z"
    updated_at: "2026-01-01T00:00:00Z"
  - id: INT-002
    name: B
    status: IN_PROGRESS
    owned_scope: ["docs/**"]
    constraints: []
    acceptance_criteria: []
    created_at: "2026-01-01T00:00:00Z"
    updated_at: "2026-01-01T00:00:00Z"
`
	start := strings.Replace(strings.Replace(before, "status: PENDING", "status: IN_PROGRESS", 1), `updated_at: "2026-01-01T00:00:00Z"`, `updated_at: "2026-03-04T05:06:07Z"`, 1)
	tests := []struct {
		name string
		now  string
		want string // the transitions, "" for a rules change
	}{
		{"a select's start", start, "INT-001 PENDING IN_PROGRESS"},
		{"a submission", strings.Replace(before, "status: IN_PROGRESS", "status: IN_REVIEW", 1), "INT-002 IN_PROGRESS IN_REVIEW"},
		{"a start and a comment", start + "# note\n", ""},
		{"a start with a wider scope", strings.Replace(start, `["src/**"]`, `["src/**", "lib/**"]`, 1), ""},
		{"a completion", strings.Replace(before, "status: IN_PROGRESS", "status: COMPLETE", 1), ""},
		{"no change", before, ""},
	}
	b, err := intents.Parse([]byte(before))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := intents.Parse([]byte(tt.now))
			if err != nil {
				t.Fatal(err)
			}
			tr, ok := Transitions([]byte(before), []byte(tt.now), b, n)
			var got []string
			for _, x := range tr {
				got = append(got, x.Intent+" "+string(x.From)+" "+string(x.To))
			}
			if strings.Join(got, ";") != tt.want || ok != (tt.want != "") {
				t.Errorf("transitions %q (%v), want %q", got, ok, tt.want)
			}
		})
	}
}
