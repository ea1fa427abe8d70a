package audit

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/safetext"
)

// Where the range's ledger comes from: the writers (work trees) it
// brought, and the chains it added that start from nothing.
const (
	// LedgerSealed: a line added to a sealed segment (the range's last
	// ledger does not verify for that reason).
	LedgerSealed = ledger.CodeSealed
	// LedgerUnrooted: a commit added a ledger file whose chain starts from
	// nothing while its parent already held a ledger, and the commit its
	// first record names held none either.
	LedgerUnrooted = ledger.CodeUnrooted
)

// NewWriter is a ledger writer (one work tree) none of whose segments the
// ledger held before the range: the commit that brought its first segment,
// and what the range's last ledger holds of it.
type NewWriter struct {
	Writer   string `json:"writer"`
	Commit   string `json:"commit"`
	Author   string `json:"author"`
	Segment  string `json:"segment"`
	Segments int    `json:"segments"`
	Records  int    `json:"records"`
}

func (n NewWriter) String() string {
	return fmt.Sprintf("%s new ledger writer %s (%s): %d record(s) in %d segment(s), the first %s", short(n.Commit), n.Writer,
		safetext.Quote(n.Author), n.Records, n.Segments, safetext.Quote(n.Segment))
}

// lineage lists the writers that first appear in the range, and finds
// each ledger file a commit added whose chain starts from nothing on a
// ledger that was not empty (a merge's files were judged on their branch;
// a split's parts by splits). roots are the files of the last ledger whose
// chain starts from nothing, with the commit their first record names: a
// branch begun before the ledger's first record (cherry-picked, squashed)
// names a commit whose ledger was empty. Object sizes come from one git
// process; each starting point's writers from one ls-tree.
func lineage(ctx context.Context, g *git.Repo, commits []commit, rep ledger.Report) ([]Finding, []NewWriter, error) {
	inRange := map[string]bool{}
	for _, c := range commits {
		inRange[c.id] = true
	}
	known := map[string]bool{}
	var bases []string
	for _, c := range commits {
		for _, p := range c.parents {
			if !inRange[p] && !slices.Contains(bases, p) {
				bases = append(bases, p)
			}
		}
	}
	for _, b := range bases {
		out, err := g.Output(ctx, "ls-tree", "--name-only", "-z", b, "--", ledger.SegmentDir+"/")
		if err != nil {
			return nil, nil, fmt.Errorf("ls-tree %s: %w", short(b), err)
		}
		for _, p := range git.NulList(out) {
			known[path.Base(p)] = true
		}
	}
	roots := map[string]string{}
	for _, r := range rep.Roots() {
		roots[r.File] = r.Revision
	}

	// What is asked of git: whether each candidate file is in its commit,
	// whether its parent held it and any ledger, and whether the commit
	// its first record names held a ledger.
	var names []string
	ask := func(rev, p string) int {
		names = append(names, rev+":"+p)
		return len(names) - 1
	}
	type writerCand struct {
		c      commit
		path   string
		writer string
		in     int
	}
	var wcands []writerCand
	type rootCand struct {
		c             commit
		path, rev     string
		in, parentHas int
		parentLedger  [3]int // the parent's segments, legacy file and its parts
		revCommit     int
		revLedger     [3]int
		legacy        bool
	}
	var rcands []rootCand
	ledgerOf := func(rev string) [3]int {
		return [3]int{ask(rev, ledger.SegmentDir), ask(rev, ledger.FileName), ask(rev, ledger.LegacyDir)}
	}
	_, legacyRooted := roots[ledger.FileName]
	for _, c := range commits {
		split := splitCommit(c)
		for _, p := range c.paths {
			if !git.Batchable(p) {
				continue
			}
			seg, isSeg := ledger.ParseSegment(p)
			if isSeg && !known[seg.Writer] && !slices.ContainsFunc(wcands, func(w writerCand) bool { return w.writer == seg.Writer && w.c.id == c.id }) {
				wcands = append(wcands, writerCand{c, p, seg.Writer, ask(c.id, p)})
			}
			if len(c.parents) != 1 {
				continue // a root commit holds the first ledger; a merge's files were judged on their branch
			}
			legacy := (ledger.IsLegacyPart(p) || p == ledger.FileName) && !split && legacyRooted
			rev, rooted := roots[p]
			if legacy {
				rev, rooted = roots[ledger.FileName], true
			}
			if !rooted || !isSeg && !legacy {
				continue
			}
			par := c.parents[0]
			rc := rootCand{c: c, path: p, rev: rev, legacy: legacy, in: ask(c.id, p), parentHas: ask(par, p), parentLedger: ledgerOf(par), revCommit: -1}
			if rev != "" && git.Batchable(rev) && !strings.ContainsAny(rev, ": ") {
				names = append(names, rev+"^{commit}")
				rc.revCommit = len(names) - 1
				rc.revLedger = ledgerOf(rev)
			}
			rcands = append(rcands, rc)
		}
	}
	if len(names) == 0 {
		return nil, nil, nil
	}
	sizes := make([]int64, len(names))
	if err := g.ObjectSizes(ctx, names, sizes); err != nil {
		return nil, nil, err
	}
	has := func(i int) bool { return i >= 0 && sizes[i] > 0 }
	held := func(l [3]int) bool { return has(l[0]) || has(l[1]) || has(l[2]) }

	var fs []Finding
	for _, rc := range rcands {
		if !has(rc.in) || has(rc.parentHas) {
			continue // not added here
		}
		parentLedger := held(rc.parentLedger)
		if rc.legacy {
			// The legacy ledger begins in this commit only where its
			// parent had none of it.
			if has(rc.parentLedger[1]) || has(rc.parentLedger[2]) {
				continue
			}
			parentLedger = has(rc.parentLedger[0])
		}
		if !parentLedger {
			continue // the first of its repository
		}
		// A part of a split legacy file comes only from a split (judged
		// by splits): one added otherwise is never a branch's own.
		part := ledger.IsLegacyPart(rc.path)
		if !part && rc.revCommit >= 0 && has(rc.revCommit) && !held(rc.revLedger) {
			continue // written on a commit whose ledger was empty
		}
		what := "a segment whose chain starts from nothing (prev null)"
		switch {
		case part:
			what = "a part of a legacy ledger whose chain starts from nothing (prev null), in a commit that does not split the legacy file,"
		case rc.legacy:
			what = "a legacy ledger whose chain starts from nothing (prev null)"
		}
		names := ""
		if !part {
			names = ", and its first record names " + revisionText(rc.rev, rc.revCommit >= 0 && has(rc.revCommit))
		}
		fs = append(fs, Finding{rc.c.id, rc.path, Error, LedgerUnrooted, fmt.Sprintf(
			"%s added while the parent %s already held a ledger%s: a segment continues a record of the ledger it is written on, and only a repository's first record starts from nothing (an older intenthook, or a planted file)",
			what, short(rc.c.parents[0]), names)})
	}

	perWriter := map[string][2]int{} // segments, records in the last ledger
	for _, h := range rep.Segments {
		if s, ok := ledger.ParseSegment(h.File); ok {
			n := perWriter[s.Writer]
			perWriter[s.Writer] = [2]int{n[0] + 1, n[1] + h.Records}
		}
	}
	var writers []NewWriter
	listed := map[string]bool{}
	for _, w := range wcands {
		if listed[w.writer] || !has(w.in) {
			continue
		}
		listed[w.writer] = true
		n := perWriter[w.writer]
		writers = append(writers, NewWriter{Writer: w.writer, Commit: w.c.id, Author: w.c.author, Segment: w.path, Segments: n[0], Records: n[1]})
	}
	return fs, writers, nil
}

// revisionText says which commit a first record names.
func revisionText(rev string, exists bool) string {
	switch {
	case rev == "":
		return "no commit"
	case !exists:
		return "a commit this repository does not have (" + safetext.Quote(rev) + ")"
	}
	return "a commit whose ledger was not empty either (" + short(rev) + ")"
}
