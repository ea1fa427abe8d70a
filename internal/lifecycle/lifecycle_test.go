package lifecycle

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
)

const reviewCatalog = `active_intents:
  - {id: INT-001, name: Reviewed, status: @S@, review: @R@, owned_scope: ["**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
`

// The review rows of the state machine, for an intent that requires review
// (by its own key or the workspace default) and one that does not.
func TestReviewRows(t *testing.T) {
	tests := []struct {
		name           string
		status, review string // review "": the key left out
		def            string
		t              Transition
		want           string // "" allowed, else part of the error
	}{
		{"submit", "IN_PROGRESS", "required", "", Transition{To: intents.InReview, Submitted: true}, ""},
		{"submit by default", "IN_PROGRESS", "", "required", Transition{To: intents.InReview, Submitted: true}, ""},
		{"submit opted out", "IN_PROGRESS", "none", "required", Transition{To: intents.InReview, Submitted: true}, "does not require review"},
		{"submit without review", "IN_PROGRESS", "", "", Transition{To: intents.InReview, Submitted: true}, "does not require review"},
		{"in review only by a submission", "IN_PROGRESS", "required", "", Transition{To: intents.InReview, Reason: "x"}, "only by a submission"},
		{"verify does not complete", "IN_PROGRESS", "required", "", Transition{To: intents.Complete, Verified: true}, "requires review"},
		{"forced completion", "IN_PROGRESS", "required", "", Transition{To: intents.Complete, Force: true, Reason: "person"}, ""},
		{"approve", "IN_REVIEW", "required", "", Transition{To: intents.Complete, Approved: true}, ""},
		{"complete under review needs approval", "IN_REVIEW", "required", "", Transition{To: intents.Complete, Verified: true}, "requires review"},
		{"forced from review", "IN_REVIEW", "required", "", Transition{To: intents.Complete, Force: true, Reason: "person"}, ""},
		{"approve outside review", "IN_PROGRESS", "required", "", Transition{To: intents.Complete, Approved: true}, "only an IN_REVIEW intent is approved"},
		{"reject", "IN_REVIEW", "required", "", Transition{To: intents.InProgress, Rejected: true, Reason: "no"}, ""},
		{"reject needs a reason", "IN_REVIEW", "required", "", Transition{To: intents.InProgress, Rejected: true}, "intents reject"},
		{"back only by a rejection", "IN_REVIEW", "required", "", Transition{To: intents.InProgress, Reason: "no"}, "intents reject"},
		{"archive from review", "IN_REVIEW", "required", "", Transition{To: intents.Archived}, ""},
		{"block from review", "IN_REVIEW", "required", "", Transition{To: intents.Blocked}, "not an allowed transition"},
		{"no review: verify completes", "IN_PROGRESS", "", "", Transition{To: intents.Complete, Verified: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			cat := strings.Replace(reviewCatalog, "@S@", tt.status, 1)
			if tt.review == "" {
				cat = strings.Replace(cat, " review: @R@,", "", 1)
			} else {
				cat = strings.Replace(cat, "@R@", tt.review, 1)
			}
			path := filepath.Join(root, filepath.FromSlash(intents.File))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(cat), 0o644); err != nil {
				t.Fatal(err)
			}
			e := &Editor{Root: root, LockTimeout: time.Second, ReviewDefault: tt.def, Ledger: &ledger.Ledger{Root: root, LockTimeout: time.Second}}
			tr := tt.t
			tr.ID = "INT-001"
			_, err := e.Apply(context.Background(), tr)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("got %v, want an error with %q", err, tt.want)
			}
			data, _ := os.ReadFile(path)
			if moved := !strings.Contains(string(data), "status: "+tt.status); moved != (err == nil) {
				t.Errorf("catalog moved=%v with err=%v:\n%s", moved, err, data)
			}
			if errors.Is(err, ErrNeedsReview) && !strings.Contains(tt.want, "requires review") {
				t.Errorf("ErrNeedsReview for %s", tt.name)
			}
		})
	}
}
