package precommit

import (
	"bytes"
	"fmt"
	"time"

	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/intents/splice"
	"github.com/intenthook/intenthook/internal/safetext"
)

// Transition is a status change a hook makes to the catalog: a select
// starting a PENDING intent, a submission for review.
type Transition struct {
	Intent   string
	From, To intents.Status
}

// String is the transition's output line.
func (t Transition) String() string {
	return fmt.Sprintf("transition %s: %s -> %s (status and updated_at, as a hook writes them)", safetext.Quote(t.Intent), t.From, t.To)
}

// hookTransition reports whether a hook makes from -> to: a select's start
// (the scope it owns is unchanged, which Owners counts already) and a
// submission. Both are allowed by the lifecycle and widen nothing; a
// completion or a return to work stays a rules change.
func hookTransition(from, to intents.Status) bool {
	if intents.CheckTransition(from, to) != nil {
		return false
	}
	return from == intents.Pending && to == intents.InProgress || from == intents.InProgress && to == intents.InReview
}

// Transitions reports whether the catalog now differs from before only by
// transitions a hook makes: for each intent whose status changed, the
// status and updated_at a hook's edit writes (splice.SetStatus, every
// other byte kept), and nothing else. Any other change, or a catalog
// either side that does not parse, is a rules change: false.
func Transitions(before, now []byte, b, n *intents.Catalog) ([]Transition, bool) {
	if b == nil || n == nil || bytes.Equal(before, now) {
		return nil, false
	}
	var out []Transition
	want := before
	for _, in := range n.All() {
		was := b.Find(in.ID)
		if was == nil || was.Status == in.Status {
			continue
		}
		if !hookTransition(was.Status, in.Status) {
			return nil, false
		}
		at, err := time.Parse(time.RFC3339, in.UpdatedAt)
		if err != nil {
			return nil, false
		}
		if want, err = splice.SetStatus(want, in.ID, string(in.Status), at); err != nil {
			return nil, false
		}
		out = append(out, Transition{Intent: in.ID, From: was.Status, To: in.Status})
	}
	if len(out) == 0 || !bytes.Equal(want, now) {
		return nil, false
	}
	return out, true
}
