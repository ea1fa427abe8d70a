package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/osfile"
)

// Problem is one finding of Verify. Line is 1-based; 0 is the ledger as a
// whole.
type Problem struct {
	File    string `json:",omitempty"` // a segment, root-relative; "": the legacy file or the ledger as a whole
	Line    int
	Message string
	// Code names the rule the problem breaks when it has a code of its
	// own (CodeSealed, CodeUnrooted); "" for the chain's other problems.
	Code string `json:",omitempty"`
}

func (p Problem) String() string {
	switch {
	case p.File != "" && p.Line == 0:
		return p.File + ": " + p.Message
	case p.File != "":
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	case p.Line == 0:
		return p.Message
	}
	return fmt.Sprintf("line %d: %s", p.Line, p.Message)
}

// Report is what Verify found.
type Report struct {
	Lines   int       // lines read, a torn tail included
	Records int       // lines that parse
	Head    Head      // the last line's seq and digest
	Errors  []Problem // the ledger is damaged or was edited
	Forks   []Problem // lines continuing an earlier line (a git union merge): accepted
	// Warnings are losses an append recorded that git can explain (lines
	// gone after HEAD moved, as a reset does).
	Warnings []Problem
	Size     int64 // bytes read, from the start of the legacy file
	// Segments are the heads of the segment files, in name order; Digest
	// is one digest over every file's head (see HeadsDigest).
	Segments []FileHead `json:",omitempty"`
	Digest   string     `json:",omitempty"`

	legacy        Checkpoint // the legacy file's part, for CheckpointOf
	legacyRecords int
	segCPs        []SegmentCheckpoint
	// legacyRoot is the legacy file's line that starts its chain (prev
	// null; 0: none), roots every file whose chain starts from nothing.
	legacyRoot int
	roots      []Root
}

// FileHead is the newest line of one ledger file.
type FileHead struct {
	File    string `json:"file"`
	Records int    `json:"records"`
	Seq     int64  `json:"seq"`
	Hash    string `json:"hash"`
}

// OK reports whether the ledger verified: forks are not errors.
func (r *Report) OK() bool { return len(r.Errors) == 0 }

// lineID is the first half of a line's sha256: enough to tell a million
// lines apart, and half the memory of the whole digest.
type lineID [16]byte

type seen struct {
	seq      int64
	line     int
	children int // lines whose prev names this one
}

// Verify checks the whole ledger in one streaming pass: every line parses,
// each line's prev is the digest of the line before it and its seq is one
// more. A line whose prev names an earlier line instead is a fork (what a
// git union merge of two branches' appends makes): reported, not an error,
// and its seq continues from that line. A prev naming no earlier line, a
// torn tail, and a state/ledger.head naming a line that is not in the file
// (lines removed from the end) are errors. Lines in the seeds' older shapes
// (no seq) are accepted before the first chained line.
func Verify(root string) Report { return VerifyEach(root, nil) }

// VerifyEach is Verify, handing each complete line that parses to each as
// well (valid only during the call): a caller that needs something of the
// lines gets it from the same pass.
func VerifyEach(root string, each func(line []byte)) Report {
	v := newVerifier(each)
	err := scanChecked(root, 0, v.line)
	rep := v.finish("", err)
	rep.setLegacy()
	return verifySegments(root, rep, v.lines, each)
}

// VerifyReader verifies the ledger r holds (a blob read from git, say) like
// Verify, without the head file (that is the work tree's); each, when set,
// gets each complete line that parses with its byte offset in r.
func VerifyReader(r io.Reader, each func(line []byte, at int64)) Report {
	v := newVerifier(nil)
	v.eachAt = each
	err := scanCheckedOf(func(emit func(n int, line []byte, complete bool) error) error {
		return scanLinesOf(r, emit)
	}, v.line)
	return v.finish("", err)
}

// verifier holds what verify knows while it walks the lines.
type verifier struct {
	rep      Report
	lines    map[lineID]seen
	lastSum  [sha256.Size]byte // the newest line's digest, for the head
	haveHead bool
	prev     lineID // the line before this one
	prevSeq  int64
	chained  bool
	each     func(line []byte)
	eachAt   func(line []byte, at int64)
	// partial is set when the walk starts after a checkpoint: a prev naming
	// a line before it cannot be judged, and the walk is abandoned.
	partial   bool
	abandoned bool
	// firstChained is set once a chained line was seen: only the first may
	// have a null prev.
	firstChained bool
	size         int64 // bytes walked, from the start of the file
}

