package selection

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/state"
)

func TestHolds(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	recent := now.Add(-time.Minute)
	tests := []struct {
		name string
		ss   state.Session
		want string // "" = holds nothing against e2
	}{
		{"live", state.Session{ID: "e1", LastSeen: recent}, "session e1"},
		{"the asking session itself", state.Session{ID: "e2", LastSeen: recent}, ""},
		{"vanished past the window", state.Session{ID: "e1", LastSeen: now.Add(-LiveWindow - time.Second)}, ""},
		{"ended", state.Session{ID: "e1", LastSeen: recent, EndedAt: recent}, ""},
		{"active after its end", state.Session{ID: "e1", LastSeen: now, EndedAt: recent}, "session e1"},
		{"ended while e5's command ran", state.Session{ID: "e1", LastSeen: recent, EndedAt: recent, EndedDuring: []string{"e5"}},
			"session e1 (whose end came while a shell command of session e5 ran, so it released nothing)"},
		{"ended while two ran", state.Session{ID: "e1", LastSeen: recent, EndedAt: recent, EndedDuring: []string{"e2", "e5"}},
			"session e1 (whose end came while a shell command of sessions e2, e5 ran, so it released nothing)"},
		{"that end, past the window", state.Session{ID: "e1", LastSeen: now.Add(-LiveWindow - time.Second), EndedAt: now.Add(-LiveWindow - time.Second), EndedDuring: []string{"e5"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, ok := holds(&tt.ss, "e2", now)
			if name != tt.want || ok != (tt.want != "") {
				t.Errorf("holds = %q, %v; want %q", name, ok, tt.want)
			}
		})
	}
}

func TestReclaim(t *testing.T) {
	mine := claim{Intent: "INT-001"}
	sub := claim{Agent: "sub-1", Intent: "INT-002"}
	taken := map[string][]string{"INT-001": {"session e2"}}
	tests := []struct {
		name      string
		cs        []claim
		holders   map[string][]string
		exclusive bool
		drop      []claim
		told      []string
	}{
		{"free", []claim{mine, sub}, nil, true, nil, nil},
		{"taken, exclusive", []claim{mine, sub}, taken, true, []claim{mine},
			[]string{"intenthook: intent INT-001, selected for this session before this session ended, is held by session e2 now, so this session no longer holds it: select another intent (intenthook select <ID>), or ask the user to clear the other session (intenthook select --clear --session <SID>)"}},
		{"taken, shared", []claim{mine}, taken, false, nil,
			[]string{"warning: intent INT-001 is also held by session e2; coordinate to avoid overlapping edits"}},
		{"an agent's, taken", []claim{sub}, map[string][]string{"INT-002": {"session e2", "session e3 agent a"}}, true, []claim{sub},
			[]string{"intenthook: intent INT-002, selected for agent sub-1 before this session ended, is held by session e2, session e3 agent a now, so agent sub-1 no longer holds it: select another intent (intenthook select <ID>), or ask the user to clear the other session (intenthook select --clear --session <SID>)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			drop, told := reclaim(tt.cs, tt.holders, tt.exclusive)
			if !slices.Equal(drop, tt.drop) || !slices.Equal(told, tt.told) {
				t.Errorf("reclaim = %v, %q; want %v, %q", drop, told, tt.drop, tt.told)
			}
		})
	}
}

// TestEndReleasesAndResume: an ended session's selection holds nothing; a
// resume takes it back when free and gives it up when another session
// took it.
func TestEndReleasesAndResume(t *testing.T) {
	ws := load(t, "exclusive_intents: true\n")
	ctx := context.Background()
	sel := Selector{WS: ws, Editor: lifecycle.NewEditor(ws, "", "", "test")}
	end := func(id string, during ...string) {
		t.Helper()
		now := ws.Now()
		if err := ws.Sessions.Update(ctx, id, now, func(s *state.Session) error { s.End(now, during); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	code := func(session, id string) string {
		t.Helper()
		res, err := sel.Select(ctx, Who{Session: session}, id)
		if err != nil {
			t.Fatal(err)
		}
		return res.Decision.Code
	}
	if c := code("s1", "INT-006"); c != "" {
		t.Fatalf("s1: %s", c)
	}
	end("s1", "s9") // while s9's command ran: released nothing
	if c := code("s2", "INT-006"); c != hook.CodeIntentClaimed {
		t.Fatalf("s2 after a doubted end: %q", c)
	}
	end("s1")
	if c := code("s2", "INT-006"); c != "" {
		t.Fatalf("s2 after s1 ended: %q", c)
	}
	sess, told, err := sel.Resume(ctx, Who{Session: "s1"})
	if err != nil || sess.Intent != "" || !sess.EndedAt.IsZero() || len(told) != 1 || !strings.Contains(told[0], "held by session s2") {
		t.Fatalf("resume with the intent taken: %+v %q %v", sess, told, err)
	}
	if c := code("s3", "INT-006"); c != hook.CodeIntentClaimed {
		t.Errorf("s3 while s2 holds it: %q", c)
	}
	// s2 ends and resumes with its intent free: it holds it again.
	end("s2")
	if sess, told, err := sel.Resume(ctx, Who{Session: "s2"}); err != nil || sess.Intent != "INT-006" || told != nil {
		t.Fatalf("resume with the intent free: %+v %q %v", sess, told, err)
	}
	if c := code("s3", "INT-006"); c != hook.CodeIntentClaimed {
		t.Errorf("s3 after s2 resumed: %q", c)
	}
}
