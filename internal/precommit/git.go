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

// readIndex reads the index entries of paths (top-relative, each
// git.Batchable) in one batch, calling each with the position of the path
// and its object, or nil when the index has no entry for it (a staged
// deletion). Asking ":0:<path>" names stage 0 explicitly, so a path like
// "1:x" is not read as stage 1 of "x".
func readIndex(ctx context.Context, r *git.Repo, paths []string, each func(i int, obj *git.Object) error) error {
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = ":0:" + p
	}
	return r.ReadObjects(ctx, names, each)
}
