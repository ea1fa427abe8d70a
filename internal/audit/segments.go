package audit

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
)

// segmentGrowth checks that each commit only adds ledger segments or
// appends to them: a segment a parent has must begin, in the commit, with
// the parent's bytes, and none may be deleted. Every blob is read through
// one cat-file process and compared as bytes (no diff).
func segmentGrowth(ctx context.Context, g *git.Repo, commits []commit) ([]Finding, error) {
	type group struct {
		commit, path string
		parents      []string
	}
	var groups []group
	var names []string
	for _, c := range commits {
		for _, p := range c.paths {
			if !ledger.IsSegmentPath(p) || !git.Batchable(p) {
				continue
			}
			groups = append(groups, group{c.id, p, c.parents})
			names = append(names, c.id+":"+p)
			for _, par := range c.parents {
				names = append(names, par+":"+p)
			}
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	var fs []Finding
	gi, pi := 0, -1 // the group read, and which of its objects (-1: the commit's)
	var mine []byte
	var present bool
	err := g.ReadObjects(ctx, names, func(_ int, obj *git.Object) error {
		gr := groups[gi]
		body, err := git.Blob(obj)
		if err != nil {
			return err
		}
		if pi < 0 {
			mine, present = body, obj != nil
			if _, ok := ledger.ParseSegment(gr.path); present && !ok && !ledger.IsLegacyPart(gr.path) {
				fs = append(fs, Finding{gr.commit, gr.path, Error, LedgerRewritten, "not a ledger segment: a ledger file is " + ledger.SegmentDir + "/<writer>/<yyyy-mm>/<nnnnnn>.jsonl"})
			}
		} else if obj != nil {
			par := gr.parents[pi]
			switch {
			case !present:
				fs = append(fs, Finding{gr.commit, gr.path, Error, LedgerRewritten, fmt.Sprintf("the ledger segment the parent %s has is deleted: its records must stay", short(par))})
			case !bytes.HasPrefix(mine, body):
				n := 1 + bytes.Count(body[:commonPrefix(mine, body)], []byte("\n"))
				fs = append(fs, Finding{gr.commit, gr.path, Error, LedgerRewritten, fmt.Sprintf("line %d of the parent %s's segment was removed or rewritten: a segment only grows", n, short(par))})
			}
		}
		pi++
		if pi == len(gr.parents) {
			gi, pi, mine = gi+1, -1, nil
		}
		return nil
	})
	return fs, err
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// readSegments verifies the segments of the last commit's tree into tv
// (after its legacy file), handing each record line to each with whether
// it was appended in the range: past the size the segment had in base
// ("" when the range starts at the root).
func readSegments(ctx context.Context, g *git.Repo, tv *ledger.TreeVerifier, last, base string, each func(line []byte, inRange bool)) error {
	out, err := g.Output(ctx, "ls-tree", "-r", "-z", "--name-only", last, "--", ledger.SegmentDir)
	if err != nil {
		return fmt.Errorf("ls-tree %s: %w", short(last), err)
	}
	var paths, names []string
	for _, p := range git.NulList(out) {
		if p == "" || ledger.IsLegacyPart(p) {
			continue // read as the legacy file
		}
		if !git.Batchable(p) {
			tv.Segment(p, nil, nil)
			continue
		}
		paths = append(paths, p)
		names = append(names, last+":"+p)
	}
	since := make([]int64, len(paths))
	if base != "" && len(paths) > 0 {
		bn := make([]string, len(paths))
		for i, p := range paths {
			bn[i] = base + ":" + p
		}
		if err := g.ObjectSizes(ctx, bn, since); err != nil {
			return err
		}
	}
	return g.ReadObjects(ctx, names, func(i int, obj *git.Object) error {
		if obj == nil || obj.Type != "blob" {
			return nil
		}
		data, err := io.ReadAll(obj.Body)
		if err != nil {
			return err
		}
		tv.Segment(strings.TrimSuffix(paths[i], "\n"), data, func(line []byte, at int64) {
			each(line, at >= since[i])
		})
		return nil
	})
}

// splitCommit reports whether c moved the legacy file into the parts of a
// split: it changes the file and a part.
func splitCommit(c commit) bool {
	return slices.Contains(c.paths, ledger.FileName) && slices.ContainsFunc(c.paths, ledger.IsLegacyPart)
}

// legacyBytes is the legacy ledger of commit id: its split parts in order,
// then its legacy file; nil when it has neither. One ls-tree and one
// cat-file process.
func legacyBytes(ctx context.Context, g *git.Repo, id string) ([]byte, bool, error) {
	out, err := g.Output(ctx, "ls-tree", "-r", "-z", "--name-only", id, "--", ledger.LegacyDir)
	if err != nil {
		return nil, false, fmt.Errorf("ls-tree %s: %w", short(id), err)
	}
	var names []string
	for _, p := range git.NulList(out) {
		if ledger.IsLegacyPart(p) {
			names = append(names, id+":"+p)
		}
	}
	names = append(names, id+":"+ledger.FileName)
	var data []byte
	found := false
	err = g.ReadObjects(ctx, names, func(_ int, obj *git.Object) error {
		if obj == nil || obj.Type != "blob" {
			return nil
		}
		found = true
		b, err := io.ReadAll(obj.Body)
		data = append(data, b...)
		return err
	})
	return data, found, err
}

// splits checks each commit that split the legacy file: its parts, then
// its legacy file, begin with every parent's legacy ledger.
func splits(ctx context.Context, g *git.Repo, commits []commit) ([]Finding, error) {
	var fs []Finding
	for _, c := range commits {
		if !splitCommit(c) {
			continue
		}
		mine, _, err := legacyBytes(ctx, g, c.id)
		if err != nil {
			return nil, err
		}
		for _, p := range c.parents {
			theirs, _, err := legacyBytes(ctx, g, p)
			if err != nil {
				return nil, err
			}
			if !bytes.HasPrefix(mine, theirs) {
				n := 1 + bytes.Count(theirs[:commonPrefix(mine, theirs)], []byte("\n"))
				fs = append(fs, Finding{c.id, ledger.FileName, Error, LedgerRewritten, fmt.Sprintf("line %d of the parent %s's ledger is not in the split files: a split moves lines byte for byte", n, short(p))})
			}
		}
	}
	return fs, nil
}

// LedgerAt verifies the ledger commit id holds, from git objects only (its
// legacy file, or the parts a split left, then every segment), handing each
// record line to each: what attest verify reads to tell that the heads an
// attestation names are still there.
func LedgerAt(ctx context.Context, g *git.Repo, id string, each func(line []byte)) (ledger.Report, error) {
	tv := ledger.NewTreeVerifier()
	data, found, err := legacyBytes(ctx, g, id)
	if err != nil {
		return ledger.Report{}, err
	}
	if found {
		tv.Legacy(bytes.NewReader(data), func(line []byte, _ int64) { each(line) })
	}
	if err := readSegments(ctx, g, tv, id, "", func(line []byte, _ bool) { each(line) }); err != nil {
		return ledger.Report{}, err
	}
	return tv.Report(), nil
}
