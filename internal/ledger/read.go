package ledger

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/osfile"
)

// ErrTorn marks a last line that has no newline: a write cut short by a crash.
var ErrTorn = errors.New("torn line: no final newline")

// ledgerPath is where the ledger of the workspace at root lives.
func ledgerPath(root string) string {
	return filepath.Join(root, filepath.FromSlash(FileName))
}

// Scan calls fn for every line of the ledger (the legacy file and every
// segment), in the canonical order (see scanAll), with the line
// (without its newline; valid only during the call), its record, or the
// error that kept it from parsing (a torn last line gives ErrTorn). An error
// returned by fn stops the scan and is returned. A missing ledger has no lines.
func Scan(root string, fn func(line []byte, rec *Record, err error) error) error {
	return scanAll(root, nil, func(_ *source, line []byte, complete bool) error {
		if !complete {
			return fn(line, nil, ErrTorn)
		}
		rec, err := ParseLine(line)
		return fn(line, rec, err)
	})
}

// scanLinesFrom streams the legacy ledger's lines with their 1-based
// numbers (lines of any length; complete is false for bytes after the last
// newline), from byte offset from (the start of a line) of the legacy file;
// lines are numbered from 1 there.
func scanLinesFrom(root string, from int64, fn func(n int, line []byte, complete bool) error) error {
	if from == 0 {
		r, err := openLegacy(root)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("open ledger: %w", err)
		}
		defer r.Close()
		return scanLinesOf(r, fn)
	}
	f, err := openFrom(ledgerPath(root), from)
	if f == nil {
		return err
	}
	defer f.Close()
	return scanLinesOf(f, fn)
}

// openFrom opens the ledger file at path positioned at byte offset from. A
// missing file is (nil, nil): it has no lines.
func openFrom(path string, from int64) (*os.File, error) {
	f, err := osfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open ledger: %w", err)
	}
	if from > 0 {
		if _, err := f.Seek(from, io.SeekStart); err != nil {
			f.Close()
			return nil, fmt.Errorf("read ledger: %w", err)
		}
	}
	return f, nil
}

// scanLinesOf calls fn with each line r holds (without its newline), lines
// numbered from 1; a last line without a newline comes with complete false.
func scanLinesOf(r io.Reader, fn func(n int, line []byte, complete bool) error) error {
	br := bufio.NewReaderSize(r, 2*MaxLine)
	var long []byte // a line longer than the buffer, gathered piece by piece
	for n := 1; ; n++ {
		chunk, err := br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			chunk, err = br.ReadSlice('\n')
		}
		line := chunk
		if len(long) > 0 {
			long = append(long, chunk...)
			line = long
		}
		switch {
		case errors.Is(err, io.EOF):
			if len(line) > 0 {
				return fn(n, line, false)
			}
			return nil
		case err != nil:
			return fmt.Errorf("read ledger: %w", err)
		}
		if err := fn(n, line[:len(line)-1], true); err != nil {
			return err
		}
		long = long[:0]
	}
}

// ReadTail returns the records in the last maxBytes of the newest few ledger
// files, in the canonical order: a line cut by that window, lines that do
// not parse and a torn last line are left out. It reads only the windows,
// however long the ledger.
func ReadTail(root string, maxBytes int64) ([]Record, error) {
	lines, err := recentLines(root, recentFiles(root), maxBytes, nil)
	return parseLines(lines), err
}

// ReadTailMentioning returns, in the canonical order, the records of the
// newest ledger files' last maxBytes whose line holds the JSON string word
// (an intent id, a path): only those lines are decoded. It keeps the
// records that mention word anywhere; callers check the field.
func ReadTailMentioning(root string, maxBytes int64, word string) ([]Record, error) {
	lines, err := TailLinesMentioning(root, maxBytes, word, 0, nil)
	return parseLines(lines), err
}

// TailLinesMentioning is ReadTailMentioning's search, for the lines of the
// newest n records whose line keep accepts (n 0: all; keep nil: every
// line; keep may only read the line, which lies in a mapping), copied, in
// the canonical order, left for the caller to decode (ParseLine, or
// ParseChange for what a change says). The newest files are searched
// first (the segments by modification time, then the legacy file),
// sharing maxBytes and n, each backwards from its end for the lines
// holding word. The windows are mapped, not read into the heap, so a
// search that stops early touches only the pages it searched: a hook
// showing an intent's last few records pays for those, not for a MiB of
// fresh memory.
func TailLinesMentioning(root string, maxBytes int64, word string, n int, keep func(line []byte) bool) ([][]byte, error) {
	all, err := tailMentions(root, recentFiles(root), maxBytes, []byte(strconv.Quote(word)), n, keep)
	return sortedLines(all), err
}

