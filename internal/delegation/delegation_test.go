package delegation

import (
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/state"
)

// step is one event in a session: a delegation (intent, type), a spawn
// (tool use id, type) or a first sighting (agent id, type).
type step struct {
	kind       string // delegate, spawn, agent
	id, typ    string
	wantIntent string // for spawn and agent: the intent taken, "" for none
}

func TestMatching(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
	}{
		{name: "one delegation, one subagent", steps: []step{
			{kind: "delegate", id: "INT-001", typ: "gp"},
			{kind: "spawn", id: "t1", typ: "gp", wantIntent: "INT-001"},
			{kind: "agent", id: "a1", typ: "gp", wantIntent: "INT-001"},
		}},
		{name: "parallel spawns of one type claim in spawn order", steps: []step{
			{kind: "delegate", id: "INT-001", typ: "gp"},
			{kind: "delegate", id: "INT-002", typ: "gp"},
			{kind: "spawn", id: "t1", typ: "gp", wantIntent: "INT-001"},
			{kind: "spawn", id: "t2", typ: "gp", wantIntent: "INT-002"},
			{kind: "agent", id: "a1", typ: "gp", wantIntent: "INT-001"},
			{kind: "agent", id: "a2", typ: "gp", wantIntent: "INT-002"},
			{kind: "agent", id: "a3", typ: "gp"},
		}},
		{name: "types keep their own queues", steps: []step{
			{kind: "delegate", id: "INT-001", typ: "gp"},
			{kind: "delegate", id: "INT-002", typ: "reviewer"},
			{kind: "spawn", id: "t1", typ: "reviewer", wantIntent: "INT-002"},
			{kind: "spawn", id: "t2", typ: "gp", wantIntent: "INT-001"},
			{kind: "agent", id: "a1", typ: "gp", wantIntent: "INT-001"},
			{kind: "agent", id: "a2", typ: "reviewer", wantIntent: "INT-002"},
		}},
		{name: "a spawn without a delegation takes nothing", steps: []step{
			{kind: "spawn", id: "t1", typ: "gp"},
			{kind: "agent", id: "a1", typ: "gp"},
			{kind: "delegate", id: "INT-001", typ: "gp"},
			{kind: "agent", id: "a2", typ: "gp"}, // not spawned yet: nothing to claim
			{kind: "spawn", id: "t2", typ: "gp", wantIntent: "INT-001"},
			{kind: "agent", id: "a1", typ: "gp"}, // seen before: never claims
			{kind: "agent", id: "a3", typ: "gp", wantIntent: "INT-001"},
		}},
		{name: "an agent of unknown type claims nothing", steps: []step{
			{kind: "delegate", id: "INT-001", typ: "gp"},
			{kind: "spawn", id: "t1", typ: "gp", wantIntent: "INT-001"},
			{kind: "agent", id: "a1", typ: ""},
			{kind: "agent", id: "a2", typ: "gp", wantIntent: "INT-001"},
		}},
		{name: "the same spawn seen twice takes one", steps: []step{
			{kind: "delegate", id: "INT-001", typ: "gp"},
			{kind: "delegate", id: "INT-002", typ: "gp"},
			{kind: "spawn", id: "t1", typ: "gp", wantIntent: "INT-001"},
			{kind: "spawn", id: "t1", typ: "gp"},
			{kind: "spawn", id: "t2", typ: "gp", wantIntent: "INT-002"},
		}},
	}
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &state.Session{ID: "s"}
			for i, st := range tt.steps {
				var d state.Delegation
				var ok bool
				switch st.kind {
				case "delegate":
					Add(s, st.id, st.typ, "", now)
					continue
				case "spawn":
					if Pending(s, st.typ) {
						d, ok = Attach(s, st.id, st.typ)
					}
				case "agent":
					waiting := Waiting(s, st.id, st.typ)
					d, ok = Claim(s, st.id, st.typ, now)
					if waiting != ok {
						t.Errorf("step %d: Waiting = %v, Claim = %v", i, waiting, ok)
					}
					if ok && s.ActiveIntent(st.id) != d.Intent {
						t.Errorf("step %d: %s bound to %q, want %q", i, st.id, s.ActiveIntent(st.id), d.Intent)
					}
				}
				if got := map[bool]string{true: d.Intent}[ok]; got != st.wantIntent {
					t.Fatalf("step %d (%s %s %s): took %q, want %q", i, st.kind, st.id, st.typ, got, st.wantIntent)
				}
			}
		})
	}
}

func TestRecallAndPrune(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	s := &state.Session{}
	Add(s, "INT-001", "gp", "", now.Add(-2*Keep))
	Add(s, "INT-002", "gp", "", now)
	if len(s.Delegations) != 1 || s.Delegations[0].Intent != "INT-002" {
		t.Fatalf("stale delegation kept: %+v", s.Delegations)
	}
	Add(s, "INT-003", "reviewer", "coord", now)
	Attach(s, "t1", "gp")
	Claim(s, "a1", "gp", now)
	if n := Recall(s, "gp"); n != 0 {
		t.Errorf("recalled a claimed delegation: %d", n)
	}
	if n := Recall(s, "reviewer"); n != 1 || len(s.Delegations) != 1 {
		t.Errorf("Recall = %d, left %+v", n, s.Delegations)
	}
}
