package review

import (
	"errors"
	"testing"

	"github.com/intenthook/intenthook/internal/intents"
)

// TestSubmittable: only an IN_PROGRESS intent that requires review, by its
// own review: field or the workspace's default, is submitted.
func TestSubmittable(t *testing.T) {
	for _, tt := range []struct {
		name   string
		status intents.Status
		review string // the intent's review: field
		def    string // the workspace's review.default
		want   error
		msg    string
	}{
		{"required by the intent", intents.InProgress, intents.ReviewRequired, "", nil, ""},
		{"required by the default", intents.InProgress, "", intents.ReviewRequired, nil, ""},
		{"the intent overrides the default", intents.InProgress, intents.ReviewNone, intents.ReviewRequired, ErrNoReview, "intent INT-001 does not require review"},
		{"no review anywhere", intents.InProgress, "", "", ErrNoReview, "intent INT-001 does not require review"},
		{"pending", intents.Pending, intents.ReviewRequired, "", ErrNotInProgress, "intent INT-001 is PENDING: only IN_PROGRESS intents are submitted"},
		{"already in review", intents.InReview, intents.ReviewRequired, "", ErrNotInProgress, "intent INT-001 is IN_REVIEW: only IN_PROGRESS intents are submitted"},
		{"complete", intents.Complete, "", intents.ReviewRequired, ErrNotInProgress, "intent INT-001 is COMPLETE: only IN_PROGRESS intents are submitted"},
		{"blocked, no review", intents.Blocked, "", "", ErrNotInProgress, "intent INT-001 is BLOCKED: only IN_PROGRESS intents are submitted"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := Submittable(&intents.Intent{ID: "INT-001", Status: tt.status, Review: tt.review}, tt.def)
			if !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil) {
				t.Fatalf("Submittable = %v, want %v", err, tt.want)
			}
			if err != nil && err.Error() != tt.msg {
				t.Errorf("message %q, want %q", err.Error(), tt.msg)
			}
		})
	}
}
