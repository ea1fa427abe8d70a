package ledger

import (
	"reflect"
	"testing"
)

// TestSpendAdd: usage sums in all and per model, models in name order,
// calls of no named model under "", a nil usage adding nothing; Merge
// adds another sum model by model.
func TestSpendAdd(t *testing.T) {
	var s Spend
	s.Add(&Usage{Model: "gpt-5", Calls: 1, InputTokens: 40, OutputTokens: 7, CacheReadInputTokens: 2000, USD: 100})
	s.Add(&Usage{Model: "claude-sonnet-4-5", Calls: 1, InputTokens: 3, OutputTokens: 10, CacheCreationInputTokens: 100, CacheReadInputTokens: 1000, USD: 834})
	s.Add(nil)
	s.Add(&Usage{Calls: 1})
	s.Add(&Usage{Model: "gpt-5", Calls: 1, OutputTokens: 3})
	want := Spend{Calls: 4, Tokens: 3163, USD: 934, Models: []ModelSpend{
		{Model: "", Calls: 1},
		{Model: "claude-sonnet-4-5", Calls: 1, Tokens: 1113, USD: 834},
		{Model: "gpt-5", Calls: 2, Tokens: 2050, USD: 100},
	}}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("spend\n%+v\nwant\n%+v", s, want)
	}
	var all Spend
	all.Merge(&s)
	all.Merge(&s)
	all.Merge(nil)
	if all.Calls != 8 || all.Tokens != 6326 || all.USD != 1868 || len(all.Models) != 3 || all.Models[2] != (ModelSpend{"gpt-5", 4, 4100, 200}) {
		t.Errorf("merged = %+v", all)
	}
}
