package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/osfile"
)

// segLine is what the cross-segment checks need of one line.
type segLine struct {
	id  lineID
	seq int64
}

// segResult is one segment checked on its own: a strict chain, every line
// following the one before it.
type segResult struct {
	seg     Segment
	lines   []segLine
	records int
	nlines  int
	size    int64  // bytes walked, the prefix before them included
	first   *chain // the first line's chain fields; nil when it has none
	// sealed is what the first record says its writer sealed; rootRev the
	// commit the first record names when it starts from nothing.
	sealed   *Sealed
	rootRev  string
	head     Head
	problems []Problem
	warnings []Problem
	each     func([]byte) // nil, or called for each line that parses
}

func (r *segResult) errorf(n int, format string, args ...any) {
	r.problems = append(r.problems, Problem{File: r.seg.Rel, Line: n, Message: fmt.Sprintf(format, args...)})
}

// codef is errorf for a problem with a code of its own.
func (r *segResult) codef(code string, n int, format string, args ...any) {
	r.problems = append(r.problems, Problem{File: r.seg.Rel, Line: n, Code: code, Message: fmt.Sprintf(format, args...)})
}

// checkSegment verifies one segment's lines among themselves: each parses,
// and each after the first names the line before it as prev, with the
// next seq. Nothing else is a fork: a segment has one line of history.
func checkSegment(root string, seg Segment, each func([]byte)) *segResult {
	r := &segResult{seg: seg, each: each}
	data, err := osfile.ReadFile(filepath.Join(root, filepath.FromSlash(seg.Rel)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.errorf(0, "%v", err)
		return r
	}
	checkSegmentBytes(r, data, 0, nil)
	r.size = int64(len(data))
	return r
}

// checkSegmentBytes walks data, the segment's lines from line from+1 on;
// after, when set, is the line they continue (a checkpoint's last line).
func checkSegmentBytes(r *segResult, data []byte, from int, after *segLine) {
	n := from
	prev, prevSeq, have := lineID{}, int64(0), false
	if after != nil {
		prev, prevSeq, have = after.id, after.seq, true
	}
	var sum [sha256.Size]byte
	for len(data) > 0 {
		n++
		r.nlines = n
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			r.errorf(n, "torn tail: %d bytes without a final newline", len(data))
			break
		}
		line := data[:i]
		data = data[i+1:]
		sum = sha256.Sum256(line)
		id := lineID(sum[:16])
		c, err := chainFields(line)
		seq := prevSeq + 1
		switch {
		case err != nil:
			r.errorf(n, "does not parse: %v", err)
		case c.Metadata.Intenthook.Seq == nil:
			r.errorf(n, "no seq")
		default:
			r.records++
			if r.each != nil {
				r.each(line)
			}
			seq = *c.Metadata.Intenthook.Seq
			if bytes.Contains(line, []byte(`"code":"tail_lost`)) {
				r.lostTail(n, line)
			}
			if !have && n == 1 {
				cc := c
				r.first = &cc
				r.sealed = sealedOf(line)
				if c.Metadata.Intenthook.Prev == nil {
					r.rootRev = revisionOf(line)
				}
				if month := stampBytes(line); len(month) >= 7 && string(month[:7]) != segMonth(r.seg.Rel) {
					r.errorf(n, "stamped %q, outside the segment's month %s", month, segMonth(r.seg.Rel))
				}
				break
			}
			p := c.Metadata.Intenthook.Prev
			target, ok := lineID{}, false
			if p != nil {
				target, ok = parsePrev(*p)
			}
			if !ok || target != prev {
				r.errorf(n, "prev %s is not the line before it: a segment has one line of history", quoteOrNull(p))
			}
			if seq != prevSeq+1 {
				r.errorf(n, "seq %d, want %d", seq, prevSeq+1)
			}
		}
		r.lines = append(r.lines, segLine{id, seq})
		prev, prevSeq, have = id, seq, true
		r.head = Head{Seq: seq, Hash: digest.Prefix + hex.EncodeToString(sum[:])}
	}
}

