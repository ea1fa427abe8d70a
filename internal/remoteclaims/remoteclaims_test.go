package remoteclaims

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestRefKey(t *testing.T) {
	for _, tc := range []struct{ intent, want string }{
		{"INT-001", "INT-001"},
		{"feature.auth", "feature.auth"},
		{"a..b", "h-"},
		{".hidden", "h-"},
		{"x.lock", "h-"},
		{"has space", "h-"},
		{"trailing.", "h-"},
	} {
		if got := RefKey(tc.intent); got != tc.want && !(tc.want == "h-" && strings.HasPrefix(got, "h-") && len(got) == 66) {
			t.Errorf("RefKey(%q) = %q, want %q", tc.intent, got, tc.want)
		}
	}
}

func TestClaimTimes(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := Claim{At: at, Expires: at.Add(TTL)}
	for _, tc := range []struct {
		name      string
		now       time.Time
		live, due bool
	}{
		{"just written", at, true, false},
		{"two thirds in", at.Add(TTL * 2 / 3).Add(-time.Second), true, false},
		{"within a third of its expiry", at.Add(TTL * 2 / 3), true, true},
		{"expired, within the skew", at.Add(TTL + Skew - time.Second), true, true},
		{"expired past the skew", at.Add(TTL + Skew), false, true},
		{"a reader's clock behind", at.Add(-time.Hour), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.Live(tc.now); got != tc.live {
				t.Errorf("Live = %v, want %v", got, tc.live)
			}
			if got := c.Due(tc.now); got != tc.due {
				t.Errorf("Due = %v, want %v", got, tc.due)
			}
		})
	}
}

func TestEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []string
		ssh  string
	}{
		{"nothing set", []string{"PATH=/bin"}, "GIT_SSH_COMMAND=ssh -o BatchMode=yes"},
		{"a prompt and askpass set", []string{"GIT_TERMINAL_PROMPT=1", "GIT_ASKPASS=/usr/bin/ksshaskpass", "SSH_ASKPASS=x"}, "GIT_SSH_COMMAND=ssh -o BatchMode=yes"},
		{"the user's ssh command", []string{"GIT_SSH_COMMAND=ssh -i ~/.ssh/team"}, "GIT_SSH_COMMAND=ssh -i ~/.ssh/team -o BatchMode=yes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := Env(tc.in)
			for _, want := range []string{"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=", tc.ssh} {
				if !slices.Contains(env, want) {
					t.Errorf("Env(%q) lacks %q: %q", tc.in, want, env)
				}
			}
			for _, kv := range env {
				if kv == "GIT_TERMINAL_PROMPT=1" || strings.HasPrefix(kv, "GIT_ASKPASS=/") {
					t.Errorf("Env kept %q", kv)
				}
			}
		})
	}
}

func TestWait(t *testing.T) {
	for _, tc := range []struct {
		set  string
		want time.Duration
	}{{"", Bound}, {"5s", 5 * time.Second}, {"-1s", Bound}, {"x", Bound}, {"10m", MaxWait}} {
		if got := Wait(func(string) string { return tc.set }); got != tc.want {
			t.Errorf("Wait(%q) = %s, want %s", tc.set, got, tc.want)
		}
	}
}

