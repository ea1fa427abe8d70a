package ledger

import (
	"bytes"
	"cmp"
	"context"
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
	"time"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/redact"
	"github.com/intenthook/intenthook/internal/state"
)

// MaxLine is the longest line Append writes, its newline included. Readers
// and `git diff` stay comfortable, and a line stays far below what one
// write() puts down in one piece.
const MaxLine = 64 << 10

// DefaultLockTimeout is how long Append waits for the ledger lock before it
// spools (config lock_timeout).
const DefaultLockTimeout = 2 * time.Second

// tailChunk is how much the tail is read backwards at a time: a few records,
// so finding the last line is one read on a ledger of any length.
const tailChunk = 16 << 10

// Ledger appends records to the ledger of the workspace at Root.
type Ledger struct {
	Root        string           // the workspace root, holding .orchestration/
	LockTimeout time.Duration    // zero: DefaultLockTimeout
	Fsync       bool             // fsync each line and spool file (config ledger.fsync)
	Now         func() time.Time // nil: time.Now
	ToolVersion string           // tool.version stamped on records; "": "dev"
	// SegmentBytes is the size at which a segment is sealed (config
	// ledger.segment_bytes); zero: DefaultSegmentBytes.
	SegmentBytes int64
	// Placed, when set, is told where each record of an Append landed:
	// the segment (root-relative) and the offset just past its line, for
	// a reader that must find that record again without a scan
	// (RecordAt). A record spooled for a later writer is not told.
	Placed func(r *Record, segment string, end int64)
}

// Head names the newest line: its seq and the digest of its bytes.
type Head struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// Append adds records to the ledger, in order, each on its own line. It fills
// what the caller left empty (version, id, timestamp, tool) and assigns
// metadata seq and prev, in the records themselves.
//
// Under the ledger lock it first appends what earlier writers spooled, then
// repairs a torn tail (the fragment goes to state/, a repair record to the
// ledger), then writes recs. When the lock cannot be had in time or the
// ledger cannot be written, the records are spooled to state/spool/ for the
// next writer and Append returns nil: a hook's decision stands and nothing is
// lost. It returns an error only when spooling fails too.
//
// Called with no records, Append only drains the spool, if there is one.
func (l *Ledger) Append(ctx context.Context, recs ...*Record) error {
	now := l.now()
	for _, r := range recs {
		l.stamp(r, now)
	}
	if err := state.Ensure(l.Root); err != nil {
		return fmt.Errorf("append to ledger: %w", err)
	}
	if len(recs) == 0 && !l.spoolPending() {
		return nil
	}
	unlock, err := state.Lock(ctx, l.Root, state.LockLedger, l.lockTimeout())
	if err != nil {
		return l.spool(recs, err)
	}
	defer unlock()
	unwritten, err := l.appendLocked(recs)
	if err != nil {
		return l.spool(unwritten, err)
	}
	return nil
}

func (l *Ledger) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func (l *Ledger) lockTimeout() time.Duration {
	if l.LockTimeout > 0 {
		return l.LockTimeout
	}
	return DefaultLockTimeout
}

// stamp fills the fields every record has and the caller need not care about.
func (l *Ledger) stamp(r *Record, now time.Time) {
	if r.Version == "" {
		r.Version = SpecVersion
	}
	if r.ID == "" {
		r.ID = newID()
	}
	if r.Timestamp == "" {
		r.Timestamp = FormatTime(now)
	}
	if r.Tool == nil {
		r.Tool = &Tool{Name: "intenthook", Version: cmp.Or(l.ToolVersion, "dev")}
	}
	m := &r.Metadata.Intenthook
	if m.Format == 0 {
		m.Format = Format
	}
	redactRecord(m)
}

// redactRecord takes secrets out of the texts a record carries before they
// reach the committed ledger, which can never be rewritten; the digest of
// the text as given stays beside it, so a person holding the secret can
// still match the record.
func redactRecord(m *Meta) {
	if s, ok := redact.Text(m.Command); ok {
		if m.CommandHash == "" {
			m.CommandHash = digest.String(m.Command)
		}
		m.Command = s
		m.Redacted = append(m.Redacted, "command")
	}
	if s, ok := redact.Text(string(m.Error)); ok {
		if m.ErrorHash == "" {
			m.ErrorHash = digest.String(string(m.Error))
		}
		m.Error = NullString(s)
		m.Redacted = append(m.Redacted, "error")
	}
	if s, ok := redact.Text(m.Reason); ok {
		m.Reason = s
		m.Redacted = append(m.Redacted, "reason")
	}
}

