package asks

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// clock is a test clock that sleep moves on, and that runs a step at a
// given time (a person answering, a program writing).
type clock struct {
	t     time.Time
	steps map[time.Duration]func()
	start time.Time
}

func newClock() *clock {
	t := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	return &clock{t: t, start: t, steps: map[time.Duration]func(){}}
}

func (c *clock) now() time.Time { return c.t }

func (c *clock) sleep(d time.Duration) {
	c.t = c.t.Add(d)
	for at, fn := range c.steps {
		if c.t.Sub(c.start) >= at {
			delete(c.steps, at)
			fn()
		}
	}
}

func TestWait(t *testing.T) {
	tests := []struct {
		name   string
		at     time.Duration // when the step runs
		step   func(s Store, id string, now time.Time)
		want   string // the verdict, "" for none
		reason string
		waited time.Duration // how long the wait took, at least
	}{
		{name: "allowed", at: time.Second, want: Allow, waited: time.Second, step: func(s Store, id string, now time.Time) {
			if _, err := s.Answer(id, Answer{Verdict: Allow, By: "P <p@example.com>", At: now}, now); err != nil {
				panic(err)
			}
		}},
		{name: "denied with a reason", at: 3 * time.Second, want: Deny, reason: "not on main", waited: 3 * time.Second, step: func(s Store, id string, now time.Time) {
			if _, err := s.Answer(id, Answer{Verdict: Deny, Reason: "not on main", At: now}, now); err != nil {
				panic(err)
			}
		}},
		{name: "no answer in time", waited: 10 * time.Second},
		{name: "an answer no journal line names is not believed", at: time.Second, waited: 10 * time.Second, step: func(s Store, id string, now time.Time) {
			_ = os.WriteFile(s.path(id, ".answer"), []byte(`{"verdict":"allow"}`), 0o644)
		}},
		{name: "a verdict that is neither is not believed", at: time.Second, waited: 10 * time.Second, step: func(s Store, id string, now time.Time) {
			if _, err := s.Answer(id, Answer{Verdict: "maybe", At: now}, now); err != nil {
				panic(err)
			}
		}},
		{name: "the ask taken away ends the wait", at: 2 * time.Second, waited: 2 * time.Second, step: func(s Store, id string, now time.Time) {
			_ = os.Remove(s.path(id, ".json"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := For(t.TempDir())
			c := newClock()
			a, err := s.Open(Ask{Session: "s1", Tool: "Bash", Target: "rm -rf build", Why: "intenthook: a destructive command", Created: c.now(), Deadline: c.now().Add(10 * time.Second)}, "s1/t1")
			if err != nil {
				t.Fatal(err)
			}
			if tt.step != nil {
				c.steps[tt.at] = func() { tt.step(s, a.ID, c.now()) }
			}
			ans, ok := s.Wait(context.Background(), a, Poll, c.now, c.sleep)
			if got := ans.Verdict; ok != (tt.want != "") || got != tt.want || ans.Reason != tt.reason {
				t.Errorf("Wait = %+v, %v; want verdict %q reason %q", ans, ok, tt.want, tt.reason)
			}
			if waited := c.now().Sub(c.start); waited < tt.waited || waited > tt.waited+Poll {
				t.Errorf("waited %s, want %s", waited, tt.waited)
			}
			s.Close(a.ID)
			if left, _ := os.ReadDir(s.dir); len(left) != 0 {
				t.Errorf("Close left %v", left)
			}
		})
	}
}

func TestPendingAndAnswer(t *testing.T) {
	s := For(t.TempDir())
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	if got, err := s.Pending(now); err != nil || got != nil {
		t.Fatalf("Pending without a directory = %v, %v", got, err)
	}
	old, _ := s.Open(Ask{Session: "s1", Tool: "Write", Created: now, Deadline: now.Add(time.Minute)}, "")
	young, _ := s.Open(Ask{Session: "s2", Tool: "Bash", Created: now.Add(time.Second), Deadline: now.Add(2 * time.Minute)}, "")
	gone, _ := s.Open(Ask{Session: "s3", Tool: "Bash", Created: now.Add(-time.Hour), Deadline: now.Add(-time.Minute)}, "")
	_ = os.WriteFile(filepath.Join(s.dir, "notes.txt"), []byte("x"), 0o644)
	got, err := s.Pending(now)
	if err != nil || len(got) != 2 || got[0].ID != old.ID || got[1].ID != young.ID {
		t.Fatalf("Pending = %+v, %v; want %s then %s", got, err, old.ID, young.ID)
	}
	if _, err := s.Answer(gone.ID, Answer{Verdict: Allow}, now); err == nil {
		t.Error("an ask past its deadline was answered")
	}
	if _, err := s.Answer(old.ID, Answer{Verdict: Allow}, now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Answer(old.ID, Answer{Verdict: Deny}, now); err == nil {
		t.Error("an ask was answered twice")
	}
	if got, _ := s.Pending(now); len(got) != 1 || got[0].ID != young.ID {
		t.Errorf("Pending after an answer = %+v", got)
	}
	for _, id := range []string{"", "../x", "ABCDEF12", "1234567", "deadbeef"} {
		if _, err := s.Get(id, now); !errors.Is(err, ErrNoAsk) {
			t.Errorf("Get(%q) = %v, want ErrNoAsk", id, err)
		}
	}
}

// TestWorkTreesShareAsks: in a git repository the asks live under the
// common git directory, so an ask a hook files in a linked work tree is
// listed and answered from the main one, and the waiting hook believes the
// answer: the journal that names it lives beside the asks.
func TestWorkTreesShareAsks(t *testing.T) {
	main := t.TempDir()
	wt := filepath.Join(t.TempDir(), "wt2")
	for _, args := range [][]string{
		{"-C", main, "init", "-q"},
		{"-C", main, "-c", "user.email=p@example.com", "-c", "user.name=P", "commit", "-q", "--allow-empty", "-m", "base"},
		{"-C", main, "worktree", "add", "-q", "-b", "feat", wt},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	here, there := For(wt), For(main)
	if here.Dir() != there.Dir() || !strings.HasSuffix(filepath.ToSlash(here.Dir()), ".git/"+CommonDir) {
		t.Fatalf("the work trees' asks are %s and %s, want one directory under .git", here.Dir(), there.Dir())
	}
	c := newClock()
	a, err := here.Open(Ask{Session: "s1", Tool: "Bash", Created: c.now(), Deadline: c.now().Add(10 * time.Second)}, "s1/t1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := there.Pending(c.now())
	if err != nil || len(got) != 1 || got[0].ID != a.ID {
		t.Fatalf("the main work tree sees %+v, %v; want ask %s", got, err, a.ID)
	}
	c.steps[time.Second] = func() {
		if _, err := there.Answer(a.ID, Answer{Verdict: Allow, At: c.now()}, c.now()); err != nil {
			panic(err)
		}
	}
	if ans, ok := here.Wait(context.Background(), a, Poll, c.now, c.sleep); !ok || ans.Verdict != Allow {
		t.Errorf("the waiting hook read %+v, %v; want the other work tree's allow", ans, ok)
	}
	here.Close(a.ID)
	if left, _ := there.Pending(c.now()); len(left) != 0 {
		t.Errorf("left pending: %+v", left)
	}
	for _, root := range []string{main, wt} {
		if _, err := os.Stat(filepath.Join(root, ".orchestration")); err == nil {
			t.Errorf("%s: the asks wrote under the work tree", root)
		}
	}
}