// TestTakeRelease takes, renews, loses and releases claims against a
// bare repository on disk, as two clones.
func TestTakeRelease(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	bare := filepath.Join(dir, "team.git")
	run(dir, "init", "-q", "--bare", bare)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var remotes []Remote
	for _, name := range []string{"a", "b"} {
		clone := filepath.Join(dir, name)
		run(dir, "init", "-q", clone)
		run(clone, "remote", "add", "origin", bare)
		r, ok := Open(clone, "origin")
		if !ok {
			t.Fatal("Open: not a repository")
		}
		remotes = append(remotes, r)
	}
	a, b := remotes[0], remotes[1]
	claim := func(r Remote, session string, at time.Time) Claim {
		clone, err := r.Clone()
		if err != nil {
			t.Fatal(err)
		}
		return Claim{V: 1, Intent: "INT-001", Session: session, Clone: clone, Machine: "m", At: at, Expires: at.Add(TTL)}
	}
	out, err := a.Take(ctx, claim(a, "s1", now), now)
	if err != nil || out.Held != nil || out.Mode != ModeRefs {
		t.Fatalf("a's first take: %+v %v", out, err)
	}
	out, err = b.Take(ctx, claim(b, "s2", now), now)
	if err != nil || out.Held == nil || out.Held.Session != "s1" {
		t.Fatalf("b's take of a live claim: %+v %v", out, err)
	}
	renewed := now.Add(25 * time.Minute)
	if out, err = a.Take(ctx, claim(a, "s1", renewed), renewed); err != nil || out.Held != nil {
		t.Fatalf("a's renewal: %+v %v", out, err)
	}
	late := renewed.Add(TTL + Skew)
	if out, err = b.Take(ctx, claim(b, "s2", late), late); err != nil || out.Held != nil {
		t.Fatalf("b's take of an expired claim: %+v %v", out, err)
	}
	if err := a.Release(ctx, "INT-001", claim(a, "s1", now).Clone, "s1"); err != nil {
		t.Fatal(err)
	}
	if cs, err := a.List(ctx); err != nil || len(cs) != 1 || cs[0].Session != "s2" {
		t.Fatalf("a's release took b's claim: %+v %v", cs, err)
	}
	if err := b.Release(ctx, "INT-001", claim(b, "s2", now).Clone, "s2"); err != nil {
		t.Fatal(err)
	}
	if cs, err := a.List(ctx); err != nil || len(cs) != 0 {
		t.Fatalf("claims left after both released: %+v %v", cs, err)
	}
}

// TestLockLost: a push refused because another update held or moved the
// ref at that moment is read as a stale lease (read the tips again), and
// a remote refusing the refs is not.
func TestLockLost(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"!\t0123:refs/intenthook/claims/INT-001\t[remote rejected] (failed to update ref)", true},
		{"!\t0123:refs/intenthook/claims/INT-001\t[remote rejected] (failed to lock)", true},
		{"!\t:refs/intenthook/claims/INT-001\t[remote rejected] (cannot lock ref 'refs/intenthook/claims/INT-001': is at 1 but expected 2)", true},
		{"!\t0123:refs/intenthook/claims/INT-001\t[remote rejected] (deny updating a hidden ref)", false},
		{"!\t0123:refs/intenthook/claims/INT-001\t[remote rejected] (pre-receive hook declined)", false},
	} {
		if got := lockLost(c.line); got != c.want {
			t.Errorf("lockLost(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

// TestReleaseTwiceAtOnce: the release a session's end starts detached and
// a second one for the same claim (a person's, or a retry) both succeed,
// whichever pushes first, and the claim is gone.
func TestReleaseTwiceAtOnce(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	bare, clone := filepath.Join(dir, "team.git"), filepath.Join(dir, "a")
	for _, args := range [][]string{{"init", "-q", "--bare", bare}, {"init", "-q", clone}, {"-C", clone, "remote", "add", "origin", bare}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	r, ok := Open(clone, "origin")
	if !ok {
		t.Fatal("Open: not a repository")
	}
	id, err := r.Clone()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for round := range 5 {
		if _, err := r.Take(ctx, Claim{V: 1, Intent: "INT-001", Session: "s1", Clone: id, Machine: "m", At: now, Expires: now.Add(TTL)}, now); err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 3)
		for range 3 {
			go func() { errs <- r.Release(ctx, "INT-001", id, "s1") }()
		}
		for range 3 {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: a release beside others: %v", round, err)
			}
		}
		if cs, err := r.List(ctx); err != nil || len(cs) != 0 {
			t.Fatalf("round %d: claims left: %+v %v", round, cs, err)
		}
	}
}