// stampBefore reports whether timestamp a is earlier than b: compared as
// strings when both are written as FormatTime writes them, else parsed.
// A stamp that does not parse is never earlier.
func stampBefore(a, b string) bool {
	const n = len("2006-01-02T15:04:05.000Z")
	if len(a) == n && len(b) == n && a[n-1] == 'Z' && b[n-1] == 'Z' {
		return a < b
	}
	ta, errA := time.Parse(time.RFC3339Nano, a)
	tb, errB := time.Parse(time.RFC3339Nano, b)
	return errA == nil && errB == nil && ta.Before(tb)
}

// FormatTime writes t as records do: UTC, RFC 3339 with milliseconds.
func FormatTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// appendLocked writes the spool, a repair record if the active segment's
// tail is torn or lost, and recs, into this writer's active segment (the one
// the branch's head file names, while the branch is still at the commit it
// started on and the segment is under its size), else into a new one. On
// failure it returns the records that are neither in the ledger nor in the
// spool, for the caller to spool.
func (l *Ledger) appendLocked(recs []*Record) (unwritten []*Record, err error) {
	// The branch's head file is opened once: read for the active segment
	// and a lost tail, then rewritten in place after the append. Without
	// it (no state/ yet), every append starts a segment: it is a cache.
	branch := currentBranch(l.Root)
	head, _ := osfile.OpenFile(branch.path, os.O_RDWR|os.O_CREATE, 0o644)
	var hb []byte
	if head != nil {
		defer head.Close()
		buf := make([]byte, headSize)
		n, _ := head.ReadAt(buf, 0)
		hb = buf[:n]
	}
	hf := parseHeadFile(hb)
	wr := readWriter(l.Root)
	a := &appender{l: l, fsync: l.Fsync, limit: l.segmentBytes(), branch: branch, head: head, wr: wr, seg: hf.Seg, start: hf.Start}
	defer a.close()

	var repair *Record
	if hf.Seg != "" {
		t, active, rep, err := a.openSegment(hb, hf)
		if err != nil {
			return recs, err
		}
		a.tip, a.stamp, a.lastID, a.size, repair = t.Head, t.stamp, t.id, t.size, rep
		if !active {
			a.closeFile()
		}
	} else {
		t, from, rep, err := l.startingPoint(wr)
		if err != nil {
			return recs, err
		}
		a.tip, a.stamp, a.lastID, repair = t.Head, t.stamp, t.id, rep
		a.continueFrom(from, t.Head)
	}
	if repair != nil {
		l.stamp(repair, l.now())
	}
	began := a.tip
	defer func() {
		if a.tip != began && head != nil {
			writeHead(head, headFile{Head: a.tip, Commit: branch.commit, Seg: a.seg, Start: a.start})
		}
	}()

	spooled, err := l.loadSpool()
	if err != nil {
		return append(pendingRepair(repair), recs...), err
	}
	for _, s := range spooled {
		// A crash between appending a spooled record and removing its file
		// leaves that record both in the ledger (as its last line) and in the
		// spool; it is not appended twice.
		if s.rec.ID != a.lastID || s.rec.ID == "" {
			if err := a.write(s.rec); err != nil {
				return append(pendingRepair(repair), recs...), err
			}
		}
		// Should the removal fail, the next drain appends the record again:
		// a duplicate line is better than a lost one.
		_ = os.Remove(s.path)
	}
	if repair != nil {
		if err := a.write(repair); err != nil {
			return append([]*Record{repair}, recs...), err
		}
	}
	for i, rec := range recs {
		if err := a.write(rec); err != nil {
			return recs[i:], err
		}
	}
	return nil, nil
}

func (l *Ledger) segmentBytes() int64 {
	if l.SegmentBytes > 0 {
		return l.SegmentBytes
	}
	return DefaultSegmentBytes
}

