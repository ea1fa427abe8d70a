package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Where each segment comes from. A writer seals its newest segment when it
// starts its next one, and that one's first record says so (Meta.Sealed):
// the sealed segment and the last record it held. A line after that
// record was added once the segment was sealed: CodeSealed. Two segments
// may start from the same record (two branches of one work tree, a union
// of two branches): each says what it sealed, and they agree.
//
// Every chain starts from a record of the ledger it is written on, or
// from nothing when that ledger was empty: a work tree's first segment
// continues the newest record it finds. A ledger that holds the legacy
// file began there, so a segment that starts from nothing beside it is
// CodeUnrooted; audit and precommit judge a segment that starts from
// nothing against the ledger of the commit it was added to.
const (
	// CodeSealed: a line was added to a sealed segment (or the segment a
	// record says was sealed no longer holds the record it ended in).
	CodeSealed = "ledger_sealed"
	// CodeUnrooted: a chain starts from nothing (prev null) on a ledger
	// that was not empty.
	CodeUnrooted = "ledger_unrooted"
)

// Root is a ledger file whose chain starts from nothing (its first chained
// record has prev null): a segment, or the legacy file (FileName).
// Revision is the git commit that record names ("" when none): where it
// was written, which audit looks at to tell whether the ledger was empty
// there.
type Root struct {
	File     string
	Revision string
}

// Roots returns the files of the ledger verified whose chain starts from
// nothing.
func (r *Report) Roots() []Root { return r.roots }

// sealedOf reads what a segment's first line says its writer sealed: nil
// when it says nothing (a segment an older version began, the writer's
// first, one that continues another writer's record).
func sealedOf(line []byte) *Sealed {
	if !bytes.Contains(line, []byte(`"sealed":{`)) {
		return nil
	}
	var r struct {
		Metadata struct {
			Intenthook struct {
				Sealed *Sealed `json:"sealed"`
			} `json:"dev.intenthook"`
		} `json:"metadata"`
	}
	if json.Unmarshal(line, &r) != nil {
		return nil
	}
	return r.Metadata.Intenthook.Sealed
}

// revisionOf reads the git commit a record names (vcs.revision).
func revisionOf(line []byte) string {
	var r struct {
		VCS struct {
			Revision string `json:"revision"`
		} `json:"vcs"`
	}
	_ = json.Unmarshal(line, &r)
	return r.VCS.Revision
}

// sealable reports whether seg may say it sealed what c names: an earlier
// segment of its own writer.
func sealable(seg Segment, c *Sealed) bool {
	x, ok := ParseSegment(c.Segment)
	return ok && x.Writer == seg.Writer && x.N < seg.N
}

// checkSealed holds each segment a first record says was sealed to the
// record it names: the segment must end there. Each sealed segment is
// reported once, from the earliest record it is said to end in. A segment
// that ends before that record lost lines (a reset, a stash): the repair
// record the next append wrote reports it, not this check.
func (set *segSet) checkSealed() {
	byRel := make(map[string]int, len(set.results))
	for i, r := range set.results {
		byRel[r.seg.Rel] = i
	}
	type end struct {
		by   *segResult
		line int // the sealed segment's line the record is on
		seq  int64
	}
	ends := map[int]end{}
	rewritten := map[int]*segResult{}
	for _, r := range set.results {
		c := r.sealed
		if c == nil {
			continue
		}
		if !sealable(r.seg, c) {
			r.codef(CodeSealed, 1, "says it sealed %q: a segment seals only an earlier segment of its own writer", c.Segment)
			continue
		}
		xi, present := byRel[c.Segment]
		if !present {
			continue
		}
		xr := set.results[xi]
		id, ok := parsePrev(c.LastHash)
		w, found := set.all[id]
		switch {
		case ok && found && w.file == xi:
			if e, seen := ends[xi]; !seen || w.line < e.line {
				ends[xi] = end{r, w.line, w.seq}
			}
		case ok && found:
			r.codef(CodeSealed, 1, "says %s was sealed at seq %d, but that record is not in it", c.Segment, c.LastSeq)
		case xr.head.Seq >= c.LastSeq:
			if _, seen := rewritten[xi]; !seen {
				rewritten[xi] = r
			}
		}
	}
	for xi, e := range ends {
		xr := set.results[xi]
		if extra := xr.nlines - e.line; extra > 0 {
			xr.codef(CodeSealed, e.line+1, "%d line(s) added after the segment was sealed: %s:1 says it ended at seq %d (line %d), and a sealed segment never changes", extra, e.by.seg.Rel, e.seq, e.line)
		}
	}
	for xi, by := range rewritten {
		c := by.sealed
		set.results[xi].codef(CodeSealed, 0, "does not hold the record %s:1 says it was sealed at (seq %d, %s): the segment was rewritten after it was sealed", by.seg.Rel, c.LastSeq, c.LastHash)
	}
}

// roots lists the chains that start from nothing into rep and returns the
// problem they make: the legacy file's chain and a segment's, side by
// side. A ledger that holds the legacy file began there (its segments
// continue its last line), so one of the two was not written on this
// ledger: an older intenthook's legacy file begun in a repository that
// had only segments, or a planted file.
func (set *segSet) roots(rep *Report) []Problem {
	var segs []string
	for _, r := range set.results {
		if r.first != nil && r.first.Metadata.Intenthook.Prev == nil {
			rep.roots = append(rep.roots, Root{File: r.seg.Rel, Revision: r.rootRev})
			segs = append(segs, r.seg.Rel)
		}
	}
	if rep.legacyRoot == 0 || len(segs) == 0 {
		return nil
	}
	more := ""
	if len(segs) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(segs)-1)
	}
	return []Problem{{Line: rep.legacyRoot, Code: CodeUnrooted, Message: fmt.Sprintf(
		"the legacy ledger (%s, or its parts in %s/) starts a chain from nothing, and so does %s%s: a ledger has one first record, and a segment written beside the legacy file continues it; one of the two chains was not written on this ledger",
		FileName, LegacyDir, strings.Join(segs[:1], ""), more)}}
}

// sealedHold reports whether VerifyFrom can vouch for what segments say
// their writer sealed: each sealed segment unchanged since the checkpoint
// ends in the record it is said to end in (or before it: lost lines, which
// a repair record reports). A segment that is new or grew since, and is
// said to be sealed, is left to the whole ledger's verify, as is a record
// that says it sealed what it cannot.
func sealedHold(heads []FileHead, claims []*Sealed, changed map[string]bool) bool {
	if len(claims) == 0 {
		return true
	}
	byFile := make(map[string]FileHead, len(heads))
	for _, h := range heads {
		byFile[h.File] = h
	}
	for _, c := range claims {
		if changed[c.Segment] {
			return false
		}
		h, ok := byFile[c.Segment]
		if ok && h.Hash != c.LastHash && h.Seq >= c.LastSeq {
			return false
		}
	}
	return true
}
