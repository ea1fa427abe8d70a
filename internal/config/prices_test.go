package config

import (
	"strings"
	"testing"
)

func TestPrices(t *testing.T) {
	c, err := Parse([]byte("prices:\n  claude-sonnet-4-5: {input: 3, output: 15, cache_creation: 3.75, cache_read: 0.30}\n  claude-sonnet-4: {input: 3, output: 15}\n  claude-opus-4: {input: 15, output: 75}\n  claude-opus-4-5: {input: 5, output: 25}\n  bad: {input: three}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Prices["bad"]; ok || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "prices.bad: a price is not an amount") {
		t.Errorf("a misspelt price: prices %v, warnings %q", c.Prices, c.Warnings)
	}
	tests := []struct {
		model string
		want  int64 // micro-dollars per million input tokens
		ok    bool
	}{
		{"claude-sonnet-4-5", 3_000_000, true},
		{"claude-sonnet-4-5-20250929", 3_000_000, true},
		{"claude-opus-4-5-20251101", 5_000_000, true},
		{"claude-opus-4-20250514", 15_000_000, true},
		{"claude-opus-45", 0, false},
		{"gpt-5", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		p, ok := c.PriceOf(tt.model)
		if ok != tt.ok || int64(p.Input) != tt.want {
			t.Errorf("PriceOf(%q) = %+v, %v; want input %d, %v", tt.model, p, ok, tt.want, tt.ok)
		}
	}
}

func TestPriceCost(t *testing.T) {
	p := Price{Input: 3_000_000, Output: 15_000_000, CacheCreation: 3_750_000, CacheRead: 300_000}
	tests := []struct {
		name                  string
		in, out, cc, cr, want int64
	}{
		{"nothing", 0, 0, 0, 0, 0},
		{"a million input tokens", 1_000_000, 0, 0, 0, 3_000_000},
		{"every kind", 3, 10, 100, 1000, 834},     // 9 + 150 + 375 + 300 = 834 micro-dollars
		{"rounded to the nearest", 1, 0, 0, 0, 3}, // 3 micro-dollars exactly
		{"a fraction rounds", 0, 0, 0, 1, 0},      // 0.3 micro-dollars
		{"half rounds up", 0, 0, 0, 5, 2},         // 1.5 micro-dollars
		{"huge", 1 << 62, 1 << 62, 0, 0, 1<<63 - 1},
	}
	for _, tt := range tests {
		if got := p.Cost(tt.in, tt.out, tt.cc, tt.cr); got != tt.want {
			t.Errorf("%s: Cost = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestStarterPrices: the table init writes is read by the hooks' subset,
// as yaml.v3 reads it, with every model priced and no warning.
func TestStarterPrices(t *testing.T) {
	if !agrees(t, StarterPrices) {
		t.Fatal("the subset does not read the starter prices")
	}
	c, err := Parse([]byte(StarterPrices))
	if err != nil || len(c.Warnings) > 0 {
		t.Fatalf("Parse = %v, warnings %q", err, c.Warnings)
	}
	if len(c.Prices) < 15 {
		t.Errorf("%d models priced", len(c.Prices))
	}
	for _, model := range []string{"claude-sonnet-4-5-20250929", "claude-opus-4-5-20251101", "claude-haiku-4-5-20251001", "gpt-5-codex", "gpt-5.1-codex-max"} {
		if p, ok := c.PriceOf(model); !ok || p.Input <= 0 || p.Output <= 0 {
			t.Errorf("%s: %+v, %v", model, p, ok)
		}
	}
}

func TestSessionBudget(t *testing.T) {
	c, err := Parse([]byte("budget: {usd: ten, calls: 2, tokens: 100}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (SessionBudget{Calls: 2, Tokens: 100}); c.Budget != want || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "budget: tokens and calls are whole numbers") {
		t.Errorf("budget = %+v, warnings %q", c.Budget, c.Warnings)
	}
	if c, _ := Parse([]byte("budget: {usd: 2.5}\n")); c.Budget.USD != 2_500_000 || !c.Budget.Set() {
		t.Errorf("budget = %+v", c.Budget)
	}
}