// lostTail reports a repair record that says lines were lost.
func (r *segResult) lostTail(n int, line []byte) {
	rec, err := ParseLine(line)
	if err != nil || rec.Metadata.Intenthook.Event != EventRepair {
		return
	}
	switch string(rec.Metadata.Intenthook.Code) {
	case CodeTailLost:
		r.errorf(n, "%s", rec.Metadata.Intenthook.Reason)
	case CodeTailLostHeadMoved:
		r.warnings = append(r.warnings, Problem{File: r.seg.Rel, Line: n, Message: rec.Metadata.Intenthook.Reason})
	}
}

func segMonth(rel string) string {
	parts := strings.Split(rel, "/")
	if len(parts) < 2 {
		return ""
	}
	return parts[len(parts)-2]
}

// verifySegments adds the segments to rep, the legacy file's report (whose
// lines are in legacy): each segment verified on its own in parallel, then
// where each starts (a record that exists, with the seq after it), no line
// twice in the ledger, and the branch's head file naming a line that is
// still there. each gets every line that parses, one call at a time, in
// no particular order across segments.
func verifySegments(root string, rep Report, legacy map[lineID]seen, each func([]byte)) Report {
	set := newSegSet(rep, legacy)
	segs, bad, err := ListSegments(root)
	if err != nil {
		set.rep.Errors = append(set.rep.Errors, Problem{Message: err.Error()})
	}
	set.bad(bad)
	for _, r := range checkAll(root, segs, each) {
		set.add(r)
	}
	return set.finish(root)
}

// segSet gathers checked segments and makes the checks across them.
type segSet struct {
	rep     Report
	all     map[lineID]where
	results []*segResult
}

// where a line is: its file (-1: the legacy file), line number and seq.
type where struct {
	file int
	line int
	seq  int64
}

func newSegSet(rep Report, legacy map[lineID]seen) *segSet {
	all := make(map[lineID]where, len(legacy)+1024)
	for id, s := range legacy {
		all[id] = where{-1, s.line, s.seq}
	}
	return &segSet{rep: rep, all: all}
}

func (set *segSet) bad(names []string) {
	for _, b := range names {
		set.rep.Errors = append(set.rep.Errors, Problem{File: b, Message: "not a segment: a ledger file is " + SegmentDir + "/<writer>/<yyyy-mm>/<nnnnnn>.jsonl"})
	}
}

// add takes a checked segment's lines into the set, reporting a line that
// is already in the ledger.
func (set *segSet) add(r *segResult) {
	i := len(set.results)
	set.results = append(set.results, r)
	for n, l := range r.lines {
		if w, dup := set.all[l.id]; dup {
			at := FileName
			if w.file >= 0 {
				at = set.results[w.file].seg.Rel
			}
			r.errorf(n+1, "duplicate of %s:%d", at, w.line)
			continue
		}
		set.all[l.id] = where{i, n + 1, l.seq}
	}
	r.lines = nil
}

// finish checks where each segment starts, that no sealed segment grew,
// that no chain starts from nothing beside the legacy file's and, with a
// root, the branch's head file; it returns the report with every segment
// in it.
func (set *segSet) finish(root string) Report {
	set.checkSealed()
	rep := set.rep
	rep.Errors = append(rep.Errors, set.roots(&rep)...)
	for _, r := range set.results {
		if r.first != nil {
			m := r.first.Metadata.Intenthook
			switch {
			case m.Prev == nil && *m.Seq != 1:
				r.errorf(1, "seq %d after prev null, want 1", *m.Seq)
			case m.Prev == nil:
			default:
				target, ok := parsePrev(*m.Prev)
				from, found := set.all[target]
				switch {
				case !ok || !found:
					r.errorf(1, "starts from prev %s, which names no record in the ledger", quoteOrNull(m.Prev))
				case *m.Seq != from.seq+1:
					r.errorf(1, "seq %d, want %d (the record it starts from has seq %d)", *m.Seq, from.seq+1, from.seq)
				}
			}
		}
		rep.addSegment(r, r.size)
	}
	if root != "" {
		checkHead(root, func(id lineID, seq int64) bool {
			w, ok := set.all[id]
			return ok && w.seq == seq
		}, func(n int, format string, args ...any) {
			rep.Errors = append(rep.Errors, Problem{Line: n, Message: fmt.Sprintf(format, args...)})
		})
	}
	rep.finishSegments(root)
	return rep
}