// tailMentions is TailLinesMentioning's search of files (the legacy
// file, then the segments, newest first), its lines not yet in order.
func tailMentions(root string, files []string, maxBytes int64, quoted []byte, n int, keep func(line []byte) bool) ([]keyedMention, error) {
	var all []keyedMention
	var firstErr error
	budget, want := maxBytes, n
	for k := range files {
		i := (k + 1) % len(files) // the legacy file, the oldest, last
		if budget <= 0 || n > 0 && want <= 0 {
			break
		}
		rel := files[i]
		w, err := mentionLines(filepath.Join(root, filepath.FromSlash(rel)), mark{}, budget, quoted, want, keep)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		budget, want = budget-w.used, want-w.kept
		all = w.keyed(all, rel, i)
	}
	return all, firstErr
}

// keyedMention is a line found in a ledger file, with its place in the
// canonical order.
type keyedMention struct {
	k   lineKey
	rel string
	mention
}

// keyed appends w's lines, found in file i of a search (rel), keyed.
func (w *window) keyed(all []keyedMention, rel string, i int) []keyedMention {
	writer := writerOf(rel)
	for _, m := range w.found {
		all = append(all, keyedMention{keyOf(m.line, writer, i, int(m.off)), rel, m})
	}
	return all
}

// sortedLines returns the lines of all in the canonical order.
func sortedLines(all []keyedMention) [][]byte {
	sortMentions(all)
	return linesOf(all)
}

// sortMentions puts all in the canonical order.
func sortMentions(all []keyedMention) {
	slices.SortFunc(all, func(a, b keyedMention) int { return a.k.compare(&b.k) })
}

// linesOf returns the lines of all, in its order.
func linesOf(all []keyedMention) [][]byte {
	lines := make([][]byte, len(all))
	for i, e := range all {
		lines[i] = e.line
	}
	return lines
}

// A mention is a line a search found, and where in what it searched the
// line begins.
type mention struct {
	off  int64
	line []byte
}

// A mark is how far a search of a ledger file went: the file (its
// identity, osfile.FileID) and where its complete lines ended. A later
// search from the mark reads only what was appended since.
type mark struct {
	id  uint64
	end int64
}

// A window is what mentionLines searched of one file and found there.
type window struct {
	found []mention // copied, at their offsets in the file, in file order
	kept  int
	used  int64 // how many bytes the search went back
	// The file's mark for a later search: where its complete lines end.
	mark mark
	// whole: the search reached its floor (it went back over everything
	// since it, or found its n lines before).
	whole bool
}

// readBelow is the largest range mentionLines reads rather than maps: a
// mapping's unmap flushes the other processors' TLBs, which on a virtual
// machine costs more than reading a resumed search's few KiB.
const readBelow = 64 << 10

// mentionLines returns the complete lines of the file's last maxBytes
// after floor's end (when floor names this file and ends on a line: a
// search resumed) that hold quoted and keep (when set) accepts: from the
// end back, up to the nth (n 0: all). A line cut by the window's start
// and a torn last line are left out.
func mentionLines(path string, floor mark, maxBytes int64, quoted []byte, n int, keep func([]byte) bool) (window, error) {
	f, err := osfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return window{}, nil
	}
	if err != nil {
		return window{}, fmt.Errorf("open ledger: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return window{}, fmt.Errorf("read ledger tail: %w", err)
	}
	size, id := st.Size(), osfile.FileID(path, st)
	lowest := floor.end
	if floor.id != id || lowest > size {
		lowest = 0 // another file now, or not the one marked
	}
	start := max(lowest, size-maxBytes)
	// One byte before the window tells whether it starts on a line.
	from := max(0, start-1)
	data, unmap, ok := []byte(nil), func() {}, false
	if size-from > readBelow {
		data, unmap, ok = osfile.MapRange(f, from, size-from)
	}
	if !ok {
		data, unmap = make([]byte, size-from), func() {}
		if err := readFull(f, data, from); err != nil {
			return window{}, fmt.Errorf("read ledger tail: %w", err)
		}
	}
	defer unmap()
	var w window
	var found []mention
	var back, end int
	if osfile.Faulted(func() { found, w.kept, back, end = scanMentions(data, start > 0, quoted, n, keep) }) {
		return window{}, errors.New("read ledger tail: the ledger was cut short while read")
	}
	for _, m := range found {
		w.found = append(w.found, mention{from + m.off, bytes.Clone(m.line)})
	}
	w.used = int64(len(data) - back)
	w.mark = mark{id, from + int64(end)}
	// A resumed window begins on a line: the byte before it ends one.
	w.whole = n > 0 && w.kept >= n || start == lowest && (start == 0 || len(data) > 0 && data[0] == '\n')
	return w, nil
}

