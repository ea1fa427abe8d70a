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
	"slices"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/osfile"
)

// Problem is one finding of Verify. Line is 1-based; 0 is the ledger as a
// whole.
type Problem struct {
	Line    int
	Message string
}

func (p Problem) String() string {
	if p.Line == 0 {
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
	Size     int64 // bytes read, from the start of the file
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
	return v.finish(root, err)
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
	v.rep.Errors = append(v.rep.Errors, Problem{n, fmt.Sprintf(format, args...)})
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
		v.rep.Forks = append(v.rep.Forks, Problem{n, forkMessage(from)})
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
		checkHead(root, v.lines, v.errorf)
	}
	return v.rep
}

// Checkpoint is a verified prefix of the ledger: its length in bytes and
// lines, and its last line's seq and digest.
type Checkpoint struct {
	Size  int64  `json:"size"`
	Lines int    `json:"lines"`
	Seq   int64  `json:"seq"`
	Hash  string `json:"hash"`
}

// CheckpointOf returns the checkpoint a clean report makes: the prefix it
// read.
func CheckpointOf(rep Report) Checkpoint {
	return Checkpoint{Size: rep.Size, Lines: rep.Lines, Seq: rep.Head.Seq, Hash: rep.Head.Hash}
}

// VerifyFrom verifies only what follows cp, a prefix verified before: it
// reads the prefix's last line back (its digest must still be cp's: else
// the prefix changed), then walks the lines after it. ok is false when the
// checkpoint does not hold, when the ledger was written after its head (by
// something other than intenthook's appender, which could have changed any
// line), or when a new line's prev names a line before the checkpoint (a
// fork from further back): the caller verifies the whole ledger instead.
// The report counts lines and bytes from the start of the file.
func VerifyFrom(root string, cp Checkpoint, each func(line []byte)) (rep Report, ok bool) {
	if !appendedOnly(root) {
		return Report{}, false
	}
	last, err := lineBefore(root, cp.Size)
	if err != nil || digest.Bytes(last) != cp.Hash {
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
	rep = v.finish(root, err)
	if v.abandoned || slices.ContainsFunc(rep.Errors, func(p Problem) bool { return p.Line == 0 }) {
		return Report{}, false // the head may name a line before the checkpoint
	}
	rep.Records += cp.Lines // the prefix's lines verified before
	return rep, true
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

// lineBefore returns the line that ends at byte end (its newline at end-1).
func lineBefore(root string, end int64) ([]byte, error) {
	f, err := osfile.Open(ledgerPath(root))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if end <= 0 {
		return nil, errors.New("empty prefix")
	}
	var nl [1]byte
	if err := readFull(f, nl[:], end-1); err != nil || nl[0] != '\n' {
		return nil, errors.New("the checkpoint does not end a line")
	}
	start, err := lineStart(f, end-1)
	if err != nil {
		return nil, err
	}
	line := make([]byte, end-1-start)
	return line, readFull(f, line, start)
}

func forkMessage(from seen) string {
	if from.line == 0 {
		return "fork: starts a chain of its own (prev null)"
	}
	return fmt.Sprintf("fork: follows line %d (seq %d), not the line before it", from.line, from.seq)
}

// checkHead compares state/ledger.head, when there is one, with the lines seen.
func checkHead(root string, lines map[lineID]seen, errorf func(int, string, ...any)) {
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
	id, ok := parsePrev(h.Hash)
	if s, found := lines[id]; !ok || !found || s.seq != h.Seq {
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
		v.rep.Warnings = append(v.rep.Warnings, Problem{n, r.Metadata.Intenthook.Reason})
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
