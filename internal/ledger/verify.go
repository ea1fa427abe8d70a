package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/state"
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
}

// OK reports whether the ledger verified: forks are not errors.
func (r *Report) OK() bool { return len(r.Errors) == 0 }

// lineID is the first half of a line's sha256: enough to tell a million
// lines apart, and half the memory of the whole digest.
type lineID [16]byte

type seen struct {
	seq  int64
	line int
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
	var rep Report
	lines := make(map[lineID]seen, 1024)
	var lastSum [sha256.Size]byte // the newest line's digest, for the head
	haveHead := false
	var prev lineID // the line before this one
	var prevSeq int64
	chained := false
	errorf := func(n int, format string, args ...any) {
		rep.Errors = append(rep.Errors, Problem{n, fmt.Sprintf(format, args...)})
	}

	err := scanChecked(root, func(ck *checked) {
		n, line := ck.n, ck.line
		rep.Lines = n
		if !ck.complete {
			errorf(n, "torn tail: %d bytes without a final newline", len(line))
			return
		}
		sum := ck.sum
		id := lineID(sum[:16])
		seq := prevSeq + 1 // what an unreadable line is taken to be
		defer func() {
			lines[id] = seen{seq: seq, line: n}
			prev, prevSeq = id, seq
			lastSum, rep.Head.Seq, haveHead = sum, seq, true
		}()

		c, err := ck.chain, ck.err
		if err != nil {
			errorf(n, "does not parse: %v", err)
			return
		}
		rep.Records++
		if each != nil {
			each(line)
		}
		m := c.Metadata.Intenthook
		if m.Seq == nil && c.Version == "" && !chained {
			seq = 0 // an old line: not chained, but the first chained line may follow it
			return
		}
		chained = true
		if m.Seq == nil {
			errorf(n, "no seq")
			return
		}
		seq = *m.Seq
		// A prev of null follows the empty ledger, the line before line 1.
		from, found, follows := seen{}, true, n == 1
		if m.Prev != nil {
			target, ok := parsePrev(*m.Prev)
			from, found = lines[target]
			found = ok && found
			follows = target == prev && n > 1
		}
		switch {
		case !found:
			errorf(n, "prev %s names no earlier line", quoteOrNull(m.Prev))
			return
		case !follows:
			rep.Forks = append(rep.Forks, Problem{n, forkMessage(from)})
		}
		if seq != from.seq+1 {
			errorf(n, "seq %d, want %d", seq, from.seq+1)
		}
		return
	})
	if err != nil {
		errorf(0, "%v", err)
	}
	if haveHead {
		rep.Head.Hash = digest.Prefix + hex.EncodeToString(lastSum[:])
	}
	checkHead(root, lines, errorf)
	return rep
}

func forkMessage(from seen) string {
	if from.line == 0 {
		return "fork: starts a chain of its own (prev null)"
	}
	return fmt.Sprintf("fork: follows line %d (seq %d), not the line before it", from.line, from.seq)
}

// checkHead compares state/ledger.head, when there is one, with the lines seen.
func checkHead(root string, lines map[lineID]seen, errorf func(int, string, ...any)) {
	b, err := os.ReadFile(state.Path(root, headName))
	if errors.Is(err, fs.ErrNotExist) {
		return
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