// scanMentions is mentionLines over data, the window with the byte before
// it when cut; the lines found are data's, at their offsets in it; back is
// where in data the search stopped, and end where its complete lines end.
// The window is searched in chunks from its end back, each chunk
// forwards: bytes.Index is vectorised where bytes.LastIndex hashes byte by
// byte (a MiB of ledger, 1.5 ms against 0.04 ms), and a search that finds
// its n lines near the end touches no page before them.
func scanMentions(data []byte, cut bool, quoted []byte, n int, keep func([]byte) bool) (found []mention, kept, back, end int) {
	lo := 0
	if cut {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil, 0, 0, 0
		}
		lo = i + 1
	}
	end = bytes.LastIndexByte(data, '\n') + 1 // a torn last line is not a line
	last := end
	var hits []int
	for hi := last; hi > lo; {
		from := max(lo, hi-mentionChunk)
		hits = mentionsIn(data[:min(last, hi+len(quoted)-1)], from, quoted, hits[:0])
		hi = from
		for _, i := range slices.Backward(hits) {
			if i+len(quoted) > last {
				continue // in a line taken already
			}
			from := lo + bytes.LastIndexByte(data[lo:i], '\n') + 1
			to := i + bytes.IndexByte(data[i:last], '\n')
			line := data[from:to]
			last, hi = from, min(hi, from)
			if keep != nil && !keep(line) {
				continue
			}
			found = append(found, mention{int64(from), line})
			if kept++; n > 0 && kept >= n {
				slices.Reverse(found)
				return found, kept, last, end
			}
		}
	}
	slices.Reverse(found)
	return found, kept, lo, end
}

// mentionChunk is how much of a window scanMentions searches at a time.
const mentionChunk = 64 << 10

// mentionsIn appends to hits where quoted, a JSON string, begins in data
// at from or after, in order. It searches for the string without its
// opening quote (an id or a path begins with a byte far rarer in JSON
// than a quote, which bytes.Index would stop at in every field) and
// checks the quote before each hit.
func mentionsIn(data []byte, from int, quoted []byte, hits []int) []int {
	if len(quoted) < 2 {
		return hits
	}
	rest := quoted[1:]
	for i := from + 1; i <= len(data); {
		j := bytes.Index(data[i:], rest)
		if j < 0 {
			break
		}
		if at := i + j - 1; data[at] == quoted[0] {
			hits = append(hits, at)
		}
		i += j + 1
	}
	return hits
}

// ReadSince returns the records appended since about since, in the
// canonical order, from the last maxBytes of this branch's active segment
// (and of the segments before it that it began after since - slack: a
// rollover sealed them meanwhile) and of the legacy file at most (the
// records this work tree's hooks wrote). It reads backwards from the end and stops at the first line
// stamped before since - slack: lines are appended in the order of their
// stamps, but for the wait for the ledger's lock (slack covers it). A
// record spooled under a busy lock and appended much later than its stamp
// can end the reading early; the records it hides are then missed. Usually
// nothing was appended since, and only the last line is looked at, however
// large maxBytes is.
func ReadSince(root string, since time.Time, slack time.Duration, maxBytes int64) ([]Record, error) {
	cutoff := since.Add(-slack)
	files := []string{FileName}
	if last := lastLegacy(root); last != "" {
		files = []string{last}
	}
	if seg := activeSegment(root); seg != "" {
		files = append(files, sealedSince(root, seg, cutoff)...)
		files = append(files, seg)
	}
	lines, err := recentLines(root, files, maxBytes, func(line []byte) bool {
		t, ok := stampOf(line)
		return ok && t.Before(cutoff)
	})
	return parseLines(lines), err
}

// maxSealedSince bounds the segments sealedSince goes back: records since a
// moment are a few calls' worth, and segments hold megabytes.
const maxSealedSince = 8

