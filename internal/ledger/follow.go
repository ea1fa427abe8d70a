package ledger

import (
	"bytes"
	"io"
	"os"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/osfile"
)

// Follower reads the records this work tree's hooks append to the ledger
// after it starts: a live feed (the console's). It follows the branch's
// active segment (the legacy file where there is none) from its end as the
// follower found it; each Next is one read of the head file and one stat
// while nothing was appended, and reads only the bytes appended since. It
// never reads the ledger before its start.
type Follower struct {
	root    string
	file    string // root-relative: the file followed
	off     int64  // bytes of it consumed
	partial []byte // a line not yet ended
}

// Follow starts a Follower at the ledger's current end.
func Follow(root string) *Follower {
	f := &Follower{root: root, file: followed(root)}
	if fi, err := os.Stat(f.path(f.file)); err == nil {
		f.off = fi.Size()
	}
	return f
}

// followed is the file new records of this branch go to.
func followed(root string) string {
	if seg := activeSegment(root); seg != "" {
		return seg
	}
	return FileName
}

func (f *Follower) path(rel string) string { return filepath.Join(f.root, filepath.FromSlash(rel)) }

// Next returns the records appended since the last call, in file order. A
// segment sealed meanwhile is read to its end, then the writer's segments
// begun after it, each from its start: they began after the follower last
// looked.
func (f *Follower) Next() ([]Record, error) {
	now := followed(f.root)
	out, err := f.readNew()
	if err != nil || now == f.file {
		return out, err
	}
	for _, rel := range between(f.root, f.file, now) {
		f.file, f.off, f.partial = rel, 0, nil
		recs, err := f.readNew()
		out = append(out, recs...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// between lists the files a follower of from reads to reach to: the
// segments its writer began after from, up to to, oldest first; just to
// when from is the legacy file or another writer's (a branch switched).
func between(root, from, to string) []string {
	a, okA := ParseSegment(from)
	b, okB := ParseSegment(to)
	if !okA || !okB || a.Writer != b.Writer || b.N <= a.N {
		return []string{to}
	}
	var out []string
	for _, s := range writerSegments(root, a.Writer) {
		if s.N > a.N && s.N < b.N {
			out = append(out, s.Rel)
		}
	}
	return append(out, to)
}

// readNew reads f.file from f.off to its end and returns its new complete
// lines' records.
func (f *Follower) readNew() ([]Record, error) {
	fi, err := os.Stat(f.path(f.file))
	if err != nil || fi.Size() <= f.off {
		return nil, nil // not there yet, or nothing new
	}
	fh, err := osfile.Open(f.path(f.file))
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data := make([]byte, fi.Size()-f.off)
	n, err := fh.ReadAt(data, f.off)
	if err != nil && err != io.EOF {
		return nil, err
	}
	f.off += int64(n)
	data = append(f.partial, data[:n]...)
	end := bytes.LastIndexByte(data, '\n')
	if end < 0 {
		f.partial = data
		return nil, nil
	}
	f.partial = append([]byte(nil), data[end+1:]...)
	var out []Record
	for _, line := range bytes.Split(data[:end], []byte{'\n'}) {
		if rec, err := ParseLine(line); err == nil {
			out = append(out, *rec)
		}
	}
	return out, nil
}
