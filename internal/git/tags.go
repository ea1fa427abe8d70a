package git

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/osfile"
)

// TagsSince lists the loose tags (names below refs/tags/) whose ref file
// was written at or after at, by its inode's change time, which touch
// cannot set back; packed says packed-refs was written since too (its tags
// cannot be told apart then). Only a command's post asks, after HEAD
// moved: a pre reads nothing of a repository's tags.
func TagsSince(root string, at time.Time) (fresh []string, packed bool) {
	gitDir, found := findGitDir(root)
	if !found {
		return nil, false
	}
	common := readCommonDir(gitDir)
	since := at.UnixNano()
	tags := filepath.Join(common, "refs", "tags")
	_ = filepath.WalkDir(tags, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if st, err := os.Lstat(p); err == nil && osfile.ChangeTime(st) >= since {
			if rel, err := filepath.Rel(tags, p); err == nil {
				fresh = append(fresh, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	if st, err := os.Lstat(filepath.Join(common, "packed-refs")); err == nil && osfile.ChangeTime(st) >= since {
		packed = true
	}
	return fresh, packed
}

// globEscape quotes a ref name for rev-list's --exclude pattern.
func globEscape(name string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(name)
}

// HeldBefore returns rev-list arguments for "held by a remote-tracking
// branch, or by a tag that existed before at": the tags written since are
// left out, all of them when packed-refs was written since.
func HeldBefore(root string, at time.Time) []string {
	args := []string{"--remotes"}
	fresh, packed := TagsSince(root, at)
	if packed {
		return args
	}
	for _, t := range fresh {
		args = append(args, "--exclude="+globEscape(t))
	}
	return append(args, "--tags")
}