// sealedSince returns the segments before seg, oldest first, that may hold
// records stamped at or after cutoff: the writer's previous segment while
// the one after it begins at or after cutoff. Usually seg began before
// cutoff and only its first line is read.
func sealedSince(root, seg string, cutoff time.Time) []string {
	var out []string
	for cur := seg; len(out) < maxSealedSince; {
		if t, ok := firstStamp(root, cur); ok && t.Before(cutoff) {
			break
		}
		prev := previousSegment(root, cur)
		if prev == "" {
			break
		}
		out = append(out, prev)
		cur = prev
	}
	slices.Reverse(out)
	return out
}

// firstStamp is the timestamp of a segment's first line.
func firstStamp(root, rel string) (time.Time, bool) {
	f, err := osfile.Open(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return time.Time{}, false
	}
	defer f.Close()
	buf := make([]byte, 1024) // the stamp is near a line's start
	n, _ := f.ReadAt(buf, 0)
	return stampOf(buf[:n])
}

// previousSegment is the segment its writer wrote before rel: the one
// numbered next below it, in whatever month ("" when there is none). The
// usual case, number n-1 in rel's own month, is one lstat.
func previousSegment(root, rel string) string {
	s, ok := ParseSegment(rel)
	if !ok || s.N <= 1 {
		return ""
	}
	if prev := segmentRel(s.Writer, segMonth(rel), s.N-1); exists(root, prev) {
		return prev
	}
	prev := ""
	for _, x := range writerSegments(root, s.Writer) {
		if x.N < s.N {
			prev = x.Rel
		}
	}
	return prev
}

func exists(root, rel string) bool {
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil
}

// activeSegment is the segment the branch's head file names, "" when none.
func activeSegment(root string) string {
	f, err := osfile.Open(headPath(root))
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, headSize)
	n, _ := f.ReadAt(buf, 0)
	return parseHeadFile(buf[:n]).Seg
}

// recentLines reads the tail of each file (root-relative) and returns their
// complete lines in the canonical order, the newest maxBytes of them.
func recentLines(root string, files []string, maxBytes int64, stop func([]byte) bool) ([][]byte, error) {
	type keyed struct {
		k    lineKey
		line []byte
	}
	var all []keyed
	var firstErr error
	for i, rel := range files {
		lines, err := tailLines(filepath.Join(root, filepath.FromSlash(rel)), maxBytes, stop)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		w := writerOf(rel)
		for n, line := range lines {
			all = append(all, keyed{keyOf(line, w, i, n), line})
		}
	}
	slices.SortFunc(all, func(a, b keyed) int { return a.k.compare(&b.k) })
	var size int64
	from := len(all)
	for from > 0 && size+int64(len(all[from-1].line))+1 <= maxBytes {
		from--
		size += int64(len(all[from].line)) + 1
	}
	out := make([][]byte, 0, len(all)-from)
	for _, e := range all[from:] {
		out = append(out, e.line)
	}
	return out, firstErr
}

// stampOf reads a record line's timestamp without decoding the line.
func stampOf(line []byte) (time.Time, bool) {
	const key = `"timestamp":"`
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return time.Time{}, false
	}
	v := line[i+len(key):]
	j := bytes.IndexByte(v, '"')
	if j < 0 {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, string(v[:j]))
	return t, err == nil
}

// tailLines returns the complete lines of the file's last maxBytes, in
// file order, without the line cut by the window. With stop, the window
// grows from a small one, doubling, until it holds a line stop accepts (that
// line and all before it are left out) or reaches maxBytes.
func tailLines(path string, maxBytes int64, stop func([]byte) bool) ([][]byte, error) {
	f, err := osfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open ledger: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read ledger tail: %w", err)
	}
	size := st.Size()
	window := maxBytes
	if stop != nil {
		window = min(maxBytes, 8<<10)
	}
	for {
		lines, whole, err := windowLines(f, size, window)
		if err != nil || stop == nil {
			return lines, err
		}
		for i := len(lines) - 1; i >= 0; i-- {
			if stop(lines[i]) {
				return lines[i+1:], nil
			}
		}
		if whole || window >= maxBytes {
			return lines, nil
		}
		window = min(2*window, maxBytes)
	}
}

