package ledger

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Reading one ledger file by byte offsets, for readers that keep a cursor
// per file (the export): the files are those Files lists.

// ScanFile calls fn for every line of the ledger file name (root-relative,
// one of Files) from byte offset from (the start of a line), with the line
// (without its newline; valid only during the call) and the offset just
// past it; complete is false for bytes after the last newline (a torn
// tail, or a line being appended). A missing file has no lines.
func ScanFile(root, name string, from int64, fn func(line []byte, end int64, complete bool) error) error {
	f, err := openFrom(filepath.Join(root, filepath.FromSlash(name)), from)
	if f == nil {
		return err
	}
	defer f.Close()
	end := from
	return scanLinesOf(f, func(_ int, line []byte, complete bool) error {
		end += int64(len(line))
		if complete {
			end++
		}
		return fn(line, end, complete)
	})
}

// LineBefore returns the line of the ledger file name that ends (with its
// newline) at byte offset end, without the newline; ok is false when no
// line ends there (the file is missing or shorter, or the byte before end
// is not a newline) or the line is longer than any Append writes.
func LineBefore(root, name string, end int64) (line []byte, ok bool, err error) {
	return lineEndingAt(filepath.Join(root, filepath.FromSlash(name)), end)
}

// RecordAt reads the record whose line ends at byte offset end of the
// segment segment (as Ledger.Placed told it): one line read, however long
// the ledger. ok is false when segment is no segment's path, or no whole
// record line ends there.
func RecordAt(root, segment string, end int64) (rec *Record, ok bool) {
	if _, ok := ParseSegment(segment); !ok || end <= 0 {
		return nil, false
	}
	line, ok, err := LineBefore(root, segment, end)
	if err != nil || !ok {
		return nil, false
	}
	r, err := ParseLine(line)
	return r, err == nil
}

// FileSize is the size of the ledger file name (root-relative), 0 when missing.
func FileSize(root, name string) (int64, error) {
	st, err := os.Stat(filepath.Join(root, filepath.FromSlash(name)))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}
