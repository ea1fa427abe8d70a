package selection

import (
	"context"
	"fmt"
	"github.com/intenthook/intenthook/internal/clocktest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// A repository with one work tree decides as a workspace outside git,
// whose claims are its sessions' state alone, as every workspace's were
// before claims moved to the common git directory: the same sequence of
// selections, ends, resumes and clears gets the same answers, word for
// word, with exclusive_intents and without.
func TestSingleWorkTreeDecidesAsBefore(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for _, config := range []string{"exclusive_intents: true\n", "exclusive_intents: false\n"} {
		t.Run(config, func(t *testing.T) {
			inGit := load(t, config)
			if out, err := exec.Command("git", "init", "-q", inGit.Root).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			if inGit.Claims().Dir == "" {
				t.Fatal("no claims directory in a git work tree")
			}
			plain := load(t, config)
			if plain.Claims().Dir != "" {
				t.Fatal("a claims directory outside git")
			}
			got, want := script(t, inGit), script(t, plain)
			if !slices.Equal(got, want) {
				t.Errorf("in git:\n%q\noutside git:\n%q", got, want)
			}
			if entries, _ := os.ReadDir(filepath.Join(inGit.Claims().Dir, "INT-006")); len(entries) == 0 {
				t.Error("no claim file was written in git")
			}
		})
	}
}

// script runs one sequence of selections on ws, on a clock of its own, and
// returns every answer.
func script(t *testing.T, ws *workspace.Workspace) []string {
	t.Helper()
	clk := &clocktest.Clock{Now: clocktest.At(t, "2026-03-01T10:00:00Z"), Step: time.Second}
	ws.Now = clk.Read
	ctx := context.Background()
	sel := Selector{WS: ws, Editor: lifecycle.NewEditor(ws, "", "", "test")}
	var out []string
	pick := func(who Who, id string) {
		res, err := sel.Select(ctx, who, id)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("select %s %s %s: %s %s", who.Session, who.Agent, id, res.Decision.Code, res.Decision.Message))
	}
	end := func(id string, during ...string) {
		now := ws.Now()
		if err := ws.Sessions.Update(ctx, id, now, func(s *state.Session) error { s.End(now, during); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	resume := func(id string) {
		sess, told, err := sel.Resume(ctx, Who{Session: id})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("resume %s: %s %q", id, sess.Intent, told))
	}
	pick(Who{Session: "s1"}, "INT-006")
	pick(Who{Session: "s2"}, "INT-006")
	pick(Who{Session: "s2", Agent: "a1"}, "INT-006")
	end("s1", "s9")
	pick(Who{Session: "s3"}, "INT-006")
	end("s1")
	pick(Who{Session: "s3"}, "INT-006")
	resume("s1")
	if err := sel.Clear(ctx, Who{Session: "s3"}); err != nil {
		t.Fatal(err)
	}
	pick(Who{Session: "s4"}, "INT-006")
	clk.Now = clk.Now.Add(LiveWindow + time.Minute)
	pick(Who{Session: "s5"}, "INT-006")
	pick(Who{Session: "s1"}, "INT-002")
	return out
}