// openSegment opens the segment the head file names: it repairs a torn
// tail (the fragment goes to state/) or notices a lost one, and reports
// whether appends may go on in it. A segment that is gone leaves the
// appender on the newest record the work tree still has.
func (a *appender) openSegment(hb []byte, hf headFile) (t tail, active bool, repair *Record, err error) {
	l := a.l
	path := filepath.Join(l.Root, filepath.FromSlash(hf.Seg))
	// One descriptor both reads the tail (pread is not moved by O_APPEND)
	// and appends.
	w, err := osfile.OpenFile(path, os.O_APPEND|os.O_RDWR, 0o644)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return tail{}, false, nil, fmt.Errorf("open ledger: %w", err)
	}
	if err != nil {
		t, from, rep, err := l.startingPoint(a.wr)
		if err != nil {
			return tail{}, false, nil, err
		}
		a.continueFrom(from, t.Head)
		if hf.Seq > 0 && rep == nil {
			moved := a.branch.commit != "" && committed(l.Root, hf.Seg)
			rep = lostRecord(hf, t.Head, moved, fmt.Sprintf("the segment %s is gone (the last append ended at seq %d, %s)", hf.Seg, hf.Seq, hf.Hash))
		}
		return t, false, rep, nil
	}
	t, fragment, err := readTip(w)
	if err != nil {
		w.Close()
		return tail{}, false, nil, err
	}
	a.w = w
	if fragment != nil {
		rel, err := l.saveFragment(fragment)
		if err != nil {
			return tail{}, false, nil, err
		}
		if err := w.Truncate(t.size); err != nil {
			return tail{}, false, nil, fmt.Errorf("truncate torn ledger: %w", err)
		}
		repair = &Record{Files: []File{}, Metadata: Metadata{Intenthook: Meta{
			Event:    EventRepair,
			Success:  true,
			Fragment: rel,
			Reason:   fmt.Sprintf("torn tail: %d bytes after the last newline of %s moved to %s", len(fragment), hf.Seg, rel),
		}}}
	}
	if t.size == 0 {
		// No whole line: the process that opened the segment died before
		// its first record was down. A segment is opened by the process
		// that writes its first line, in that line's month; this one
		// stays empty, and the chain goes on from the writer's newest
		// record, in a segment of its own.
		st, from, rep, err := l.startingPoint(a.wr)
		if err != nil {
			return tail{}, false, nil, err
		}
		a.continueFrom(from, st.Head)
		if repair == nil {
			repair = cmp.Or(rep, l.lostTail(st.Head, hb, a.branch, hf.Seg))
		}
		st.size = 0
		return st, false, repair, nil
	}
	if fragment == nil {
		// A torn tail is a crash mid-write, after the head's line: only a
		// whole tail can be lost.
		repair = l.lostTail(t.Head, hb, a.branch, hf.Seg)
	}
	seg, _ := ParseSegment(hf.Seg)
	active = hf.Start == a.branch.commit && a.wr.ID == seg.Writer && a.wr.N == seg.N &&
		a.wr.Root == rootDigest(l.Root) && t.size < a.limit
	if !active {
		// The segment is sealed now if it is the writer's newest: at the
		// last record this branch appended to it, or at its tip when
		// that is further (the head file is a cache).
		a.from = &Sealed{Segment: hf.Seg, LastSeq: t.Seq, LastHash: t.Hash}
		if hf.Seq > t.Seq && hf.Hash != "" {
			a.from.LastSeq, a.from.LastHash = hf.Seq, hf.Hash
		}
	}
	return t, active, repair, nil
}

// startingPoint is the record a branch with no active segment continues:
// the newest segment of this writer in the work tree that holds a line
// (from names it), else
// the legacy file's last line, else the newest record of another writer's
// segments (a work tree's first record continues the ledger it finds),
// else nothing: the first record of the repository has seq 1. A torn tail
// of the legacy file (an older version's crash) is repaired as a
// segment's would be: the fragment is no line, and goes to state/.
func (l *Ledger) startingPoint(wr writerFile) (t tail, from string, repair *Record, err error) {
	if wr.ID != "" && wr.Root == rootDigest(l.Root) {
		if t, rel := newestTipOfWriter(l.Root, wr.ID); rel != "" {
			return t, rel, nil, nil
		}
	}
	last := lastLegacy(l.Root)
	if last == "" {
		t, _ := newestOfLedger(l.Root)
		return t, "", nil, nil
	}
	f, err := osfile.OpenFile(filepath.Join(l.Root, filepath.FromSlash(last)), os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return tail{}, "", nil, nil
	}
	if err != nil {
		return tail{}, "", nil, fmt.Errorf("open ledger: %w", err)
	}
	defer f.Close()
	t, fragment, err := readTip(f)
	if err != nil || fragment == nil {
		return t, "", nil, err
	}
	rel, err := l.saveFragment(fragment)
	if err != nil {
		return tail{}, "", nil, err
	}
	if err := f.Truncate(t.size); err != nil {
		return tail{}, "", nil, fmt.Errorf("truncate torn ledger: %w", err)
	}
	return t, "", &Record{Files: []File{}, Metadata: Metadata{Intenthook: Meta{
		Event:    EventRepair,
		Success:  true,
		Fragment: rel,
		Reason:   fmt.Sprintf("torn tail: %d bytes after the last newline of %s moved to %s", len(fragment), last, rel),
	}}}, nil
}

