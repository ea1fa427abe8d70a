package ledger

import (
	"bufio"
	"bytes"
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/osfile"
)

// The canonical order of records, the same for every reader: by timestamp,
// then writer id (the legacy file's lines have none and come first), then
// seq. The files are merged by that key, each read in its own order (a
// segment is written in the order of its stamps), and lines whose keys are
// equal keep the order of their files' names and lines.

// lineKey is where a line stands in the canonical order.
type lineKey struct {
	stamp  []byte
	writer string
	seq    int64
	file   int
	n      int
}

func keyOf(line []byte, writer string, file, n int) lineKey {
	return lineKey{stamp: stampBytes(line), writer: writer, seq: seqOf(line), file: file, n: n}
}

func (a *lineKey) compare(b *lineKey) int {
	return cmp.Or(bytes.Compare(a.stamp, b.stamp), strings.Compare(a.writer, b.writer),
		cmp.Compare(a.seq, b.seq), cmp.Compare(a.file, b.file), cmp.Compare(a.n, b.n))
}

// stampBytes is a line's timestamp as written, read without decoding.
func stampBytes(line []byte) []byte {
	const key = `"timestamp":"`
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return nil
	}
	v := line[i+len(key):]
	j := bytes.IndexByte(v, '"')
	if j < 0 {
		return nil
	}
	return v[:j]
}

// Stamp is a record line's timestamp as written, read without decoding
// ("" when it has none).
func Stamp(line []byte) string { return string(stampBytes(line)) }

// seqOf is a line's metadata seq, read in place (0 when there is none).
func seqOf(line []byte) int64 {
	const key = `"dev.intenthook":{"seq":`
	i := bytes.LastIndex(line, []byte(key))
	if i < 0 {
		return 0
	}
	rest := line[i+len(key):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	n, _ := strconv.ParseInt(string(rest[:j]), 10, 64)
	return n
}

// writerOf is the writer id of a ledger file: "" for the legacy file.
func writerOf(rel string) string {
	s, _ := ParseSegment(rel)
	return s.Writer
}

// Files returns the ledger's files, root-relative: the legacy ledger's
// (the parts of a split, the legacy file) when there are any, then every
// segment in name order.
func Files(root string) ([]string, error) {
	out := legacyFiles(root)
	segs, _, err := ListSegments(root)
	for _, s := range segs {
		out = append(out, s.Rel)
	}
	return out, err
}

// source is one ledger file read line by line for the merge.
type source struct {
	rel      string
	writer   string
	index    int
	f        *os.File
	br       *bufio.Reader
	long     []byte
	line     []byte
	complete bool
	n        int
	key      lineKey
	keep     func([]byte) bool
}

// next reads the source's next line that keep accepts (a torn tail is
// always kept); false at the end.
func (s *source) next() (bool, error) {
	for {
		s.n++
		chunk, err := s.br.ReadSlice('\n')
		s.long = s.long[:0]
		for errors.Is(err, bufio.ErrBufferFull) {
			s.long = append(s.long, chunk...)
			chunk, err = s.br.ReadSlice('\n')
		}
		line := chunk
		if len(s.long) > 0 {
			s.long = append(s.long, chunk...)
			line = s.long
		}
		switch {
		case errors.Is(err, io.EOF):
			if len(line) == 0 {
				return false, nil
			}
			s.line, s.complete = line, false
		case err != nil:
			return false, fmt.Errorf("read ledger %s: %w", s.rel, err)
		default:
			s.line, s.complete = line[:len(line)-1], true
			if s.keep != nil && !s.keep(s.line) {
				continue
			}
		}
		s.key = keyOf(s.line, s.writer, s.index, s.n)
		return true, nil
	}
}

type sourceHeap []*source

func (h sourceHeap) Len() int           { return len(h) }
func (h sourceHeap) Less(i, j int) bool { return h[i].key.compare(&h[j].key) < 0 }
func (h sourceHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *sourceHeap) Push(x any)        { *h = append(*h, x.(*source)) }
func (h *sourceHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// scanAll calls fn with every line of every ledger file that keep accepts
// (nil: all), in the canonical order; line is valid only during the call.
func scanAll(root string, keep func([]byte) bool, fn func(s *source, line []byte, complete bool) error) error {
	files, err := Files(root)
	if err != nil {
		return err
	}
	return mergeFiles(root, files, keep, fn)
}

func mergeFiles(root string, files []string, keep func([]byte) bool, fn func(s *source, line []byte, complete bool) error) error {
	h := make(sourceHeap, 0, len(files))
	defer func() {
		for _, s := range h {
			s.f.Close()
		}
	}()
	for i, rel := range files {
		f, err := osfile.Open(filepath.Join(root, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("open ledger: %w", err)
		}
		s := &source{rel: rel, writer: writerOf(rel), index: i, f: f, br: bufio.NewReaderSize(f, 64<<10), keep: keep}
		ok, err := s.next()
		if err != nil {
			f.Close()
			return err
		}
		if !ok {
			f.Close()
			continue
		}
		h = append(h, s)
	}
	heap.Init(&h)
	for len(h) > 0 {
		s := h[0]
		if err := fn(s, s.line, s.complete); err != nil {
			return err
		}
		ok, err := s.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			s.f.Close()
			heap.Pop(&h)
		}
	}
	return nil
}

// recentCount is how many segments the readers of recent records (the
// context's recent trace, anchors) look at, besides the legacy file.
const recentCount = 4

// recentFiles names the files the newest records are in: the legacy file
// and the newest few segments (by modification time among each writer's
// newest two), found without reading any segment.
func recentFiles(root string) []string {
	files, _ := recentFileInfos(root)
	return files
}

// recentFileInfos is recentFiles with what each file's stat said when it
// was chosen (nil for the legacy file, which is not looked at).
func recentFileInfos(root string) ([]string, []fs.FileInfo) {
	out := []string{FileName}
	if last := lastLegacy(root); last != "" {
		out = []string{last}
	}
	infos := []fs.FileInfo{nil}
	base := filepath.Join(root, filepath.FromSlash(SegmentDir))
	writers, err := os.ReadDir(base)
	if err != nil {
		return out, infos
	}
	type cand struct {
		rel  string
		info fs.FileInfo
	}
	var cands []cand
	for _, w := range writers {
		if !validWriter(w.Name()) {
			continue
		}
		var names []string
		segs := writerSegments(root, w.Name())
		for i := len(segs) - 1; i >= 0 && len(names) < 2; i-- {
			names = append(names, segs[i].Rel)
		}
		for _, rel := range names {
			if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err == nil {
				cands = append(cands, cand{rel, st})
			}
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(b.info.ModTime().Compare(a.info.ModTime()), strings.Compare(b.rel, a.rel))
	})
	for i := 0; i < len(cands) && i < recentCount; i++ {
		out = append(out, cands[i].rel)
		infos = append(infos, cands[i].info)
	}
	return out, infos
}
