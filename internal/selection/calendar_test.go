package selection

import (
	"context"
	"github.com/intenthook/intenthook/internal/clocktest"
	"testing"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/state"
)

// The 30-minute rule across the year's last millisecond, a leap day, the
// end of a February without one, and a clock that steps an hour back over
// the end of a month: a session seen at seen holds its intent at now while
// now is at most LiveWindow later. A session seen "later" than now, as a
// clock that stepped back leaves it, was seen just now: it holds, and lets
// go LiveWindow after the stamp it was seen at.
func TestHoldsAcrossCalendar(t *testing.T) {
	tests := []struct {
		name      string
		seen, now string
		holds     bool
	}{
		{"year end, within the window", "2026-12-31T23:59:59.999Z", "2027-01-01T00:15:00Z", true},
		{"year end, the window's last instant", "2026-12-31T23:59:59.999Z", "2027-01-01T00:29:59.999Z", true},
		{"year end, past the window", "2026-12-31T23:59:59.999Z", "2027-01-01T00:30:00Z", false},
		{"into a leap day", "2028-02-28T23:45:00Z", "2028-02-29T00:15:00Z", true},
		{"into a leap day, past the window", "2028-02-28T23:45:00Z", "2028-02-29T00:15:00.001Z", false},
		{"out of a leap day", "2028-02-29T23:59:59.999Z", "2028-03-01T00:29:59.999Z", true},
		{"out of a leap day, past the window", "2028-02-29T23:59:59.999Z", "2028-03-01T00:30:00Z", false},
		{"out of February", "2027-02-28T23:59:59.999Z", "2027-03-01T00:29:59.999Z", true},
		{"out of February, past the window", "2027-02-28T23:59:59.999Z", "2027-03-01T00:30:00Z", false},
		{"an hour back over a month's end", "2026-12-01T00:30:00Z", "2026-11-30T23:30:00Z", true},
		{"back, then the hour caught up", "2026-12-01T00:30:00Z", "2026-12-01T00:59:59.999Z", true},
		{"back, then past the window", "2026-12-01T00:30:00Z", "2026-12-01T01:00:00.001Z", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss := &state.Session{ID: "e1", Intent: "INT-006", LastSeen: clocktest.At(t, tt.seen)}
			if _, ok := holds(ss, "e2", clocktest.At(t, tt.now)); ok != tt.holds {
				t.Errorf("holds = %v at %s for a session seen at %s, want %v", ok, tt.now, tt.seen, tt.holds)
			}
		})
	}
}

// The same rule through a selection on an injected clock, with
// exclusive_intents: e1 selects at seen, does end when end is set, and
// does one more call after when act is set; at now e2 selects the same
// intent, and is denied intent_claimed while e1 holds it.
func TestClaimsAcrossCalendar(t *testing.T) {
	tests := []struct {
		name           string
		seen, end, act string
		now            string
		claimed        bool
	}{
		{"year end", "2026-12-31T23:59:59.999Z", "", "", "2027-01-01T00:29:59.999Z", true},
		{"year end, lapsed", "2026-12-31T23:59:59.999Z", "", "", "2027-01-01T00:30:00Z", false},
		{"leap day", "2028-02-28T23:59:59.999Z", "", "", "2028-02-29T00:29:59.999Z", true},
		{"leap day, lapsed", "2028-02-29T00:00:00Z", "", "", "2028-02-29T00:30:00.001Z", false},
		{"end of February", "2027-02-28T23:59:59.999Z", "", "", "2027-03-01T00:29:59.999Z", true},
		{"end of February, lapsed", "2027-02-28T23:59:59.999Z", "", "", "2027-03-01T00:30:00Z", false},
		{"an hour back over a month's end", "2026-12-01T00:30:00Z", "", "", "2026-11-30T23:30:00Z", true},
		{"back, then past the window", "2026-12-01T00:30:00Z", "", "", "2026-12-01T01:00:00.001Z", false},
		{"ended, then an hour back", "2026-12-01T00:30:00Z", "2026-12-01T00:31:00Z", "", "2026-11-30T23:40:00Z", false},
		// A call after its end, on a clock an hour behind the end's stamp:
		// the end no longer counts, as it would not on a clock that went on.
		{"ended, an hour back, then active", "2026-12-01T00:30:00Z", "2026-12-01T00:31:00Z", "2026-11-30T23:35:00Z", "2026-11-30T23:40:00Z", true},
		{"ended, then active", "2026-12-01T00:30:00Z", "2026-12-01T00:31:00Z", "2026-12-01T00:35:00Z", "2026-12-01T00:40:00Z", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := load(t, "exclusive_intents: true\n")
			c := &clocktest.Clock{Now: clocktest.At(t, tt.seen)}
			ws.Now = c.Read
			ctx := context.Background()
			sel := Selector{WS: ws, Editor: lifecycle.NewEditor(ws, "", "", "test")}
			if res, err := sel.Select(ctx, Who{Session: "e1"}, "INT-006"); err != nil || res.Decision.Code != "" {
				t.Fatalf("e1's selection: %+v, %v", res.Decision, err)
			}
			if tt.end != "" {
				c.Now = clocktest.At(t, tt.end)
				if err := ws.Sessions.Update(ctx, "e1", c.Read(), func(s *state.Session) error { s.End(c.Now, nil); return nil }); err != nil {
					t.Fatal(err)
				}
			}
			if tt.act != "" {
				c.Now = clocktest.At(t, tt.act)
				if err := ws.Sessions.Update(ctx, "e1", c.Read(), func(*state.Session) error { return nil }); err != nil {
					t.Fatal(err)
				}
			}
			c.Now = clocktest.At(t, tt.now)
			res, err := sel.Select(ctx, Who{Session: "e2"}, "INT-006")
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Decision.Code == hook.CodeIntentClaimed; got != tt.claimed {
				t.Errorf("e2 at %s: %q %s; want claimed %v", tt.now, res.Decision.Code, res.Decision.Message, tt.claimed)
			}
		})
	}
}
