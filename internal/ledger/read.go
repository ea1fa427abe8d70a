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
	"strings"
	"time"
)

// ErrTorn marks a last line that has no newline: a write cut short by a crash.
var ErrTorn = errors.New("torn line: no final newline")

// ledgerPath is where the ledger of the workspace at root lives.
func ledgerPath(root string) string {
	return filepath.Join(root, filepath.FromSlash(FileName))
}

// Scan calls fn for every line of the ledger, in file order, with the line
// (without its newline; valid only during the call), its record, or the
// error that kept it from parsing (a torn last line gives ErrTorn). An error
// returned by fn stops the scan and is returned. A missing ledger has no lines.
func Scan(root string, fn func(line []byte, rec *Record, err error) error) error {
	return scanLines(root, func(_ int, line []byte, complete bool) error {
		if !complete {
			return fn(line, nil, ErrTorn)
		}
		rec, err := ParseLine(line)
		return fn(line, rec, err)
	})
}

// scanLines streams the ledger's lines with their 1-based numbers. Lines of
// any length are read; complete is false for bytes after the last newline.
func scanLines(root string, fn func(n int, line []byte, complete bool) error) error {
	return scanLinesFrom(root, 0, fn)
}

// scanLinesFrom is scanLines from byte offset from (the start of a line);
// lines are numbered from 1 there.
func scanLinesFrom(root string, from int64, fn func(n int, line []byte, complete bool) error) error {
	f, err := os.Open(ledgerPath(root))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open ledger: %w", err)
	}
	defer f.Close()
	if from > 0 {
		if _, err := f.Seek(from, io.SeekStart); err != nil {
			return fmt.Errorf("read ledger: %w", err)
		}
	}
	br := bufio.NewReaderSize(f, 2*MaxLine)
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

// ReadTail returns the records in the last maxBytes of the ledger, in file
// order: a line cut by that window, lines that do not parse and a torn last
// line are left out. It reads only the window, however long the ledger.
func ReadTail(root string, maxBytes int64) ([]Record, error) {
	f, err := os.Open(ledgerPath(root))
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
	start := max(0, size-maxBytes)
	// One byte before the window tells whether it starts on a line.
	from := max(0, start-1)
	buf := make([]byte, size-from)
	if err := readFull(f, buf, from); err != nil {
		return nil, err
	}
	if start > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return nil, nil
		}
		buf = buf[i+1:]
	}
	var out []Record
	for len(buf) > 0 {
		line, rest, complete := bytes.Cut(buf, []byte("\n"))
		buf = rest
		if !complete {
			break
		}
		if rec, err := ParseLine(line); err == nil {
			out = append(out, *rec)
		}
	}
	return out, nil
}

// ReadHead returns the newest line's seq and digest, read backwards from the
// ledger's end: the zero Head for an empty or missing ledger. A torn tail is
// not a line: the head is the last complete one.
func ReadHead(root string) (Head, error) {
	f, err := os.Open(ledgerPath(root))
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

// Select returns the records matching q, newest last. Lines that do not
// parse are skipped (Verify reports them).
func Select(root string, q Query) ([]Record, error) {
	file := cleanPath(q.File)
	needles := q.needles(file)
	var out []Record
	err := scanLines(root, func(_ int, line []byte, complete bool) error {
		for _, n := range needles {
			if !bytes.Contains(line, n) {
				return nil // cannot match: not worth decoding
			}
		}
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
