package review

import (
	"context"
	"testing"
	"time"
)

// A handed submission is taken once, by the call it was handed to, while
// fresh; other calls and stale entries take nothing.
func TestTakeHanded(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		handed    []Request
		call      string
		at        time.Time
		want      bool
		wantAfter int // handed entries left
	}{
		{"none handed", nil, "t1", now, false, 0},
		{"the call's own", []Request{{Intent: "INT-001", Session: "s1", ToolUseID: "t1", At: now}}, "t1", now, true, 0},
		{"another call's", []Request{{Intent: "INT-001", Session: "s1", ToolUseID: "t2", At: now}}, "t1", now, false, 1},
		{"no call id", []Request{{Intent: "INT-001", Session: "s1", At: now}}, "", now, false, 1},
		{"stale", []Request{{Intent: "INT-001", Session: "s1", ToolUseID: "t1", At: now}}, "t1", now.Add(RequestTTL + time.Second), false, 0},
		{"one of two", []Request{{Intent: "INT-001", ToolUseID: "t1", At: now}, {Intent: "INT-001", ToolUseID: "t1", At: now}}, "t1", now, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Store{Root: t.TempDir(), LockTimeout: time.Second}
			for _, r := range tt.handed {
				if err := s.Hand(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			got, ok, err := s.TakeHanded(ctx, "INT-001", tt.call, tt.at)
			if err != nil || ok != tt.want {
				t.Fatalf("TakeHanded = %+v, %v, %v; want found=%v", got, ok, err, tt.want)
			}
			if ok && got.ToolUseID != tt.call {
				t.Errorf("took %q, want the call %q", got.ToolUseID, tt.call)
			}
			var f file
			if err := s.update(ctx, "INT-001", func(x *file) error { f = *x; return nil }); err != nil {
				t.Fatal(err)
			}
			if len(f.Passed) != tt.wantAfter {
				t.Errorf("%d handed entries left, want %d", len(f.Passed), tt.wantAfter)
			}
		})
	}
}