func pendingRepair(r *Record) []*Record {
	if r == nil {
		return nil
	}
	return []*Record{r}
}

// appender writes lines into segments, chaining each to the one before,
// and starts a new segment when there is none open or the open one is full.
type appender struct {
	l      *Ledger
	w      *os.File // the open segment; nil: the next write starts one
	size   int64    // its size
	limit  int64
	tip    Head
	stamp  string // the tip's timestamp: no record goes below it
	lastID string
	fsync  bool
	branch branchHead
	head   *os.File
	wr     writerFile
	seg    string // the segment written to, root-relative
	start  string // the commit it started at
	// from is the segment the tip was read from and the furthest record
	// known of it: what the next segment says it sealed, when it is the
	// writer's newest. seal is that claim, for the new segment's first
	// record. fromNewest says from is the writer's newest segment that
	// holds a line: the ones numbered after it are empty.
	from, seal *Sealed
	fromNewest bool
}

// continueFrom makes the segment from (root-relative, "" for none), the
// writer's newest that holds a line, the one the chain goes on from.
func (a *appender) continueFrom(from string, tip Head) {
	if from != "" {
		a.from = &Sealed{Segment: from, LastSeq: tip.Seq, LastHash: tip.Hash}
		a.fromNewest = true
	}
}

func (a *appender) closeFile() {
	if a.w != nil {
		a.w.Close()
		a.w = nil
	}
}

func (a *appender) close() { a.closeFile() }

// write assigns rec its place in the chain and appends it with one write of
// the whole line: with O_APPEND, lines of concurrent writers (should the
// lock ever be bypassed) never interleave.
func (a *appender) write(rec *Record) error {
	if a.stamp != "" && stampBefore(rec.Timestamp, a.stamp) {
		// A repair, a spooled record or a call that waited on the lock
		// (a clock stepped back) is stamped no earlier than the line it
		// follows: the chain's time never goes back, and a segment's
		// first record is never in a month before its predecessor's.
		rec.Timestamp = a.stamp
	}
	if a.w == nil || a.size >= a.limit {
		if a.w != nil {
			a.from = &Sealed{Segment: a.seg, LastSeq: a.tip.Seq, LastHash: a.tip.Hash}
		}
		if err := a.roll(rec); err != nil {
			return err
		}
	}
	m := &rec.Metadata.Intenthook
	m.Seq = a.tip.Seq + 1
	m.Prev = NullString(a.tip.Hash)
	m.Sealed, a.seal = a.seal, nil
	line, err := fitLine(rec)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if faultAt(faultAppend) {
		_, _ = a.w.Write(line[:len(line)/2])
		kill()
	}
	n, err := a.w.Write(line)
	if err == nil && n != len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return fmt.Errorf("append to ledger: %w", err)
	}
	if a.fsync {
		// A failed fsync leaves the line in the file for every reader; it
		// is not spooled again, which would record it twice.
		_ = a.w.Sync()
	}
	a.size += int64(n)
	a.tip = Head{Seq: m.Seq, Hash: digest.Bytes(line[:len(line)-1])}
	a.stamp = rec.Timestamp
	a.lastID = rec.ID
	if a.l.Placed != nil {
		a.l.Placed(rec, a.seg, a.size)
	}
	return nil
}