func newVerifier(each func([]byte)) *verifier {
	return &verifier{lines: make(map[lineID]seen, 1024), each: each}
}

func (v *verifier) errorf(n int, format string, args ...any) {
	v.rep.Errors = append(v.rep.Errors, Problem{Line: n, Message: fmt.Sprintf(format, args...)})
}

// line checks one line (SPEC §7.2: seq and prev) against those before it.
func (v *verifier) line(ck *checked) {
	n, line := ck.n, ck.line
	v.rep.Lines = n
	at := v.size
	v.size += int64(len(line))
	if !ck.complete {
		v.errorf(n, "torn tail: %d bytes without a final newline", len(line))
		return
	}
	v.size++ // the newline
	sum := ck.sum
	id := lineID(sum[:16])
	if dup, twice := v.lines[id]; twice {
		v.errorf(n, "duplicate of line %d", dup.line)
		return
	}
	seq := v.prevSeq + 1 // what an unreadable line is taken to be
	defer func() {
		v.lines[id] = seen{seq: seq, line: n}
		v.prev, v.prevSeq = id, seq
		v.lastSum, v.rep.Head.Seq, v.haveHead = sum, seq, true
	}()
	c, err := ck.chain, ck.err
	if err != nil {
		v.errorf(n, "does not parse: %v", err)
		return
	}
	v.rep.Records++
	if v.each != nil {
		v.each(line)
	}
	if v.eachAt != nil {
		v.eachAt(line, at)
	}
	if bytes.Contains(line, []byte(`"code":"tail_lost`)) {
		v.lostTail(n, line)
	}
	m := c.Metadata.Intenthook
	if m.Seq == nil && c.Version == "" && !v.chained {
		seq = 0 // an old line: not chained, but the first chained line may follow it
		return
	}
	v.chained = true
	if m.Seq == nil {
		v.errorf(n, "no seq")
		return
	}
	seq = *m.Seq
	// A prev of null follows the empty ledger: the first chained line only.
	if m.Prev == nil {
		if v.firstChained {
			v.errorf(n, "prev null after the first line: a chain of its own")
		} else {
			v.rep.legacyRoot = n
			v.rep.roots = append(v.rep.roots, Root{File: FileName, Revision: revisionOf(line)})
		}
		v.firstChained = true
		if seq != 1 {
			v.errorf(n, "seq %d, want 1", seq)
		}
		return
	}
	v.firstChained = true
	target, ok := parsePrev(*m.Prev)
	from, found := v.lines[target]
	found = ok && found
	follows := target == v.prev
	switch {
	case !found && v.partial:
		v.abandoned = true // a line before the checkpoint, or none
		return
	case !found:
		v.errorf(n, "prev %s names no earlier line", quoteOrNull(m.Prev))
		return
	case !follows && from.children == 0:
		// A union merge of two branches puts the second branch's lines
		// after the first's: its first line continues a line the first
		// branch already continued. A line that continues a line nothing
		// else continued is not that shape.
		v.errorf(n, "prev names line %d, which no line continued: not the shape of a merge", from.line)
	case !follows:
		v.rep.Forks = append(v.rep.Forks, Problem{Line: n, Message: forkMessage(from)})
	}
	from.children++
	v.lines[target] = from
	if seq != from.seq+1 {
		v.errorf(n, "seq %d, want %d", seq, from.seq+1)
	}
}

func (v *verifier) finish(root string, err error) Report {
	if err != nil {
		v.errorf(0, "%v", err)
	}
	if v.haveHead {
		v.rep.Head.Hash = digest.Prefix + hex.EncodeToString(v.lastSum[:])
	}
	v.rep.Size = v.size
	if root != "" {
		checkHead(root, func(id lineID, seq int64) bool {
			s, found := v.lines[id]
			return found && s.seq == seq
		}, v.errorf)
	}
	return v.rep
}

// Checkpoint is a verified state of the ledger: a prefix of the legacy file
// (its length in bytes and lines, its last line's seq and digest; zero when
// there is none) and each segment's.
type Checkpoint struct {
	Size     int64               `json:"size"`
	Lines    int                 `json:"lines"`
	Seq      int64               `json:"seq"`
	Hash     string              `json:"hash"`
	Segments []SegmentCheckpoint `json:"segments,omitempty"`
}

