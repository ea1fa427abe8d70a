package loop

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/hook"
)

func TestEscalate(t *testing.T) {
	deny := hook.Denial{Code: "scope_violation", Headline: "Write to \"a\" is outside", Why: "w", Instead: "i"}.Decision()
	tests := []struct {
		name      string
		d         hook.Decision
		n         int
		s         Settings
		verdict   hook.Verdict
		first     string
		escalated bool
	}{
		{name: "below repeats", d: deny, n: 2, s: Default(), verdict: hook.Deny, first: `intenthook: deny [scope_violation] Write to "a" is outside`},
		{name: "the deny that reaches repeats", d: deny, n: 3, s: Default(), verdict: hook.Deny, first: `intenthook: deny [scope_violation] Write to "a" is outside (repeat: denied 3 times in 10m)`, escalated: true},
		{name: "past repeats", d: deny, n: 7, s: Default(), verdict: hook.Deny, first: `intenthook: deny [scope_violation] Write to "a" is outside (repeat: denied 7 times in 10m)`, escalated: true},
		{name: "ask", d: deny, n: 3, s: Settings{Repeats: 3, Window: time.Hour, Action: Ask}, verdict: hook.Ask, first: `intenthook: deny [scope_violation] Write to "a" is outside (repeat: denied 3 times in 1h)`, escalated: true},
		{name: "off", d: deny, n: 99, s: Settings{Repeats: 0, Action: Deny}, verdict: hook.Deny, first: `intenthook: deny [scope_violation] Write to "a" is outside`},
		{name: "not a deny", d: hook.Decision{Verdict: hook.Ask, Message: "m"}, n: 5, s: Default(), verdict: hook.Ask, first: "m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Escalate(tt.d, tt.n, tt.s)
			first, rest, _ := strings.Cut(got.Message, "\n")
			if got.Verdict != tt.verdict || first != tt.first || got.Code != tt.d.Code {
				t.Fatalf("got %v %q (code %s)", got.Verdict, first, got.Code)
			}
			if hasStop := strings.HasPrefix(rest, "stop: "); hasStop != tt.escalated {
				t.Errorf("stop line: %v, want %v:\n%s", hasStop, tt.escalated, got.Message)
			}
			if tt.escalated && !strings.Contains(rest, "\nwhy: w\ninstead: i") {
				t.Errorf("lost the original lines:\n%s", got.Message)
			}
		})
	}
}

func TestBlockedAndCheck(t *testing.T) {
	d := Escalate(hook.Denial{Code: "c", Headline: "h"}.Decision(), 3, Default())
	if got := Blocked(d, "INT-001", nil).Message; !strings.Contains(got, "\nblocked: intent INT-001 is now BLOCKED") {
		t.Errorf("Blocked: %s", got)
	}
	if got := Blocked(d, "INT-001", errors.New("lock timeout")).Message; !strings.Contains(got, "could not be moved to BLOCKED: lock timeout") {
		t.Errorf("Blocked with error: %s", got)
	}
	for _, tt := range []struct {
		s  Settings
		ok bool
	}{
		{Default(), true},
		{Settings{Repeats: 0, Action: Deny}, true},
		{Settings{Repeats: -1, Action: Deny}, false},
		{Settings{Repeats: 3, Window: 0, Action: Deny}, false},
		{Settings{Repeats: 3, Window: time.Minute, Action: "stop"}, false},
	} {
		if err := tt.s.Check(); (err == nil) != tt.ok {
			t.Errorf("Check(%+v) = %v", tt.s, err)
		}
	}
	if got := Reason(Key{Code: "scope_violation", Tool: "Edit"}, 3, Default()); got != "loop: scope_violation denied 3 times in 10m (tool Edit, path -)" {
		t.Errorf("Reason = %q", got)
	}
}