// roll seals the open segment (it is never written again) and starts the
// writer's next one, in the month of rec, continuing the chain from the
// appender's tip. The writer's count is raised before the file is made and
// the head file names the new segment before its first line: a crash at
// any point leaves at most an unused number or an empty segment, and never
// a segment another append would write to again.
func (a *appender) roll(rec *Record) error {
	l := a.l
	a.closeFile()
	if a.wr.ID == "" || a.wr.Root != rootDigest(l.Root) {
		a.wr = writerFile{ID: newWriterID(), Root: rootDigest(l.Root)}
	}
	a.seal = a.sealing()
	for range 100 {
		a.wr.N++
		rel := segmentRel(a.wr.ID, month(rec.Timestamp), a.wr.N)
		a.wr.Seg = rel
		if err := state.Ensure(l.Root); err != nil {
			return fmt.Errorf("start ledger segment: %w", err)
		}
		if err := a.wr.write(l.Root, l.Fsync); err != nil {
			return fmt.Errorf("start ledger segment: %w", err)
		}
		if faultAt(faultSealCount) {
			kill()
		}
		path := filepath.Join(l.Root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("start ledger segment: %w", err)
		}
		w, err := osfile.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("start ledger segment: %w", err)
		}
		if faultAt(faultSealCreated) {
			kill()
		}
		a.w, a.size, a.seg, a.start = w, 0, rel, a.branch.commit
		if a.head != nil {
			writeHead(a.head, headFile{Head: a.tip, Commit: a.branch.commit, Seg: a.seg, Start: a.start})
		}
		return nil
	}
	return errors.New("start ledger segment: no free segment number")
}

// sealing is what the segment a roll starts says it sealed: the writer's
// newest segment, which is sealed now, and the last record it holds. It is
// the segment the chain continues when that is the newest (what the
// appender already read); else, after a switch to a branch whose own
// segment is older, the newest is found by the name the writer's file
// keeps and its tail read (the rare path). A segment of another writer
// (a copied work tree's) is not this writer's to seal.
func (a *appender) sealing() *Sealed {
	if a.wr.N == 0 {
		return nil
	}
	if f := a.from; f != nil {
		if s, ok := ParseSegment(f.Segment); ok && s.Writer == a.wr.ID && (s.N == a.wr.N || a.fromNewest) {
			return f
		}
	}
	s, ok := ParseSegment(a.wr.Seg)
	if !ok || s.Writer != a.wr.ID || s.N != a.wr.N || a.from != nil && a.from.Segment == a.wr.Seg {
		return nil
	}
	t, ok := tipOf(a.l.Root, a.wr.Seg)
	if !ok || t.size == 0 {
		return nil
	}
	return &Sealed{Segment: a.wr.Seg, LastSeq: t.Seq, LastHash: t.Hash}
}

// tail is the newest complete line and the ledger's size up to its newline.
type tail struct {
	Head
	id    string
	stamp string
	size  int64
}

// readTip finds the last complete line by reading backwards from the end, so
// its cost does not depend on the ledger's length. Bytes after the last
// newline are a torn tail: they are returned as fragment, and size excludes them.
func readTip(r *os.File) (t tail, fragment []byte, err error) {
	st, err := r.Stat()
	if err != nil {
		return t, nil, fmt.Errorf("read ledger tail: %w", err)
	}
	size := st.Size()
	if size == 0 {
		return t, nil, nil
	}
	var last [1]byte
	if _, err := r.ReadAt(last[:], size-1); err != nil {
		return t, nil, fmt.Errorf("read ledger tail: %w", err)
	}
	if last[0] != '\n' {
		start, err := lineStart(r, size)
		if err != nil {
			return t, nil, err
		}
		fragment = make([]byte, size-start)
		if err := readFull(r, fragment, start); err != nil {
			return t, nil, err
		}
		size = start
	}
	t.size = size
	if size == 0 {
		return t, fragment, nil
	}
	line, err := lastLine(r, size-1)
	if err != nil {
		return t, nil, err
	}
	t.Hash = digest.Bytes(line)
	// A last line that does not parse (or an old line without seq) counts as
	// seq 0: the chain goes on from its hash, and verify reports it. Both
	// fields are read in place from a line of intenthook's own shape: a
	// record type decoded through reflection costs a hook more than the
	// rest of its append.
	if c, err := chainFields(line); err == nil && c.Metadata.Intenthook.Seq != nil {
		t.Seq = *c.Metadata.Intenthook.Seq
	}
	t.id = recordID(line)
	t.stamp = string(stampBytes(line))
	return t, fragment, nil
}