// SegmentCheckpoint is a verified segment: its size, lines and records, and
// its last line.
type SegmentCheckpoint struct {
	File    string `json:"file"`
	Size    int64  `json:"size"`
	Lines   int    `json:"lines"`
	Records int    `json:"records"`
	Seq     int64  `json:"seq"`
	Hash    string `json:"hash"`
	// Sealed is what the segment's first record says its writer sealed:
	// a segment that grows after the checkpoint is verified whole when a
	// segment says it was sealed.
	Sealed Sealed `json:"sealed,omitzero"`
}

// Empty reports whether cp holds nothing.
func (cp Checkpoint) Empty() bool { return cp.Size == 0 && len(cp.Segments) == 0 }

// CheckpointOf returns the checkpoint a clean report makes: what it read.
func CheckpointOf(rep Report) Checkpoint {
	cp := rep.legacy
	cp.Segments = rep.segCPs
	return cp
}

// VerifyFrom verifies only what changed since cp, a state verified before:
// the legacy file's lines after its prefix, the lines appended to a segment
// since, and new segments. It reads the last line of each prefix back (its
// digest must still be cp's: else the prefix changed). ok is false when the
// checkpoint does not hold, when the legacy file was written after its head
// (by something other than intenthook's appender, which could have changed
// any line), when a segment of cp is gone or shrank, or when a line names a
// line the checkpoint cannot vouch for (a fork from further back, a new
// segment starting mid-segment): the caller verifies the whole ledger
// instead. Lines that repeat a line of an unchanged segment are not looked
// for here; the whole ledger's verify finds them.
func VerifyFrom(root string, cp Checkpoint, each func(line []byte)) (rep Report, ok bool) {
	var heads map[lineID]int64
	if len(legacyParts(root)) > 0 {
		return Report{}, false // a split legacy file: its offsets are not the file's
	}
	if cp.Size > 0 {
		if rep, ok = verifyLegacyFrom(root, cp, each); !ok {
			return Report{}, false
		}
		rep.Head = Head{}
	} else if st, err := os.Stat(ledgerPath(root)); err == nil && st.Size() > 0 {
		return Report{}, false
	}
	legacyHead := rep.legacy
	heads = map[lineID]int64{}
	if id, ok := parsePrev(legacyHead.Hash); ok {
		heads[id] = legacyHead.Seq
	}
	segs, bad, err := ListSegments(root)
	if err != nil || len(bad) > 0 {
		return Report{}, false
	}
	known := make(map[string]SegmentCheckpoint, len(cp.Segments))
	for _, s := range cp.Segments {
		known[s.File] = s
	}
	var fresh []*segResult
	var claims []*Sealed         // what each segment says its writer sealed
	changed := map[string]bool{} // the segments new or grown since cp
	for _, seg := range segs {
		path := filepath.Join(root, filepath.FromSlash(seg.Rel))
		k, had := known[seg.Rel]
		delete(known, seg.Rel)
		if !had {
			r := checkSegment(root, seg, each)
			fresh = append(fresh, r)
			changed[seg.Rel] = true
			if r.sealed != nil {
				if !sealable(seg, r.sealed) {
					return Report{}, false
				}
				claims = append(claims, r.sealed)
			}
			rep.addSegment(r, 0)
			continue
		}
		st, err := os.Stat(path)
		if err != nil || st.Size() < k.Size {
			return Report{}, false
		}
		last, ok, err := lineEndingAt(path, k.Size)
		if err != nil || !ok || digest.Bytes(last) != k.Hash {
			return Report{}, false
		}
		r := &segResult{seg: seg, each: each, records: k.Records, nlines: k.Lines, head: Head{Seq: k.Seq, Hash: k.Hash}}
		if k.Sealed != (Sealed{}) {
			sealed := k.Sealed
			r.sealed = &sealed
			claims = append(claims, r.sealed)
		}
		if st.Size() > k.Size {
			changed[seg.Rel] = true
			data, err := readFrom(path, k.Size)
			if err != nil {
				return Report{}, false
			}
			id, _ := parsePrev(k.Hash)
			checkSegmentBytes(r, data, k.Lines, &segLine{id, k.Seq})
		}
		rep.addSegment(r, st.Size())
	}
	if len(known) > 0 {
		return Report{}, false // a verified segment is gone
	}
	for _, h := range rep.Segments {
		if id, ok := parsePrev(h.Hash); ok {
			heads[id] = h.Seq
		}
	}
	if !sealedHold(rep.Segments, claims, changed) {
		return Report{}, false
	}
	for _, r := range fresh {
		if r.first != nil && r.first.Metadata.Intenthook.Prev == nil && cp.Size > 0 {
			return Report{}, false // beside the legacy file: the whole ledger says which began it
		}
		if r.first == nil || r.first.Metadata.Intenthook.Prev == nil {
			if r.first != nil && *r.first.Metadata.Intenthook.Seq != 1 {
				rep.Errors = append(rep.Errors, Problem{File: r.seg.Rel, Line: 1, Message: fmt.Sprintf("seq %d after prev null, want 1", *r.first.Metadata.Intenthook.Seq)})
			}
			continue
		}
		id, ok := parsePrev(*r.first.Metadata.Intenthook.Prev)
		seq, found := heads[id]
		if !ok || !found {
			return Report{}, false // starts mid-file, or from nothing: the whole ledger says which
		}
		if *r.first.Metadata.Intenthook.Seq != seq+1 {
			rep.Errors = append(rep.Errors, Problem{File: r.seg.Rel, Line: 1, Message: fmt.Sprintf("seq %d, want %d (the record it starts from has seq %d)", *r.first.Metadata.Intenthook.Seq, seq+1, seq)})
		}
	}
	headOK := true
	checkHead(root, func(id lineID, seq int64) bool {
		s, found := heads[id]
		return found && s == seq
	}, func(int, string, ...any) { headOK = false })
	if !headOK {
		return Report{}, false
	}
	rep.finishSegments(root)
	return rep, true
}