// windowLines reads the last window bytes of a ledger of size bytes and
// returns its complete lines; whole reports that the window held the whole
// ledger.
func windowLines(f *os.File, size, window int64) (lines [][]byte, whole bool, err error) {
	start := max(0, size-window)
	// One byte before the window tells whether it starts on a line.
	from := max(0, start-1)
	buf := make([]byte, size-from)
	if err := readFull(f, buf, from); err != nil {
		return nil, false, err
	}
	if start > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return nil, false, nil
		}
		buf = buf[i+1:]
	}
	for len(buf) > 0 {
		line, rest, complete := bytes.Cut(buf, []byte("\n"))
		buf = rest
		if !complete {
			break
		}
		lines = append(lines, line)
	}
	return lines, start == 0, nil
}

// parseLines decodes lines, leaving out those that do not parse.
func parseLines(lines [][]byte) []Record {
	var out []Record
	for _, line := range lines {
		if rec, err := ParseLine(line); err == nil {
			out = append(out, *rec)
		}
	}
	return out
}

// ReadHead returns the newest line's seq and digest of this branch: its
// active segment's last line, else the legacy file's, read backwards from
// the end: the zero Head for an empty or missing ledger. A torn tail is not
// a line: the head is the last complete one.
func ReadHead(root string) (Head, error) {
	path := ledgerPath(root)
	if last := lastLegacy(root); last != "" {
		path = filepath.Join(root, filepath.FromSlash(last))
	}
	if seg := activeSegment(root); seg != "" {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(seg))); err == nil {
			path = filepath.Join(root, filepath.FromSlash(seg))
		}
	}
	f, err := osfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Head{}, nil
	}
	if err != nil {
		return Head{}, fmt.Errorf("open ledger: %w", err)
	}
	defer f.Close()
	t, _, err := readTip(f)
	return t.Head, err
}

// Query selects records; zero fields select everything.
type Query struct {
	Intent  string    // metadata intent_id
	File    string    // a root-relative path the record changed or names
	Session string    // metadata session_id
	Since   time.Time // records at or after this time
	Limit   int       // keep only the newest Limit records; 0: all
}

// Select returns the records matching q, in the canonical order (newest
// last). Lines that do not
// parse are skipped (Verify reports them).
func Select(root string, q Query) ([]Record, error) {
	file := cleanPath(q.File)
	needles := q.needles(file)
	var out []Record
	// Lines without the needles cannot match: not worth ordering or decoding.
	keep := func(line []byte) bool {
		for _, n := range needles {
			if !bytes.Contains(line, n) {
				return false
			}
		}
		return true
	}
	err := scanAll(root, keep, func(_ *source, line []byte, complete bool) error {
		if !complete {
			return nil
		}
		rec, err := ParseLine(line)
		if err != nil || !q.matches(rec, file) {
			return nil
		}
		out = append(out, *rec)
		// Keep memory bounded by the limit, not by the ledger.
		if q.Limit > 0 && len(out) >= 2*q.Limit {
			out = append(out[:0], out[len(out)-q.Limit:]...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[len(out)-q.Limit:]
	}
	return out, nil
}

// needles are byte strings every matching line contains, so that lines
// without them are skipped before decoding: the intent id, the session id
// and the path, each only when it is made of characters JSON writers leave
// as they are (letters, digits, ".-_/"; a path with others, which another
// writer may escape, is not used as a needle).
func (q *Query) needles(file string) [][]byte {
	var out [][]byte
	for _, v := range []string{q.Intent, q.Session, file} {
		if v != "" && plain(v) {
			out = append(out, []byte(v))
		}
	}
	return out
}

func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' || c == '/') {
			return false
		}
	}
	return true
}

func (q *Query) matches(rec *Record, file string) bool {
	m := &rec.Metadata.Intenthook
	if q.Intent != "" && string(m.IntentID) != q.Intent {
		return false
	}
	if q.Session != "" && m.SessionID != q.Session {
		return false
	}
	if file != "" && !rec.Touches(file) {
		return false
	}
	if !q.Since.IsZero() {
		t, err := time.Parse(time.RFC3339Nano, rec.Timestamp)
		if err != nil || t.Before(q.Since) {
			return false
		}
	}
	return true
}

// Blame returns the records that changed or name path (root-relative),
// newest first.
func Blame(root, path string) ([]Record, error) {
	recs, err := Select(root, Query{File: path})
	if err != nil {
		return nil, err
	}
	slices.Reverse(recs)
	return recs, nil
}

// cleanPath brings a root-relative path into the ledger's form: "/"
// separators, no "./" or trailing slash.
func cleanPath(p string) string {
	if p == "" {
		return ""
	}
	return strings.TrimPrefix(path.Clean(filepath.ToSlash(p)), "./")
}