// recordID returns a line's id, read in place from intenthook's own shape
// ({"version":"…","id":"…",…, the key once in any case: decoders match keys
// without case and take the last), else decoded.
func recordID(line []byte) string {
	if rest, ok := bytes.CutPrefix(line, []byte(`{"version":"`)); ok {
		if i := bytes.IndexByte(rest, '"'); i >= 0 {
			if rest, ok = bytes.CutPrefix(rest[i+1:], []byte(`,"id":"`)); ok {
				end := bytes.IndexByte(rest, '"')
				if end >= 0 && bytes.IndexByte(rest[:end], '\\') < 0 && bytes.Count(bytes.ToLower(line), []byte(`"id":`)) == 1 {
					return string(rest[:end])
				}
			}
		}
	}
	var r struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(line, &r)
	return r.ID
}

// lineStart returns the offset just after the last '\n' before end (0 when
// there is none), reading backwards in chunks.
func lineStart(r io.ReaderAt, end int64) (int64, error) {
	buf := make([]byte, tailChunk)
	for end > 0 {
		n := min(int64(len(buf)), end)
		off := end - n
		if err := readFull(r, buf[:n], off); err != nil {
			return 0, err
		}
		for i := n - 1; i >= 0; i-- {
			if buf[i] == '\n' {
				return off + i + 1, nil
			}
		}
		end = off
	}
	return 0, nil
}

// lastLine returns the line that ends at end (its '\n' is at end), reading
// backwards from 4 KiB, twice as much each time the line is longer: a record
// is about a kilobyte, and a fresh page of memory costs a hook process more
// than the read.
func lastLine(r io.ReaderAt, end int64) ([]byte, error) {
	for n := int64(4 << 10); ; n *= 2 {
		n = min(n, end)
		buf := make([]byte, n)
		if err := readFull(r, buf, end-n); err != nil {
			return nil, err
		}
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			return buf[i+1:], nil
		}
		if n == end {
			return buf, nil
		}
	}
}

func readFull(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF // the file shrank under us
	}
	return fmt.Errorf("read ledger at %d: %w", off, err)
}

// saveFragment keeps torn bytes under state/ and returns where, relative to
// the root. They are evidence, so they are fsynced before the ledger is cut.
func (l *Ledger) saveFragment(fragment []byte) (string, error) {
	name := "ledger-torn-" + strconv.FormatInt(time.Now().UnixNano(), 10) + ".jsonl"
	if err := state.WriteFile(state.Path(l.Root, name), fragment, 0o644, true); err != nil {
		return "", fmt.Errorf("keep torn ledger tail: %w", err)
	}
	return state.StateDir + "/" + name, nil
}

// headSize is the fixed length of a head file: the JSON padded with
// spaces, so that every rewrite is one small write over the same bytes (no
// temporary file, no rename, no truncation: each costs more than the append
// itself on an ordinary disk).
const headSize = 384

// headFile is what a branch's head file holds: the newest line, the git
// commit checked out when it was written, the active segment and the
// commit it started at.
type headFile struct {
	Head
	Commit string `json:"commit,omitempty"`
	Seg    string `json:"seg,omitempty"`
	Start  string `json:"start,omitempty"`
}

// parseHeadFile reads a head file written by writeHead (or by an older
// version: seq, hash and commit only), in place.
func parseHeadFile(b []byte) headFile {
	var h headFile
	h.Seq, _ = fieldInt(b, "seq")
	h.Hash, _ = fieldString(b, "hash")
	h.Commit, _ = fieldString(b, "commit")
	if seg, ok := fieldString(b, "seg"); ok {
		if _, valid := ParseSegment(seg); valid {
			h.Seg = seg
		}
	}
	h.Start, _ = fieldString(b, "start")
	return h
}

// Codes of the repair record an append writes when the ledger lost lines
// since this branch's last append: an error, or a warning when the segment
// is the version committed at HEAD (a git reset or checkout explains it).
const (
	CodeTailLost          = "tail_lost"
	CodeTailLostHeadMoved = "tail_lost_head_moved"
)