// addSegment adds a checked segment to the report; size is its length in
// bytes, 0: len of the lines read.
func (rep *Report) addSegment(r *segResult, size int64) {
	if size == 0 {
		size = r.size
	}
	rep.Lines += r.nlines
	rep.Records += r.records
	rep.Errors = append(rep.Errors, r.problems...)
	rep.Warnings = append(rep.Warnings, r.warnings...)
	if r.nlines > 0 {
		rep.Segments = append(rep.Segments, FileHead{File: r.seg.Rel, Records: r.records, Seq: r.head.Seq, Hash: r.head.Hash})
		if len(r.problems) == 0 {
			cp := SegmentCheckpoint{File: r.seg.Rel, Size: size, Lines: r.nlines, Records: r.records, Seq: r.head.Seq, Hash: r.head.Hash}
			if r.sealed != nil {
				cp.Sealed = *r.sealed
			}
			rep.segCPs = append(rep.segCPs, cp)
		}
	}
}

// finishSegments sets the digest over every file's head and the head.
func (rep *Report) finishSegments(root string) {
	if len(rep.Segments) == 0 {
		if rep.legacy.Hash != "" {
			rep.Head = Head{Seq: rep.legacy.Seq, Hash: rep.legacy.Hash}
		}
		return
	}
	heads := rep.Segments
	if rep.legacy.Hash != "" {
		heads = append([]FileHead{{File: FileName, Records: rep.legacyRecords, Seq: rep.legacy.Seq, Hash: rep.legacy.Hash}}, heads...)
	}
	rep.Digest = HeadsDigest(heads)
	rep.Head = newestHead(root, rep.Segments)
}

// verifyLegacyFrom is VerifyFrom for the legacy file.
func verifyLegacyFrom(root string, cp Checkpoint, each func(line []byte)) (rep Report, ok bool) {
	if !appendedOnly(root) {
		return Report{}, false
	}
	last, ok, err := lineEndingAt(ledgerPath(root), cp.Size)
	if err != nil || !ok || digest.Bytes(last) != cp.Hash {
		return Report{}, false
	}
	v := newVerifier(each)
	sum := sha256.Sum256(last)
	id := lineID(sum[:16])
	v.lines[id] = seen{seq: cp.Seq, line: cp.Lines, children: 1}
	v.prev, v.prevSeq, v.chained, v.partial, v.firstChained = id, cp.Seq, true, true, true
	v.lastSum, v.haveHead, v.rep.Head.Seq = sum, true, cp.Seq
	v.rep.Lines, v.size = cp.Lines, cp.Size
	err = scanChecked(root, cp.Size, func(ck *checked) {
		ck.n += cp.Lines
		v.line(ck)
	})
	rep = v.finish("", err)
	if v.abandoned || slices.ContainsFunc(rep.Errors, func(p Problem) bool { return p.Line == 0 }) {
		return Report{}, false // a line before the checkpoint
	}
	rep.Records += cp.Lines // the prefix's lines verified before
	rep.setLegacy()
	return rep, true
}

