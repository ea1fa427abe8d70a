package precommit

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
)

// checkSegments makes sure the commit only adds ledger segments or appends
// to them: a staged segment that HEAD has must begin with HEAD's bytes, and
// none may be deleted or be anything but a segment; one it adds must not
// start a chain from nothing on HEAD's ledger (checkRoots). HEAD's and the
// staged blobs are read through one cat-file process and compared as
// bytes, unless every pair of them passed before (segmentPairs): the next
// precommit of the same staged ledger reads no segment.
func checkSegments(ctx context.Context, g *git.Repo, rp git.Paths, gitPaths []string, root string) []Finding {
	var rels, names []string
	for _, p := range gitPaths {
		rel, ok := rp.ToRoot(p)
		if !ok || !ledger.IsSegmentPath(rel) {
			continue
		}
		if !git.Batchable(p) {
			return []Finding{{Error, CodeLedgerRewritten, rel, "not a segment: a ledger file's name has no line break"}}
		}
		rels = append(rels, rel)
		names = append(names, "HEAD:"+p, ":0:"+p)
	}
	if len(rels) == 0 {
		return nil
	}
	ids := make([]string, len(names))
	named := g.ObjectIDs(ctx, names, ids) == nil
	var roots []Finding
	if named {
		roots = checkRoots(ctx, g, rp, root, rels, ids)
	}
	known := loadSegmentPairs(root)
	if named && len(roots) == 0 && known.passed(rels, ids) {
		return nil
	}
	// Read by id what git named: what is remembered below is what was read,
	// however the index changes meanwhile.
	read := names
	if named {
		read = make([]string, len(names))
		for i := range names {
			read[i] = cmp.Or(ids[i], names[i])
		}
	}
	var out []Finding
	var head []byte
	err := g.ReadObjects(ctx, read, func(i int, obj *git.Object) error {
		rel := rels[i/2]
		body, err := git.Blob(obj)
		if err != nil {
			return err
		}
		if i%2 == 0 {
			head = body
			if obj == nil {
				head = nil
			}
			return nil
		}
		switch {
		case obj == nil && head != nil:
			out = append(out, Finding{Error, CodeLedgerRewritten, rel, "the commit deletes a ledger segment HEAD has: its records must stay (restore it: git checkout HEAD -- " + quoteArg(rel) + ")"})
		case obj == nil:
		case !ledgerName(rel):
			out = append(out, Finding{Error, CodeLedgerRewritten, rel, "not a segment: a ledger file is " + ledger.SegmentDir + "/<writer>/<yyyy-mm>/<nnnnnn>.jsonl"})
		case head != nil && !bytes.HasPrefix(body, head):
			n := bytes.Count(commonPrefix(head, body), []byte("\n")) + 1
			out = append(out, Finding{Error, CodeLedgerRewritten, rel, fmt.Sprintf("line %d of HEAD's segment is removed or rewritten in the staged one: a segment only grows, and only while it is active (restore it: git checkout HEAD -- %s)", n, quoteArg(rel))})
		}
		return nil
	})
	if err != nil {
		return []Finding{{Error, CodeLedgerRewritten, ledger.SegmentDir, "cannot compare the staged segments with HEAD's: " + err.Error()}}
	}
	if len(out) == 0 && len(roots) == 0 && named {
		known.remember(root, rels, ids)
	}
	return append(out, roots...)
}

// segmentPairs remembers the segments that passed checkSegments: each
// path with its pair of blobs, HEAD's ("" where HEAD has none) and the
// staged one. A blob is named by its content, so what passed once passes
// again. The cache is under state/precommit/, which the guard of an agent's
// shell command watches: an entry a program wrote is taken out.
type segmentPairs struct {
	Passed [][3]string `json:"passed"`
}

// keepPairs bounds the remembered entries: the staged segments of the
// last few commits.
const keepPairs = 64

func segmentsCachePath(root string) string {
	return state.Path(root, "precommit", "segments.json")
}

func loadSegmentPairs(root string) *segmentPairs {
	var c segmentPairs
	if data, err := osfile.ReadFile(segmentsCachePath(root)); err == nil {
		_ = json.Unmarshal(data, &c)
	}
	return &c
}

// entries pairs each path of rels with its blobs in ids (HEAD's, staged).
func entries(rels, ids []string) [][3]string {
	out := make([][3]string, len(rels))
	for i, rel := range rels {
		out[i] = [3]string{rel, ids[2*i], ids[2*i+1]}
	}
	return out
}

// passed reports whether every staged segment is remembered with its
// blobs; one git cannot name is never known.
func (c *segmentPairs) passed(rels, ids []string) bool {
	for _, e := range entries(rels, ids) {
		if e[2] == "" || !slices.Contains(c.Passed, e) {
			return false
		}
	}
	return len(rels) > 0
}

// remember adds the staged segments that passed and stores the cache.
func (c *segmentPairs) remember(root string, rels, ids []string) {
	added := false
	for _, e := range entries(rels, ids) {
		if e[2] != "" && !slices.Contains(c.Passed, e) {
			c.Passed = append(c.Passed, e)
			added = true
		}
	}
	if !added || state.Ensure(root, "precommit") != nil {
		return
	}
	c.Passed = c.Passed[max(len(c.Passed)-keepPairs, 0):]
	if data, err := json.Marshal(c); err == nil {
		writeCache(root, segmentsCachePath(root), data)
	}
}

func commonPrefix(a, b []byte) []byte {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

// quoteArg quotes a path for a shell command line when it needs it.
func quoteArg(s string) string {
	if strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ledgerName reports whether rel may be a file under the segment
// directory: a segment, or a part of a split legacy file.
func ledgerName(rel string) bool {
	_, ok := ledger.ParseSegment(rel)
	return ok || ledger.IsLegacyPart(rel)
}

// splitKeeps reports whether the staged parts of a split legacy file
// (read through one cat-file process, in order) begin with HEAD's legacy
// file, blob head: `ledger split` moved its lines byte for byte.
func splitKeeps(ctx context.Context, g *git.Repo, rp git.Paths, head string) bool {
	dir, ok := rp.ToGit(ledger.LegacyDir)
	if !ok {
		return false
	}
	out, err := g.Output(ctx, "ls-files", "-z", "--", dir)
	if err != nil {
		return false
	}
	names := []string{head}
	for _, p := range git.NulList(out) {
		if rel, ok := rp.ToRoot(p); ok && ledger.IsLegacyPart(rel) && git.Batchable(p) {
			names = append(names, ":0:"+p)
		}
	}
	if len(names) == 1 {
		return false
	}
	var want, got []byte
	err = g.ReadObjects(ctx, names, func(i int, obj *git.Object) error {
		if obj == nil {
			return nil
		}
		b, err := io.ReadAll(obj.Body)
		if i == 0 {
			want = b
		} else {
			got = append(got, b...)
		}
		return err
	})
	return err == nil && want != nil && bytes.HasPrefix(got, want)
}