// lostTail compares this branch's head with the last line of its segment:
// when lines the head names are gone (fewer lines, or the last one
// rewritten), it returns the repair record saying so, which keeps verify
// reporting it after any number of later appends. A segment that grew past
// the head is no loss.
func (l *Ledger) lostTail(tip Head, b []byte, br branchHead, seg string) *Record {
	if len(b) == 0 {
		return nil
	}
	// The usual case, read without decoding: the head names the tip.
	if bytes.HasPrefix(b, []byte(`{"seq":`+strconv.FormatInt(tip.Seq, 10)+`,"hash":"`+tip.Hash+`"`)) {
		return nil
	}
	h := parseHeadFile(b)
	if h.Seq == 0 || h.Hash == "" {
		return nil
	}
	if tip.Seq > h.Seq || (tip.Seq == h.Seq && tip.Hash == h.Hash) {
		return nil
	}
	moved := br.commit != "" && committed(l.Root, seg)
	what := fmt.Sprintf("lines of %s after seq %d are gone (the last append ended at seq %d, %s)", seg, tip.Seq, h.Seq, h.Hash)
	if tip.Seq == h.Seq {
		what = fmt.Sprintf("the line of %s at seq %d was rewritten (it was %s)", seg, h.Seq, h.Hash)
	}
	return lostRecord(h, tip, moved, what)
}

func lostRecord(h headFile, tip Head, moved bool, what string) *Record {
	code := CodeTailLost
	note := ""
	if moved {
		code, note = CodeTailLostHeadMoved, fmt.Sprintf("; the segment is as git HEAD has it (a git reset or checkout put it there; the last append was at %.12s)", h.Commit)
	}
	return &Record{Files: []File{}, Metadata: Metadata{Intenthook: Meta{
		Event:   EventRepair,
		Success: true,
		Code:    NullString(code),
		Reason:  "ledger tail lost: " + what + note,
	}}}
}

// writeHead records the newest line and the active segment in the branch's
// head file (one per git branch: a checkout brings another branch's
// segments, and is no removed tail), so that verify on this machine notices
// when lines are later removed from the end and the next append finds its
// segment without listing a directory. It is a cache: failing to write it
// loses nothing.
func writeHead(f *os.File, h headFile) {
	b := headLine(h)
	if len(b) >= headSize {
		return
	}
	line := append(b, bytes.Repeat([]byte(" "), headSize-1-len(b))...)
	line = append(line, '\n')
	if _, err := f.WriteAt(line, 0); err != nil {
		return
	}
	if st, err := f.Stat(); err == nil && st.Size() > headSize {
		_ = f.Truncate(headSize)
	}
}

// headLine is headFile as JSON, written by hand: a struct type's first
// encoding costs a new process a fifth of a millisecond.
func headLine(h headFile) []byte {
	b := strconv.AppendInt([]byte(`{"seq":`), h.Seq, 10)
	b = appendString(append(b, `,"hash":`...), h.Hash)
	if h.Commit != "" {
		b = appendString(append(b, `,"commit":`...), h.Commit)
	}
	if h.Seg != "" {
		b = appendString(append(b, `,"seg":`...), h.Seg)
	}
	if h.Start != "" {
		b = appendString(append(b, `,"start":`...), h.Start)
	}
	return append(b, '}')
}

// spoolPending reports whether state/spool/ holds anything to drain.
func (l *Ledger) spoolPending() bool {
	entries, err := os.ReadDir(state.Path(l.Root, spoolDir))
	if err != nil {
		return false
	}
	return slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return isSpoolFile(e.Name()) })
}

// spool writes records that could not be appended to state/spool/, one file
// each, named so that the drain keeps their order: <unix nanos>-<uuid>.json.
// Seq and prev are left out; they are assigned when the record is drained.
//
// Writers add their files under the spool lock, which the drain holds while
// it lists the directory: a listing made while files are renamed into the
// directory is not a snapshot, and could see a writer's later record without
// its earlier one. Should the spool lock not come, the records are spooled
// all the same: losing one would be worse.
func (l *Ledger) spool(recs []*Record, cause error) error {
	if len(recs) == 0 {
		return nil
	}
	if err := state.Ensure(l.Root, spoolDir); err != nil {
		return fmt.Errorf("spool %d records after %v: %w", len(recs), cause, err)
	}
	if unlock, err := state.Lock(context.Background(), l.Root, state.LockSpool, spoolLockWait); err == nil {
		defer unlock()
	}
	// Spool files are drained in the order of their names. The wall clock
	// can step back (a VM's clock is adjusted), so a name never sorts
	// before one already waiting: a writer's records keep their order.
	base := time.Now().UnixNano()
	if last := l.lastSpooled(); base <= last {
		base = last + 1
	}
	for i, r := range recs {
		c := *r
		c.Metadata.Intenthook.Seq = 0
		c.Metadata.Intenthook.Prev = ""
		c.Metadata.Intenthook.Sealed = nil
		line := c.MarshalLine()
		name := strconv.FormatInt(base+int64(i), 10) + "-" + newID() + ".json"
		// Journaled first: the guard of a command running meanwhile takes
		// out a spool file no hook wrote.
		guard.Journal(l.Root, state.StateDir+"/"+spoolDir+"/"+name, append(line, '\n'))
		if err := state.WriteFile(state.Path(l.Root, spoolDir, name), append(line, '\n'), 0o644, l.Fsync); err != nil {
			return fmt.Errorf("spool record %s after %v: %w", r.ID, cause, err)
		}
	}
	return nil
}

