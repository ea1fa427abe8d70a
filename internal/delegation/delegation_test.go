package delegation

import (
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/intents"
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

func TestMayDelegate(t *testing.T) {
	c, err := intents.Parse([]byte(`active_intents:
  - {id: INT-001, name: Platform, status: IN_PROGRESS, owned_scope: ["src/**"], constraints: []}
  - {id: INT-002, name: API work, status: IN_PROGRESS, parent_intent: INT-001, owned_scope: ["src/api/**"], constraints: []}
  - {id: INT-003, name: API v2, status: PENDING, parent_intent: INT-002, owned_scope: ["src/api/v2/**"], constraints: []}
  - {id: INT-004, name: Docs work, status: IN_PROGRESS, owned_scope: ["docs/**"], constraints: []}
`))
	if err != nil {
		t.Fatal(err)
	}
	s := &state.Session{Delegations: []state.Delegation{
		{Intent: "INT-002", AgentType: "general-purpose", Agent: "a1", Depth: 1, At: time.Now()},
		{Intent: "INT-003", AgentType: "Explore", Agent: "a2", By: "a1", Depth: 2, At: time.Now()},
	}}
	for _, tc := range []struct {
		name, agent, own, id string
		max                  int
		ok                   bool
	}{
		{"own intent", "", "INT-001", "INT-001", 3, true},
		{"child", "", "INT-001", "INT-002", 3, true},
		{"grandchild", "", "INT-001", "INT-003", 3, true},
		{"unrelated", "", "INT-001", "INT-004", 3, false},
		{"parent", "a1", "INT-002", "INT-001", 3, false},
		{"no intent", "", "", "INT-001", 3, false},
		{"unknown intent", "", "INT-001", "INT-404", 3, false},
		{"level 2 within 3", "a1", "INT-002", "INT-003", 3, true},
		{"level 2 past 1", "a1", "INT-002", "INT-003", 1, false},
		{"level 3 within 3", "a2", "INT-003", "INT-003", 3, true},
		{"level 3 past 2", "a2", "INT-003", "INT-003", 2, false},
		{"unknown subagent is level 1", "zz", "INT-001", "INT-002", 1, false},
		{"top level within 1", "", "INT-001", "INT-002", 1, true},
	} {
		why := MayDelegate(c, s, tc.agent, tc.own, tc.id, tc.max)
		if (why == "") != tc.ok {
			t.Errorf("%s: MayDelegate = %q, want ok %v", tc.name, why, tc.ok)
		}
	}
	if d := Add(s, "INT-003", "Explore", "a2", time.Now()); d.Depth != 3 {
		t.Errorf("a delegation by a level-2 agent: depth %d, want 3", d.Depth)
	}
}
