package ledger

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/randid"
	"github.com/intenthook/intenthook/internal/state"
)

// Segments. New records go to files under SegmentDir, one directory per
// writer (a work tree, named by a random id kept in state/), one per month
// below it: <writer>/<yyyy-mm>/<n>.jsonl, n counting the writer's segments.
// A writer appends to a segment only while the branch and the commit
// checked out are the ones it started on, and until it reaches the segment
// size; then the segment is sealed and never changes again. A commit so
// only adds segment files or grows the one its writer is appending to:
// merges, cherry-picks and rebases meet identical blobs or new files.
const (
	SegmentDir = ".orchestration/ledger"
	writerName = "ledger.writer" // under state/
	// DefaultSegmentBytes is the size past which a segment is sealed.
	DefaultSegmentBytes = 8 << 20
)

// Segment is one segment file: Rel is its path from the workspace root.
type Segment struct {
	Rel    string
	Writer string
	N      int
}

// segmentRel names segment n of writer w, begun in month (yyyy-mm).
func segmentRel(w, month string, n int) string {
	return SegmentDir + "/" + w + "/" + month + "/" + fmt.Sprintf("%06d", n) + ".jsonl"
}

// ParseSegment reads a segment's writer and number from its path relative
// to the workspace root; ok is false for any other path.
func ParseSegment(rel string) (Segment, bool) {
	rest, ok := strings.CutPrefix(rel, SegmentDir+"/")
	if !ok {
		return Segment{}, false
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 3 || !validWriter(parts[0]) || !validMonth(parts[1]) {
		return Segment{}, false
	}
	num, ok := strings.CutSuffix(parts[2], ".jsonl")
	if !ok || len(num) != 6 {
		return Segment{}, false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 {
		return Segment{}, false
	}
	return Segment{Rel: rel, Writer: parts[0], N: n}, true
}

// IsSegmentPath reports whether rel (root-relative, "/" separators) is
// under the segment directory.
func IsSegmentPath(rel string) bool {
	return rel == SegmentDir || strings.HasPrefix(rel, SegmentDir+"/")
}

func validWriter(w string) bool {
	if len(w) != 16 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func validMonth(m string) bool {
	if len(m) != 7 || m[4] != '-' {
		return false
	}
	for i, c := range []byte(m) {
		if i != 4 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// month is the yyyy-mm of a record's timestamp.
func month(stamp string) string {
	if len(stamp) >= 7 {
		return stamp[:7]
	}
	return "0000-00"
}

// ListSegments returns every segment file under root's segment directory
// in name order (writer, number). Files whose names are not a segment's are
// returned in bad, for verify to report.
func ListSegments(root string) (segs []Segment, bad []string, err error) {
	base := filepath.Join(root, filepath.FromSlash(SegmentDir))
	err = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == base {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if IsLegacyPart(rel) && d.Type().IsRegular() {
			return nil // read as the legacy file
		}
		if s, ok := ParseSegment(rel); ok && d.Type().IsRegular() {
			segs = append(segs, s)
		} else {
			bad = append(bad, rel)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("list ledger segments: %w", err)
	}
	slices.SortFunc(segs, func(a, b Segment) int {
		return cmp.Or(strings.Compare(a.Writer, b.Writer), cmp.Compare(a.N, b.N), strings.Compare(a.Rel, b.Rel))
	})
	return segs, bad, nil
}

// writerFile is state/ledger.writer: this work tree's writer id, the
// number of its newest segment and its name (written by this version on;
// "" from an older one's file), and a digest of the root it was made in (a
// copied work tree gets a writer of its own).
type writerFile struct {
	ID   string
	N    int
	Seg  string
	Root string
}

func rootDigest(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = root
	}
	sum := sha256.Sum256([]byte(abs))
	return hex.EncodeToString(sum[:8])
}

// readWriter reads state/ledger.writer; the zero value when there is none
// or it does not parse.
func readWriter(root string) writerFile {
	b, err := osfile.ReadFile(state.Path(root, writerName))
	if err != nil {
		return writerFile{}
	}
	id, _ := fieldString(b, "id")
	n, _ := fieldInt(b, "n")
	r, _ := fieldString(b, "root")
	seg, _ := fieldString(b, "seg")
	if !validWriter(id) {
		return writerFile{}
	}
	return writerFile{ID: id, N: int(n), Seg: seg, Root: r}
}

func (w writerFile) write(root string, durable bool) error {
	b := appendString([]byte(`{"id":`), w.ID)
	b = strconv.AppendInt(append(b, `,"n":`...), int64(w.N), 10)
	if w.Seg != "" {
		b = appendString(append(b, `,"seg":`...), w.Seg)
	}
	b = appendString(append(b, `,"root":`...), w.Root)
	b = append(b, "}\n"...)
	if err := state.WriteFile(state.Path(root, writerName), b, 0o644, durable); err != nil {
		return err
	}
	// The guard of a command running meanwhile (another session's) takes
	// a change no hook journaled for the command's, and puts it back.
	guard.Journal(root, WriterFile, b)
	return nil
}

// WriterFile is the writer file, root-relative: a governance row, since a
// rollover seals the segment it names.
const WriterFile = state.StateDir + "/" + writerName

// WriterID returns this work tree's writer id, "" before its first segment.
func WriterID(root string) string {
	w := readWriter(root)
	if w.Root != rootDigest(root) {
		return ""
	}
	return w.ID
}

func newWriterID() string { return randid.Hex(8) }

// fieldString reads the string value of key in a one-line JSON object
// intenthook wrote itself (values without escapes).
func fieldString(b []byte, key string) (string, bool) {
	k := []byte(`"` + key + `":"`)
	i := bytes.Index(b, k)
	if i < 0 {
		return "", false
	}
	rest := b[i+len(k):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 || bytes.IndexByte(rest[:j], '\\') >= 0 {
		return "", false
	}
	return string(rest[:j]), true
}

// fieldInt reads the number value of key, as fieldString.
func fieldInt(b []byte, key string) (int64, bool) {
	k := []byte(`"` + key + `":`)
	i := bytes.Index(b, k)
	if i < 0 {
		return 0, false
	}
	rest := b[i+len(k):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	n, err := strconv.ParseInt(string(rest[:j]), 10, 64)
	return n, err == nil
}

// writerSegments lists the segments of writer w in the work tree, by
// number: a writer's segments follow their numbers alone, whatever month
// each was opened in (a clock that stepped back opens a November segment
// after a December one). It lists directories, read on rare paths only.
func writerSegments(root, w string) []Segment {
	dir := filepath.Join(root, filepath.FromSlash(SegmentDir), w)
	months, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var segs []Segment
	for _, m := range months {
		if !validMonth(m.Name()) {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(dir, m.Name()))
		for _, f := range files {
			if s, ok := ParseSegment(path.Join(SegmentDir, w, m.Name(), f.Name())); ok && f.Type().IsRegular() {
				segs = append(segs, s)
			}
		}
	}
	slices.SortFunc(segs, func(a, b Segment) int { return cmp.Or(cmp.Compare(a.N, b.N), strings.Compare(a.Rel, b.Rel)) })
	return segs
}

// newestOfWriter returns the path of the newest segment of writer w in the
// work tree ("" when it has none): read on the rare path of a branch with
// no head file yet.
func newestOfWriter(root, w string) string {
	segs := writerSegments(root, w)
	if len(segs) == 0 {
		return ""
	}
	return segs[len(segs)-1].Rel
}

// newestTipOfWriter is the last line of writer w's newest segment that
// holds one, and that segment: a segment whose opener died before its
// first line is left empty, and the chain goes on from the one before.
func newestTipOfWriter(root, w string) (tail, string) {
	segs := writerSegments(root, w)
	for i := len(segs) - 1; i >= 0; i-- {
		if t, ok := tipOf(root, segs[i].Rel); ok && t.size > 0 {
			return t, segs[i].Rel
		}
	}
	return tail{}, ""
}

// newestOfLedger is the newest record among the newest segments of every
// writer in the work tree (by its timestamp, then writer), the zero tail in
// a work tree with none. It is read once per work tree, for the first
// record of its writer: a directory per writer and one tail each.
func newestOfLedger(root string) (tail, string) {
	writers, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(SegmentDir)))
	if err != nil {
		return tail{}, ""
	}
	var best tail
	var bestRel, bestStamp string
	for _, w := range writers {
		if !w.IsDir() || !validWriter(w.Name()) {
			continue
		}
		t, rel := newestTipOfWriter(root, w.Name())
		if rel == "" {
			continue
		}
		stamp := ""
		if line, ok, _ := lineEndingAt(filepath.Join(root, filepath.FromSlash(rel)), t.size); ok {
			stamp = string(stampBytes(line))
		}
		if bestRel == "" || stamp > bestStamp {
			best, bestRel, bestStamp = t, rel, stamp
		}
	}
	return best, bestRel
}

// tipOf reads the last complete line of the file at rel (root-relative):
// the zero tail when it is missing or empty.
func tipOf(root, rel string) (tail, bool) {
	f, err := osfile.Open(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return tail{}, false
	}
	defer f.Close()
	t, _, err := readTip(f)
	return t, err == nil
}

// WriterCount is the number of this work tree's newest segment (0 before
// its first).
func WriterCount(root string) int {
	w := readWriter(root)
	if w.Root != rootDigest(root) {
		return 0
	}
	return w.N
}

// ActiveSegment is the segment this branch's appends go to, as its head
// file names it ("" when none).
func ActiveSegment(root string) string { return activeSegment(root) }

// Continue makes the work tree at root the writer w whose segments are
// there, its newest the active one on the branch checked out at HEAD: for
// a ledger written outside the appender (the benchmarks generate one).
func Continue(root, w string) error {
	rel := newestOfWriter(root, w)
	seg, ok := ParseSegment(rel)
	if !ok {
		return fmt.Errorf("continue writer %s: no segment of it under %s", w, root)
	}
	t, ok := tipOf(root, rel)
	if !ok {
		return fmt.Errorf("continue writer %s: cannot read %s", w, rel)
	}
	if err := state.Ensure(root); err != nil {
		return err
	}
	if err := (writerFile{ID: w, N: seg.N, Seg: rel, Root: rootDigest(root)}).write(root, false); err != nil {
		return err
	}
	br := currentBranch(root)
	f, err := osfile.OpenFile(br.path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	writeHead(f, headFile{Head: t.Head, Commit: br.commit, Seg: rel, Start: br.commit})
	return nil
}