// lastSpooled returns the largest name (in nanoseconds) in state/spool/.
func (l *Ledger) lastSpooled() int64 {
	entries, err := os.ReadDir(state.Path(l.Root, spoolDir))
	if err != nil {
		return 0
	}
	var last int64
	for _, e := range entries {
		if !isSpoolFile(e.Name()) {
			continue
		}
		prefix, _, _ := strings.Cut(e.Name(), "-")
		if n, err := strconv.ParseInt(prefix, 10, 64); err == nil && n > last {
			last = n
		}
	}
	return last
}

type spooled struct {
	path string
	rec  *Record
}

// loadSpool reads state/spool/, oldest first. A file that does not parse is
// renamed to .bad: kept for a person, out of every later writer's way. The
// directory is listed under the spool lock (see spool).
func (l *Ledger) loadSpool() ([]spooled, error) {
	dir := state.Path(l.Root, spoolDir)
	entries, err := l.listSpool(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read spool: %w", err)
	}
	type named struct {
		nanos int64
		name  string
	}
	var files []named
	for _, e := range entries {
		if !isSpoolFile(e.Name()) {
			continue
		}
		prefix, _, _ := strings.Cut(e.Name(), "-")
		n, _ := strconv.ParseInt(prefix, 10, 64)
		files = append(files, named{n, e.Name()})
	}
	slices.SortFunc(files, func(a, b named) int {
		return cmp.Or(cmp.Compare(a.nanos, b.nanos), strings.Compare(a.name, b.name))
	})
	var out []spooled
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		b, err := osfile.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("read spool: %w", err)
		}
		rec, err := ParseLine(b)
		if err != nil {
			_ = os.Rename(path, path+".bad")
			continue
		}
		out = append(out, spooled{path, rec})
	}
	return out, nil
}

// spoolLockWait bounds the wait for the spool lock, which is held for the
// time it takes to write or list a few small files. It is not counted in a
// call's lock budget: a record spooled because that budget ran out still
// takes its place in order.
const spoolLockWait = 200 * time.Millisecond

// listSpool lists the spool directory while no writer adds to it.
func (l *Ledger) listSpool(dir string) ([]fs.DirEntry, error) {
	if !l.spoolPending() {
		return nil, nil
	}
	if unlock, err := state.Lock(context.Background(), l.Root, state.LockSpool, spoolLockWait); err == nil {
		defer unlock()
	}
	return os.ReadDir(dir)
}

// isSpoolFile skips the temporary files of a spool write in progress
// (".name.tmp-…") and files set aside as .bad.
func isSpoolFile(name string) bool {
	return !strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".json")
}

// committed reports whether the ledger file rel is the version committed at
// HEAD: git put it there (a reset, a checkout), nobody edited it. It runs
// git, on the rare path of a lost tail only.
func committed(root, rel string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := git.Output(ctx, root, git.CleanEnv(), "diff", "--quiet", "--text", "--no-ext-diff", "--no-textconv", "HEAD", "--", rel)
	return err == nil
}

// headPath is the head file of the branch checked out at root:
// state/ledger@<branch>.head, state/ledger@detached.head, or
// state/ledger.head outside git.
func headPath(root string) string {
	return headFileOf(root, git.HeadRef(root))
}

func headFileOf(root, ref string) string {
	if ref == "" {
		return state.Path(root, headName)
	}
	return state.Path(root, "ledger@"+strings.NewReplacer("/", "%2F", "%", "%25").Replace(ref)+".head")
}

// branchHead is where an append keeps its head, and the commit checked
// out, found once per append.
type branchHead struct {
	path, commit string
}

func currentBranch(root string) branchHead {
	ref, commit := git.HeadInfo(root)
	return branchHead{headFileOf(root, ref), commit}
}