// TreeVerifier verifies a ledger read from elsewhere than a work tree (git
// objects, for audit): the legacy file and the segments, handed over one
// by one, with the checks Verify makes but the head file's.
type TreeVerifier struct {
	set *segSet
}

// NewTreeVerifier starts a verification; call Legacy first (if the tree
// has the legacy file), then Segment for each segment, then Report.
func NewTreeVerifier() *TreeVerifier {
	return &TreeVerifier{set: newSegSet(Report{}, nil)}
}

// Legacy verifies the legacy file r holds; each, when set, gets each
// complete line that parses with its byte offset.
func (t *TreeVerifier) Legacy(r io.Reader, each func(line []byte, at int64)) {
	v := newVerifier(nil)
	v.eachAt = each
	err := scanCheckedOf(func(emit func(n int, line []byte, complete bool) error) error {
		return scanLinesOf(r, emit)
	}, v.line)
	rep := v.finish("", err)
	rep.setLegacy()
	t.set = newSegSet(rep, v.lines)
}

// Segment verifies the segment at rel (root-relative) holding data; each,
// when set, gets each complete line that parses with its byte offset. A
// name that is not a segment's is an error.
func (t *TreeVerifier) Segment(rel string, data []byte, each func(line []byte, at int64)) {
	seg, ok := ParseSegment(rel)
	if !ok {
		t.set.bad([]string{rel})
		return
	}
	r := &segResult{seg: seg}
	checkSegmentBytes(r, data, 0, nil)
	r.size = int64(len(data))
	t.set.add(r)
	if each == nil {
		return
	}
	for at := 0; at < len(data); {
		j := bytes.IndexByte(data[at:], '\n')
		if j < 0 {
			break
		}
		line := data[at : at+j]
		if c, err := chainFields(line); err == nil && c.Metadata.Intenthook.Seq != nil {
			each(line, int64(at))
		}
		at += j + 1
	}
}

// Report makes the checks across segments and returns the report.
func (t *TreeVerifier) Report() Report { return t.set.finish("") }

// newestHead is the head of the branch's active segment when it has one,
// else the last segment's in name order.
func newestHead(root string, segs []FileHead) Head {
	if seg := activeSegment(root); seg != "" {
		for _, h := range segs {
			if h.File == seg {
				return Head{Seq: h.Seq, Hash: h.Hash}
			}
		}
	}
	h := segs[len(segs)-1]
	return Head{Seq: h.Seq, Hash: h.Hash}
}

// HeadsDigest is one digest over the heads of every ledger file, in the
// order given (the legacy file first, then the segments in name order):
// each as "path seq hash\n". It names the whole ledger at once: a change
// to any file's newest line changes it.
func HeadsDigest(heads []FileHead) string {
	h := sha256.New()
	for _, f := range heads {
		fmt.Fprintf(h, "%s %d %s\n", f.File, f.Seq, f.Hash)
	}
	return digest.Prefix + hex.EncodeToString(h.Sum(nil))
}

// checkAll runs checkSegment over segs on one worker per CPU and returns
// the results in segs' order.
func checkAll(root string, segs []Segment, each func([]byte)) []*segResult {
	out := make([]*segResult, len(segs))
	if each != nil {
		var mu sync.Mutex
		inner := each
		each = func(line []byte) {
			mu.Lock()
			defer mu.Unlock()
			inner(line)
		}
	}
	next := make(chan int)
	done := make(chan struct{})
	workers := max(1, min(runtime.GOMAXPROCS(0), len(segs)))
	for range workers {
		go func() {
			for i := range next {
				out[i] = checkSegment(root, segs[i], each)
			}
			done <- struct{}{}
		}()
	}
	for i := range segs {
		next <- i
	}
	close(next)
	for range workers {
		<-done
	}
	return out
}
