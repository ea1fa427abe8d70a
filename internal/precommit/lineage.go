package precommit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/osfile"
)

// Findings about where the staged ledger comes from; the ledger's verify
// reports both too (a line after a segment's seal, a segment that starts
// from nothing beside the legacy file's first record).
const (
	CodeLedgerSealed   = ledger.CodeSealed
	CodeLedgerUnrooted = ledger.CodeUnrooted
)

// ledgerCode is the finding code of a problem the ledger's verify found.
func ledgerCode(p ledger.Problem) string {
	switch p.Code {
	case CodeLedgerSealed:
		return CodeLedgerSealed
	case CodeLedgerUnrooted:
		return CodeLedgerUnrooted
	}
	return CodeLedgerInvalid
}

// checkRoots finds the ledger files the commit adds (rels, those HEAD has
// no blob for in ids: HEAD's and the staged one's, in pairs) whose chain
// starts from nothing while HEAD already holds a ledger. Only a
// repository's first record starts from nothing: every segment continues
// a record of the ledger it is written on. A branch begun before the
// first record (cherry-picked, squashed) names a commit whose ledger was
// empty in its first record: that one stands. The parts of a split are
// judged by the split's own check. The first lines are read from the work
// tree (a staged ledger file is the work tree's or its start); git is
// asked about sizes only, once.
func checkRoots(ctx context.Context, g *git.Repo, rp git.Paths, root string, rels, ids []string) []Finding {
	type cand struct{ rel, rev string }
	var cands []cand
	asked, split := false, false
	for i, rel := range rels {
		if ids[2*i] != "" || ids[2*i+1] == "" {
			continue // HEAD has it, or the commit deletes it
		}
		if ledger.IsLegacyPart(rel) {
			if !asked {
				asked, split = true, splitting(ctx, g, rp)
			}
			if split {
				continue
			}
		}
		prev, rev, ok := firstChain(filepath.Join(root, filepath.FromSlash(rel)))
		if ok && prev == "" {
			cands = append(cands, cand{rel, rev})
		}
	}
	if len(cands) == 0 {
		return nil
	}
	var names []string
	ledgerOf := func(rev string) [3]int {
		var at [3]int
		for i, rel := range []string{ledger.SegmentDir, ledger.FileName, ledger.LegacyDir} {
			p, _ := rp.ToGit(rel)
			at[i] = len(names)
			names = append(names, rev+":"+p)
		}
		return at
	}
	head := ledgerOf("HEAD")
	revs := make([][4]int, len(cands))
	for i, c := range cands {
		revs[i] = [4]int{-1}
		if c.rev != "" && git.Batchable(c.rev) && !strings.ContainsAny(c.rev, ": ") {
			names = append(names, c.rev+"^{commit}")
			l := ledgerOf(c.rev)
			revs[i] = [4]int{len(names) - 4, l[0], l[1], l[2]}
		}
	}
	sizes := make([]int64, len(names))
	if err := g.ObjectSizes(ctx, names, sizes); err != nil {
		return []Finding{{Error, CodeLedgerUnrooted, ledger.SegmentDir, "cannot read HEAD's ledger to judge the segments the commit adds: " + err.Error()}}
	}
	has := func(i int) bool { return i >= 0 && sizes[i] > 0 }
	if !has(head[0]) && !has(head[1]) && !has(head[2]) {
		return nil // the repository's first records
	}
	var out []Finding
	for i, c := range cands {
		r := revs[i]
		// A part of a split legacy file comes only from a split: one
		// added otherwise is never a branch's own.
		part := ledger.IsLegacyPart(c.rel)
		if !part && has(r[0]) && !has(r[1]) && !has(r[2]) && !has(r[3]) {
			continue // written on a commit whose ledger was empty
		}
		what := "starts a chain from nothing (prev null), but HEAD already holds a ledger, and its first record names " + revText(c.rev, has(r[0]))
		if part {
			what = "a part of a legacy ledger, added without splitting the legacy file, starts a chain from nothing (prev null), but HEAD already holds a ledger"
		}
		out = append(out, Finding{Error, CodeLedgerUnrooted, c.rel, what +
			": a segment continues a record of the ledger it is written on, and only a repository's first record starts from nothing (an older intenthook begins a work tree's first segment so: upgrade it; else the file was planted: git rm --cached " + quoteArg(c.rel) + ")"})
	}
	return out
}

func revText(rev string, exists bool) string {
	switch {
	case rev == "":
		return "no commit"
	case !exists:
		return fmt.Sprintf("a commit this repository does not have (%q)", rev)
	}
	return fmt.Sprintf("a commit whose ledger was not empty either (%.12s)", rev)
}

// splitting reports whether the commit splits the legacy file: HEAD has it
// and the index does not.
func splitting(ctx context.Context, g *git.Repo, rp git.Paths) bool {
	p, ok := rp.ToGit(ledger.FileName)
	if !ok {
		return false
	}
	ids := make([]string, 2)
	if g.ObjectIDs(ctx, []string{"HEAD:" + p, ":0:" + p}, ids) != nil {
		return false
	}
	return ids[0] != "" && ids[1] == ""
}

// firstChain reads the first chained record of a ledger file: its prev
// ("" for null) and the commit it names. ok is false when the file holds
// none (unreadable, or only unchained older lines).
func firstChain(path string) (prev, rev string, ok bool) {
	f, err := osfile.Open(path)
	if err != nil {
		return "", "", false
	}
	defer f.Close()
	buf := make([]byte, ledger.MaxLine)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return "", "", false
	}
	for _, line := range bytes.Split(buf[:n], []byte("\n")) {
		var r struct {
			Version string `json:"version"`
			VCS     struct {
				Revision string `json:"revision"`
			} `json:"vcs"`
			Metadata struct {
				Intenthook struct {
					Seq  *int64  `json:"seq"`
					Prev *string `json:"prev"`
				} `json:"dev.intenthook"`
			} `json:"metadata"`
		}
		if json.Unmarshal(line, &r) != nil || r.Metadata.Intenthook.Seq == nil {
			continue
		}
		if r.Metadata.Intenthook.Prev != nil {
			return *r.Metadata.Intenthook.Prev, r.VCS.Revision, true
		}
		return "", r.VCS.Revision, true
	}
	return "", "", false
}
