package state

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/guard"
)

func TestEndedReleased(t *testing.T) {
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name            string
		s               Session
		ended, released bool
	}{
		{"never ended", Session{LastSeen: at}, false, false},
		{"ended, nothing since", Session{LastSeen: at, EndedAt: at}, true, true},
		{"seen before the end", Session{LastSeen: at.Add(-time.Second), EndedAt: at}, true, true},
		{"active after the end", Session{LastSeen: at.Add(time.Second), EndedAt: at}, false, false},
		{"ended while another command ran", Session{LastSeen: at, EndedAt: at, EndedDuring: []string{"e5"}}, true, false},
		{"that, then active", Session{LastSeen: at.Add(time.Minute), EndedAt: at, EndedDuring: []string{"e5"}}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Ended(); got != tt.ended {
				t.Errorf("Ended = %v, want %v", got, tt.ended)
			}
			if got := tt.s.Released(); got != tt.released {
				t.Errorf("Released = %v, want %v", got, tt.released)
			}
		})
	}
	s := Session{LastSeen: at, EndedAt: at, EndedDuring: []string{"e5"}}
	s.Resume()
	if s.Ended() || s.EndedDuring != nil {
		t.Errorf("after Resume: %+v", s)
	}
}

// TestEndRoundTrip: a hook reads a session file through decodeSession,
// status through List; both see the end.
func TestEndRoundTrip(t *testing.T) {
	ss := Sessions{Root: t.TempDir(), Timeout: time.Second}
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	err := ss.Update(context.Background(), "e1", now, func(s *Session) error {
		s.Select("", "INT-001")
		s.End(now, []string{"e5"})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ss.Read("e1")
	if err != nil || !got.EndedAt.Equal(now) || !slices.Equal(got.EndedDuring, []string{"e5"}) || !got.Ended() {
		t.Errorf("Read = %+v, %v", got, err)
	}
	all, err := ss.List()
	if err != nil || len(all) != 1 || !all[0].Ended() || all[0].Released() {
		t.Errorf("List = %+v, %v", all, err)
	}
}

func TestCommandsRunning(t *testing.T) {
	root := t.TempDir()
	ss := Sessions{Root: root, Timeout: time.Second}
	ctx := context.Background()
	now := time.Now()
	shell := Pending{At: now, Guard: &guard.Snapshot{Files: map[string]guard.File{}}}
	put := func(session, id string, p Pending) {
		t.Helper()
		if err := ss.PutPending(ctx, session, id, p); err != nil {
			t.Fatal(err)
		}
	}
	if got := ss.CommandsRunning("e1", now); got != nil {
		t.Fatalf("no state: %v", got)
	}
	put("e1", "t1", shell)                                                 // the ending session's own
	put("e2", "t2", shell)                                                 // running
	put("e3", "t3", shell)                                                 // done below
	put("e4", "t4", Pending{At: now, PreHash: map[string]string{"a": ""}}) // a Write: runs no program
	put("e6", "t6", Pending{At: now.Add(-2 * PendingTTL), Guard: shell.Guard})
	if err := ss.DonePending(ctx, "e3", "t3", now); err != nil {
		t.Fatal(err)
	}
	// An entry stored beside its log (the lock was held), under a key with
	// a dot in it.
	if err := ss.putSidecar("e.7", "t7", pendingLine{ID: "t7", Pending: shell}.marshal()); err != nil {
		t.Fatal(err)
	}
	// A file no hook wrote, and a log too old to hold a live entry.
	if err := os.WriteFile(Path(root, "pending", "junk.pend"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := now.Add(-2 * PendingTTL)
	if err := os.Chtimes(ss.pendingPath("e6"), old, old); err != nil {
		t.Fatal(err)
	}
	if got, want := ss.CommandsRunning("e1", now), []string{"e.7", "e2"}; !slices.Equal(got, want) {
		t.Errorf("CommandsRunning = %v, want %v", got, want)
	}
}

// TestEndThenClockBack: a call after a session's end, on a clock stepped
// an hour back over the end of a month, is activity after the end as on a
// clock that went on; one at the end's very stamp is not.
func TestEndThenClockBack(t *testing.T) {
	end := time.Date(2026, 12, 1, 0, 31, 0, 0, time.UTC)
	tests := []struct {
		name  string
		call  time.Time
		ended bool
	}{
		{"an hour back", end.Add(-time.Hour), false},
		{"a millisecond back", end.Add(-time.Millisecond), false},
		{"at the end's stamp", end, true},
		{"after", end.Add(time.Minute), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss := Sessions{Root: t.TempDir(), Timeout: time.Second}
			ctx := context.Background()
			if err := ss.Update(ctx, "e1", end, func(s *Session) error { s.End(end, nil); return nil }); err != nil {
				t.Fatal(err)
			}
			if err := ss.Update(ctx, "e1", tt.call, func(*Session) error { return nil }); err != nil {
				t.Fatal(err)
			}
			got, err := ss.Read("e1")
			if err != nil || got.Ended() != tt.ended || got.Released() != tt.ended {
				t.Errorf("after a call at %s: ended %v, released %v (%+v, %v); want %v", tt.call, got.Ended(), got.Released(), got, err, tt.ended)
			}
		})
	}
}