// setLegacy remembers the legacy file's part of the report, before the
// segments are added to it.
func (rep *Report) setLegacy() {
	rep.legacyRecords = rep.Records
	if rep.Head.Hash != "" {
		rep.legacy = Checkpoint{Size: rep.Size, Lines: rep.Lines, Seq: rep.Head.Seq, Hash: rep.Head.Hash}
	}
}

// readFrom reads a file from offset off to its end.
func readFrom(path string, off int64) ([]byte, error) {
	f, err := osfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	buf := make([]byte, st.Size()-off)
	return buf, readFull(f, buf, off)
}

// lineEndingAt is LineBefore for a path: the line whose newline is the
// byte before end, read backwards from there only.
func lineEndingAt(path string, end int64) (line []byte, ok bool, err error) {
	if end <= 0 {
		return nil, false, nil
	}
	f, err := osfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("open ledger: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, fmt.Errorf("read ledger: %w", err)
	}
	if st.Size() < end {
		return nil, false, nil
	}
	var nl [1]byte
	if err := readFull(f, nl[:], end-1); err != nil {
		return nil, false, err
	}
	if nl[0] != '\n' {
		return nil, false, nil
	}
	start, err := lineStart(f, end-1)
	if err != nil {
		return nil, false, err
	}
	if end-1-start > MaxLine {
		return nil, false, nil // longer than any line Append writes
	}
	line = make([]byte, end-1-start)
	if err := readFull(f, line, start); err != nil {
		return nil, false, err
	}
	return line, true, nil
}

// appendedOnly reports whether the ledger was last written by intenthook's
// appender: each append writes state/ledger.head after the ledger, so a
// ledger modified later than its head was changed by something else (an
// editor, a checkout, a merge), which a checkpoint cannot vouch for.
func appendedOnly(root string) bool {
	ls, err := os.Stat(ledgerPath(root))
	if err != nil {
		return false
	}
	hs, err := os.Stat(headPath(root))
	return err == nil && !ls.ModTime().After(hs.ModTime())
}

func forkMessage(from seen) string {
	if from.line == 0 {
		return "fork: starts a chain of its own (prev null)"
	}
	return fmt.Sprintf("fork: follows line %d (seq %d), not the line before it", from.line, from.seq)
}

// checkHead compares the branch's head file, when there is one, with the
// lines seen (has reports whether a line with that digest and seq is there).
func checkHead(root string, has func(lineID, int64) bool, errorf func(int, string, ...any)) {
	b, err := osfile.ReadFile(headPath(root))
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(bytes.TrimSpace(b)) == 0) {
		return // none yet (an append creates it empty before it writes)
	}
	if err != nil {
		errorf(0, "read %s: %v", headName, err)
		return
	}
	var h Head
	if err := json.Unmarshal(b, &h); err != nil {
		errorf(0, "%s does not parse: %v", headName, err)
		return
	}
	if h.Seq == 0 && h.Hash == "" {
		return // a segment begun, nothing appended yet
	}
	id, ok := parsePrev(h.Hash)
	if !ok || !has(id, h.Seq) {
		errorf(0, "tail removed: head says seq %d (%s), which is not in the ledger", h.Seq, h.Hash)
	}
}

// parsePrev turns "sha256:<hex>" into a lineID.
func parsePrev(s string) (lineID, bool) {
	var id lineID
	h, ok := strings.CutPrefix(s, digest.Prefix)
	if !ok || len(h) != 2*sha256.Size {
		return id, false
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return id, false
	}
	copy(id[:], b)
	return id, true
}

func quoteOrNull(s *string) string {
	if s == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *s)
}

