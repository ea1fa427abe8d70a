package replay

import (
	"context"
	"fmt"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/governed"
)

// Flips weighs a change to intent id's owned_scope (add, remove) against
// that intent's recorded writes and denials only: each judged by the work
// tree's rules as they are and as the change would make them, the first
// the baseline. A person approving the change reads it; it reads only the
// ledger lines that name the intent.
func Flips(ctx context.Context, root string, table governed.Table, id string, add, remove []string) (*Report, error) {
	base, err := Rules{}.Load(ctx, root, nil, git.Paths{}, table)
	if err != nil {
		return nil, err
	}
	changed := *base
	if !changed.Amend(id, add, remove) {
		return nil, fmt.Errorf("no intent %s in the catalog", id)
	}
	changed.Source = "the change"
	rp := New(&changed, Filter{Intent: id})
	rp.Against(base)
	src := &Source{Root: root, Intent: id}
	if err := src.Each(ctx, rp.Line); err != nil {
		return nil, err
	}
	return rp.Report(id+"'s records", 0), nil
}

// FlipLine says in one line what a scope change would flip.
func (r *Report) FlipLine(id string) string {
	flipped := r.NewlyAllowed.Count + r.NewlyDenied.Count
	return fmt.Sprintf("replay: the change would have flipped %d of %s's %d recorded write(s) and denial(s): %d newly allowed, %d newly denied",
		flipped, id, r.Writes, r.NewlyAllowed.Count, r.NewlyDenied.Count)
}
