package precommit

import (
	"context"

	"github.com/intenthook/intenthook/internal/git"
)

// stagedPaths lists the paths the commit adds, copies, changes, renames or
// deletes, relative to the top of the work tree. Renames come as a deletion
// and an addition (--no-renames): both paths are judged.
func stagedPaths(ctx context.Context, r *git.Repo) ([]string, error) {
	out, err := r.Output(ctx, "diff", "--cached", "--name-only", "-z", "--diff-filter=ACMRD", "--no-renames")
	if err != nil {
		return nil, err
	}
	return git.NulList(out), nil
}