// chain is what Verify reads of a line.
type chain struct {
	Version  string `json:"version"`
	Metadata struct {
		Intenthook struct {
			Seq  *int64  `json:"seq"`
			Prev *string `json:"prev"`
		} `json:"dev.intenthook"`
	} `json:"metadata"`
}

// chainFields reads a line's version, seq and prev. Lines intenthook wrote
// end in `"metadata":{"dev.intenthook":{"seq":N,"prev":…`: the validity
// scan finds the top-level metadata member, and seq and prev are read there
// in place, without decoding the record; any other shape is decoded.
func chainFields(line []byte) (chain, error) {
	var c chain
	ok, at := validRecord(line)
	if !ok {
		return c, json.Unmarshal(line, &c) // for the error's words
	}
	const meta = `{"dev.intenthook":{"seq":`
	if at < 0 || !bytes.HasPrefix(line[at:], []byte(meta)) || !bytes.HasPrefix(line, []byte(`{"version":"`)) {
		return c, json.Unmarshal(line, &c)
	}
	rest := line[at+len(meta):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	seq, err := strconv.ParseInt(string(rest[:j]), 10, 64)
	rest, follows := bytes.CutPrefix(rest[j:], []byte(`,"prev":`))
	// A key given twice would be read as its last value by decoders: such
	// a line is decoded, not read in place. (Outside strings, where quotes
	// are escaped, "seq": and "prev": can only be keys.)
	tail := line[at:]
	once := bytes.Count(tail, []byte(`"seq":`)) == 1 && bytes.Count(tail, []byte(`"prev":`)) == 1
	if err != nil || !follows || !once {
		return c, json.Unmarshal(line, &c)
	}
	switch {
	case bytes.HasPrefix(rest, []byte("null")):
	case len(rest) >= 2+len(digest.Prefix)+2*sha256.Size && rest[0] == '"' && rest[1+len(digest.Prefix)+2*sha256.Size] == '"':
		p := string(rest[1 : 1+len(digest.Prefix)+2*sha256.Size])
		c.Metadata.Intenthook.Prev = &p
	default:
		return c, json.Unmarshal(line, &c)
	}
	c.Version = "0.1.0"
	c.Metadata.Intenthook.Seq = &seq
	return c, nil
}

// lostTail reports a repair record an append wrote when lines it had
// written were gone: an error, a warning when git HEAD had moved.
func (v *verifier) lostTail(n int, line []byte) {
	r, err := ParseLine(line)
	if err != nil || r.Metadata.Intenthook.Event != EventRepair {
		return
	}
	switch string(r.Metadata.Intenthook.Code) {
	case CodeTailLost:
		v.errorf(n, "%s", r.Metadata.Intenthook.Reason)
	case CodeTailLostHeadMoved:
		v.rep.Warnings = append(v.rep.Warnings, Problem{Line: n, Message: r.Metadata.Intenthook.Reason})
	}
}

// VerifyIncrement verifies the lines r holds, appended after last (the
// line before them, line lastLine of the file; nil when they start it):
// what one commit added to its parent's ledger, judged without reading the
// lines before. Line numbers count from the start of the file. ok is false
// when the increment cannot be judged alone: last is not a chained line, or
// a line names a line before last (the fork a union merge or a rebase
// leaves), which only the whole ledger can judge.
func VerifyIncrement(last []byte, lastLine int, r io.Reader) (rep Report, ok bool) {
	v := newVerifier(nil)
	if last != nil {
		c, err := chainFields(last)
		if err != nil || c.Metadata.Intenthook.Seq == nil {
			return Report{}, false
		}
		sum := sha256.Sum256(last)
		id := lineID(sum[:16])
		seq := *c.Metadata.Intenthook.Seq
		v.lines[id] = seen{seq: seq, line: lastLine, children: 1}
		v.prev, v.prevSeq, v.chained, v.partial, v.firstChained = id, seq, true, true, true
		v.lastSum, v.haveHead, v.rep.Head.Seq = sum, true, seq
	}
	err := scanCheckedOf(func(emit func(n int, line []byte, complete bool) error) error {
		return scanLinesOf(r, func(n int, line []byte, complete bool) error {
			return emit(n+lastLine, line, complete)
		})
	}, v.line)
	rep = v.finish("", err)
	return rep, !v.abandoned
}
