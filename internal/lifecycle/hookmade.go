package lifecycle

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/intents"
)

// hookMoves are the status changes a hook process makes to the catalog
// from status s: a selection starts a PENDING intent, a submission whose
// checks pass puts work in review, a loop of denials blocks work in
// progress. Each sets updated_at with the status and changes nothing else.
func hookMoves(s intents.Status) []intents.Status {
	switch s {
	case intents.Pending:
		return []intents.Status{intents.InProgress}
	case intents.InProgress:
		return []intents.Status{intents.InReview, intents.Blocked}
	}
	return nil
}

// HookMade reports, as nil, whether every difference between two versions
// of the catalog is one hook processes make: the same intents in the same
// order, each with the same content but for status and updated_at, and
// each status change reachable through hookMoves. Anything else (a scope,
// a constraint, an id, an intent added or taken out) is no hook's doing,
// whatever the guard's journal claims.
func HookMade(before, after []byte) error {
	b, err := intents.Parse(before)
	if err != nil {
		return fmt.Errorf("the catalog before: %w", err)
	}
	a, err := intents.Parse(after)
	if err != nil {
		return fmt.Errorf("the catalog after: %w", err)
	}
	bs, as := b.All(), a.All()
	if len(bs) != len(as) {
		return fmt.Errorf("%d intents became %d", len(bs), len(as))
	}
	for i := range bs {
		if err := hookMade(bs[i], as[i]); err != nil {
			return err
		}
		// A hook starts an intent only when what it depends on is done
		// (the selection's rule): a forged journal line cannot start one
		// early.
		if bs[i].Status == intents.Pending && as[i].Status != intents.Pending {
			if open := openDependencies(b, bs[i]); len(open) > 0 {
				return fmt.Errorf("%s started before %s", bs[i].ID, strings.Join(open, ", "))
			}
		}
	}
	return nil
}

func hookMade(b, a *intents.Intent) error {
	if b.Status == a.Status {
		if b.UpdatedAt != a.UpdatedAt {
			return fmt.Errorf("%s: updated_at changed without a status change", b.ID)
		}
	} else if !reachable(b.Status, a.Status) {
		return fmt.Errorf("%s: %s -> %s is no hook's transition", b.ID, b.Status, a.Status)
	}
	rb, err1 := rest(b)
	ra, err2 := rest(a)
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	if string(rb) != string(ra) {
		return fmt.Errorf("%s: changed beyond its status", b.ID)
	}
	return nil
}

// rest is the intent's content but for what a hook changes and what the
// parse derives (lines, validation).
func rest(in *intents.Intent) ([]byte, error) {
	c := *in
	c.Status, c.UpdatedAt, c.Line, c.Problems = "", "", 0, nil
	return json.Marshal(&c)
}

func reachable(from, to intents.Status) bool {
	seen := map[intents.Status]bool{}
	next := []intents.Status{from}
	for len(next) > 0 {
		s := next[0]
		next = next[1:]
		for _, n := range hookMoves(s) {
			if n == to {
				return true
			}
			if !seen[n] {
				seen[n] = true
				next = append(next, n)
			}
		}
	}
	return false
}
