package backstop

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
)

// committedSince returns the paths (root-relative) changed by commits the
// command brought into HEAD's history itself, which git status no longer
// shows:
//   - the commits it made: HEAD's reflog entries after the picture that are
//     commits, amends, cherry-picks or reverts (awk … && git commit
//     --no-verify -am x is judged like the awk);
//   - when HEAD moved (a checkout or reset to a commit made by plumbing,
//     git commit-tree and the like), the commits on its new side that no
//     local branch held before the command, no remote-tracking branch or
//     tag holds, and that are not the equivalent of a commit on its old side:
//     a pull, a checkout of a branch or of others' work, and a rebase bring
//     commits made elsewhere, which are not the command's doing. A merge is
//     judged by what it changes beyond its parents.
func committedSince(ctx context.Context, root string, p *Picture) map[string]bool {
	out := map[string]bool{}
	for rel := range ChangedBy(ctx, root, Made(ctx, root, p)) {
		if !strings.HasPrefix(rel, ".orchestration/") {
			out[rel] = true
		}
	}
	return out
}

// Made returns the commits the command made, or brought into HEAD's
// history itself, since the picture (see committedSince): a commit among
// them is the command's doing, and excuses nothing it changed.
func Made(ctx context.Context, root string, p *Picture) []string {
	var ids []string
	for _, e := range git.Reflog(root, p.Reflog) {
		switch {
		case strings.HasPrefix(e.Message, "commit (merge)"): // brings other commits' changes
		case strings.HasPrefix(e.Message, "commit"), strings.HasPrefix(e.Message, "cherry-pick"), strings.HasPrefix(e.Message, "revert"):
			ids = append(ids, e.New)
		}
	}
	return append(ids, broughtIn(ctx, root, p)...)
}

// ChangedBy returns the paths (root-relative) the commits changed, each
// with the commit that changed it last in the order given; a merge by
// what it changes beyond its parents.
func ChangedBy(ctx context.Context, root string, ids []string) map[string]string {
	out := map[string]string{}
	if len(ids) == 0 {
		return out
	}
	_, paths, err := git.Locate(ctx, root, root)
	if err != nil {
		return out
	}
	fed := map[string]bool{}
	for _, id := range ids {
		fed[id] = true
	}
	names, err := runFed(ctx, root, []byte(strings.Join(ids, "\n")+"\n"), "diff-tree", "--stdin", "-r", "-c", "--root", "--name-only", "-z")
	if err != nil {
		return out
	}
	commit := ""
	for _, name := range git.NulList(names) {
		if id := strings.TrimSpace(name); fed[id] {
			commit = id // the line naming the commit
			continue
		}
		if rel, ok := paths.ToRoot(name); ok {
			out[rel] = commit
		}
	}
	return out
}

// maxBroughtIn bounds the commits a move of HEAD is judged by.
const maxBroughtIn = 500

// broughtIn returns the commits a move of HEAD inside the command brought
// that were not there before it (see committedSince), none when HEAD did
// not move.
func broughtIn(ctx context.Context, root string, p *Picture) []string {
	_, now := git.HeadInfo(root)
	if p.Head == "" || now == "" || now == p.Head {
		return nil
	}
	before := []string{p.Head}
	if p.TipsKnown {
		before = append(before, p.Tips...)
	} else {
		before = append(before, "--branches")
	}
	limit := "--max-count=" + strconv.Itoa(maxBroughtIn)
	// What HEAD holds now that nothing held before the command, nor a
	// remote-tracking branch or a tag older than the command (what a pull
	// or a fetch brought): a tag the command made holds nothing.
	held := []string{"--remotes", "--tags"}
	if !p.Since.IsZero() {
		held = git.HeldBefore(root, p.Since)
	}
	fresh, err := revs(ctx, root, append(append([]string{"rev-list", limit, now, "--not"}, held...), before...)...)
	if err != nil || len(fresh) == 0 {
		return nil
	}
	// What was held before and HEAD no longer holds: the commits a rebase
	// copied. A fresh commit with the same patch as one of them is a copy.
	gone, err := revs(ctx, root, append(append([]string{"rev-list", limit}, before...), "--not", now)...)
	if err != nil || len(gone) == 0 {
		return fresh
	}
	ids, err := patchIDs(ctx, root, append(slices.Clone(fresh), gone...))
	if err != nil {
		return fresh
	}
	copied := map[string]bool{}
	for _, c := range gone {
		copied[ids[c]] = true
	}
	var out []string
	for _, c := range fresh {
		if id := ids[c]; id == "" || !copied[id] {
			out = append(out, c)
		}
	}
	return out
}

// revs runs a rev-list and returns the commits it lists.
func revs(ctx context.Context, root string, args ...string) ([]string, error) {
	out, err := run(ctx, root, args...)
	return strings.Fields(string(out)), err
}

// patchIDs maps each commit to the stable patch id of its change (none for
// a merge or an empty change).
func patchIDs(ctx context.Context, root string, commits []string) (map[string]string, error) {
	patches, err := runFed(ctx, root, []byte(strings.Join(commits, "\n")+"\n"), "diff-tree", "--stdin", "-p", "--root")
	if err != nil {
		return nil, err
	}
	out, err := runFed(ctx, root, patches, "patch-id", "--stable")
	if err != nil {
		return nil, err
	}
	ids := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if id, commit, ok := strings.Cut(line, " "); ok {
			ids[commit] = id
		}
	}
	return ids, nil
}
