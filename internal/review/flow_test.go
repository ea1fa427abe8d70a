package review

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/acceptance"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/workspace"
)

const catalog = `active_intents:
  - {id: INT-001, name: Open, status: IN_PROGRESS, review: required, owned_scope: ["a/**"], constraints: [], acceptance_criteria: [{description: passes, check: "true"}], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-002, name: Plain, status: IN_PROGRESS, owned_scope: ["b/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-003, name: Later, status: PENDING, review: required, owned_scope: ["c/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-004, name: Broken, status: IN_PROGRESS, review: required, owned_scope: [], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-005, name: Failing, status: IN_PROGRESS, owned_scope: ["e/**"], constraints: [], acceptance_criteria: [{description: fails, check: "false"}], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
`

func load(t *testing.T) *workspace.Workspace {
	t.Helper()
	root := t.TempDir()
	p := filepath.Join(root, filepath.FromSlash(intents.File))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(catalog), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Load(root, workspace.Governance(nil), func(string) string { return "" }, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// TestSubmitIntentRefuses: what intenthook submit refuses before any check
// runs, and why.
func TestSubmitIntentRefuses(t *testing.T) {
	ws := load(t)
	for _, tt := range []struct {
		id    string
		shell bool
		want  error
		msg   string
	}{
		{"INT-404", false, ErrNotFound, "intent INT-404 not found"},
		{"INT-004", false, nil, "intent INT-004 is invalid: owned_scope needs at least one pattern"},
		{"INT-002", false, ErrNoReview, "intent INT-002 does not require review"},
		{"INT-003", false, ErrNotInProgress, "intent INT-003 is PENDING: only IN_PROGRESS intents are submitted"},
		{"INT-001", true, ErrNoRequest, ""}, // in an agent's shell, no submission the hook saw
	} {
		sub, err := SubmitIntent(context.Background(), ws, tt.id, tt.shell, "test", time.Minute)
		if err == nil || sub.Ran || tt.want != nil && !errors.Is(err, tt.want) || tt.msg != "" && err.Error() != tt.msg {
			t.Errorf("SubmitIntent(%s, shell %v) = %+v, %v; want %v (%q)", tt.id, tt.shell, sub, err, tt.want, tt.msg)
		}
	}
}

// TestVerify: what a person's verification refuses, and what it does with
// checks that fail and checks that pass (an intent that requires review
// goes to IN_REVIEW, not COMPLETE).
func TestVerify(t *testing.T) {
	ws := load(t)
	for _, tt := range []struct {
		id      string
		confirm bool
		err     bool
		is      error // what err wraps, if anything
		ran     bool  // the checks ran and were reported
		to      intents.Status
	}{
		{"INT-404", false, true, ErrNotFound, false, ""},
		{"INT-003", false, true, nil, false, ""}, // PENDING
		{"INT-002", false, true, ErrNothingToVerify, false, ""},
		{"INT-005", false, false, nil, true, ""},
		{"INT-001", false, false, nil, true, intents.InReview},
		{"INT-002", true, false, nil, true, intents.Complete},
	} {
		ran := false
		report := func(in *intents.Intent, rs []acceptance.Result) error {
			ran = in.ID == tt.id && len(rs) == len(in.AcceptanceCriteria)
			return nil
		}
		v, err := Verify(context.Background(), ws, tt.id, VerifyOptions{Confirm: tt.confirm, Timeout: time.Minute, ToolVersion: "test", Report: report})
		if (err != nil) != tt.err || tt.is != nil && !errors.Is(err, tt.is) || ran != tt.ran || v.To != tt.to {
			t.Errorf("Verify(%s, confirm %v) = %+v, %v (reported %v); want error %v (%v), reported %v, to %q", tt.id, tt.confirm, v, err, ran, tt.err, tt.is, tt.ran, tt.to)
		}
	}
}
