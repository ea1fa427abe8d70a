package ledger

import (
	"reflect"
	"testing"
)

// TestSpendAdd: usage sums in all and per model, session and agent, each in
// name order, calls of no named model under "", a nil usage adding nothing;
// Merge adds another sum part by part.
func TestSpendAdd(t *testing.T) {
	var s Spend
	s.Add(&Usage{Model: "gpt-5", Calls: 1, InputTokens: 40, OutputTokens: 7, CacheReadInputTokens: 2000, USD: 100}, "s2", MainAgent)
	s.Add(&Usage{Model: "claude-sonnet-4-5", Calls: 1, InputTokens: 3, OutputTokens: 10, CacheCreationInputTokens: 100, CacheReadInputTokens: 1000, USD: 834}, "s1", "a7")
	s.Add(nil, "s3", "a9")
	s.Add(&Usage{Calls: 1}, "s1", MainAgent)
	s.Add(&Usage{Model: "gpt-5", Calls: 1, OutputTokens: 3}, "s2", MainAgent)
	want := Spend{Share: Share{Calls: 4, Tokens: 3163, USD: 934},
		Models: []ModelSpend{
			{Model: "", Share: Share{Calls: 1}},
			{Model: "claude-sonnet-4-5", Share: Share{Calls: 1, Tokens: 1113, USD: 834}},
			{Model: "gpt-5", Share: Share{Calls: 2, Tokens: 2050, USD: 100}},
		},
		Sessions: []SessionSpend{
			{Session: "s1", Share: Share{Calls: 2, Tokens: 1113, USD: 834}},
			{Session: "s2", Share: Share{Calls: 2, Tokens: 2050, USD: 100}},
		},
		Agents: []AgentSpend{
			{Agent: "a7", Share: Share{Calls: 1, Tokens: 1113, USD: 834}},
			{Agent: MainAgent, Share: Share{Calls: 3, Tokens: 2050, USD: 100}},
		},
	}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("spend\n%+v\nwant\n%+v", s, want)
	}
	var all Spend
	all.Merge(&s)
	all.Merge(&s)
	all.Merge(nil)
	double := func(sh Share) Share { return Share{sh.Calls * 2, sh.Tokens * 2, sh.USD * 2} }
	want.Share = double(want.Share)
	for i := range want.Models {
		want.Models[i].Share = double(want.Models[i].Share)
	}
	for i := range want.Sessions {
		want.Sessions[i].Share = double(want.Sessions[i].Share)
	}
	for i := range want.Agents {
		want.Agents[i].Share = double(want.Agents[i].Share)
	}
	if !reflect.DeepEqual(all, want) {
		t.Errorf("merged\n%+v\nwant\n%+v", all, want)
	}
}

// TestAgentOf: a record without an agent id is the session's main agent's.
func TestAgentOf(t *testing.T) {
	for _, tt := range []struct {
		id   NullString
		want string
	}{{"", MainAgent}, {"a7", "a7"}} {
		if got := AgentOf(&Meta{AgentID: tt.id}); got != tt.want {
			t.Errorf("AgentOf(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
}
