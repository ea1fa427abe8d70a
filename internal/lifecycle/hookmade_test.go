package lifecycle

import (
	"strings"
	"testing"
)

func TestHookMade(t *testing.T) {
	const before = `active_intents:
  - id: "INT-001"
    name: "Hooks"
    status: "PENDING"
    owned_scope: ["src/hooks/**"]
    constraints: ["keep v2"]
    acceptance_criteria: []
    updated_at: "2026-01-01T00:00:00Z"
  - id: "INT-002"
    name: "API"
    status: "IN_PROGRESS"
    owned_scope: ["src/api/**"]
    constraints: []
    acceptance_criteria: []
`
	edit := func(pairs ...string) string { return strings.NewReplacer(pairs...).Replace(before) }
	for _, tc := range []struct {
		name, after string
		ok          bool
	}{
		{"unchanged", before, true},
		{"a selection starts an intent", edit(`"PENDING"`, `"IN_PROGRESS"`, `"2026-01-01T00:00:00Z"`, `"2026-03-01T00:00:00Z"`), true},
		{"a loop blocks work in progress, updated_at inserted", before + "    updated_at: \"2026-03-01T00:00:00Z\"\n", false},
		{"a loop blocks work in progress", strings.Replace(before, `status: "IN_PROGRESS"`, `status: "BLOCKED"`, 1) + "    updated_at: \"2026-03-01T00:00:00Z\"\n", true},
		{"a submission puts work in review", strings.Replace(before, `status: "IN_PROGRESS"`, `status: "IN_REVIEW"`, 1), true},
		{"started and blocked within one command", edit(`"PENDING"`, `"BLOCKED"`), true},
		{"completed", edit(`status: "IN_PROGRESS"`, `status: "COMPLETE"`), false},
		{"pending again", edit(`status: "IN_PROGRESS"`, `status: "PENDING"`), false},
		{"scope widened", edit(`"src/hooks/**"`, `"**"`), false},
		{"scope widened with a transition", edit(`"src/hooks/**"`, `"**"`, `"PENDING"`, `"IN_PROGRESS"`), false},
		{"constraint dropped", edit(`["keep v2"]`, `[]`), false},
		{"id changed", edit(`"INT-002"`, `"INT-003"`), false},
		{"intent added", before + "  - {id: INT-009, name: X, status: IN_PROGRESS, owned_scope: [\"**\"], constraints: [], acceptance_criteria: []}\n", false},
		{"intent taken out", before[:strings.Index(before, "  - id: \"INT-002\"")], false},
		{"not a catalog", "{{{", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := HookMade([]byte(before), []byte(tc.after))
			if (err == nil) != tc.ok {
				t.Errorf("HookMade = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

// A hook starts an intent only when its depends_on is done: a journaled
// start of one that waits on unfinished work is no hook's.
func TestHookMadeDependencies(t *testing.T) {
	catalog := func(first, dep string) string {
		return `active_intents:
  - {id: INT-001, name: A, status: ` + first + `, depends_on: [INT-002], owned_scope: ["a/**"], constraints: [], acceptance_criteria: []}
  - {id: INT-002, name: B, status: ` + dep + `, owned_scope: ["b/**"], constraints: [], acceptance_criteria: []}
`
	}
	for _, tc := range []struct {
		name, dep, to string
		ok            bool
	}{
		{"started, its dependency complete", "COMPLETE", "IN_PROGRESS", true},
		{"started, its dependency in progress", "IN_PROGRESS", "IN_PROGRESS", false},
		{"started and blocked, its dependency in progress", "IN_PROGRESS", "BLOCKED", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := HookMade([]byte(catalog("PENDING", tc.dep)), []byte(catalog(tc.to, tc.dep)))
			if (err == nil) != tc.ok {
				t.Errorf("HookMade = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}
