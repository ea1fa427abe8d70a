package intents

import "testing"

func TestStranded(t *testing.T) {
	const cat = `active_intents:
  - {id: INT-001, name: Abandoned, status: ARCHIVED, owned_scope: [a], constraints: []}
  - {id: INT-002, name: Finished, status: ARCHIVED, completed_at: "2026-01-01T00:00:00Z", owned_scope: [b], constraints: []}
  - {id: INT-003, name: Waits, status: PENDING, owned_scope: [c], constraints: [], depends_on: [INT-001]}
  - {id: INT-004, name: Waits on waiter, status: BLOCKED, owned_scope: [d], constraints: [], depends_on: [INT-002, INT-003]}
  - {id: INT-005, name: Fine, status: PENDING, owned_scope: [e], constraints: [], depends_on: [INT-002]}
  - {id: INT-006, name: Started, status: IN_PROGRESS, owned_scope: [f], constraints: [], depends_on: [INT-001]}
  - {id: INT-007, name: Loop a, status: PENDING, owned_scope: [g], constraints: [], depends_on: [INT-008]}
  - {id: INT-008, name: Loop b, status: PENDING, owned_scope: [h], constraints: [], depends_on: [INT-007]}
`
	c, err := Parse([]byte(cat))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id, dep, abandoned string
		ok                 bool
	}{
		{"INT-001", "", "", false},
		{"INT-002", "", "", false},
		{"INT-003", "INT-001", "INT-001", true},
		{"INT-004", "INT-003", "INT-001", true},
		{"INT-005", "", "", false},
		{"INT-006", "", "", false}, // started: not stranded, whatever it waited on
		{"INT-007", "", "", false}, // a cycle ends
	} {
		dep, ab, ok := c.Stranded(c.Find(tc.id))
		if dep != tc.dep || ab != tc.abandoned || ok != tc.ok {
			t.Errorf("Stranded(%s) = %q, %q, %v; want %q, %q, %v", tc.id, dep, ab, ok, tc.dep, tc.abandoned, tc.ok)
		}
	}
}
