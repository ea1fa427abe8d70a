package ledger

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/osfile"
)

// RecentMentions is TailLinesMentioning for the newest n lines (n > 0),
// resumed from the search before it. memo, a file of the caller's, holds
// where that search stopped in each file it looked at (its marks) and
// where the lines it answered are; only what was appended since is
// searched, within maxBytes. So selecting an intent that is seldom
// changed no longer searches a MiB of the ledger each time: the lines it
// has are older than the window, and the last search went over it.
//
// The lines a memo names are read again from the ledger and must still be
// whole lines there that hold word and that keep accepts: a memo another
// program wrote can hide a line from the answer, never add one. A memo
// another file now stands behind (a rewritten or replaced ledger file, an
// unknown one) is searched as though it had none. The memo is rewritten
// when the answer moved or a mark moved more than memoSlack; one that
// cannot be written is not an error (the next search goes back further).
func RecentMentions(root, memo string, maxBytes int64, word string, n int, keep func(line []byte) bool) ([][]byte, error) {
	if n <= 0 {
		return TailLinesMentioning(root, maxBytes, word, n, keep)
	}
	quoted := []byte(strconv.Quote(word))
	head := memoHead(word, n)
	old, haveOld := readMemo(memo, head, n)
	files, infos := recentFileInfos(root)
	var (
		all      []keyedMention
		firstErr error
		marks    = make(map[string]mark, len(files))
		// whole: every file was searched back to its mark, so the old
		// answer's lines are the ones before the new.
		whole        = true
		budget, want = maxBytes, n
	)
	for k := range files {
		i := (k + 1) % len(files) // the legacy file, the oldest, last
		rel, info := files[i], infos[i]
		path := filepath.Join(root, filepath.FromSlash(rel))
		floor := old.marks[rel]
		if info == nil {
			var err error
			if info, err = os.Stat(path); err != nil {
				continue // no legacy file
			}
		}
		id := osfile.FileID(path, info)
		if floor.id == id && floor.end == info.Size() {
			marks[rel] = floor // nothing appended since
			continue
		}
		if want <= 0 {
			// n lines found: this file is searched from its mark (when
			// it is still the file marked) when a later search finds fewer.
			if floor.id == id && floor.end <= info.Size() {
				marks[rel] = floor
			}
			continue
		}
		if budget <= 0 {
			// Past the window: what this file has before its end is left
			// unsearched from now on.
			whole = false
			if end, ok := linesEnd(path, info.Size()); ok {
				marks[rel] = mark{id, end}
			}
			continue
		}
		w, err := mentionLines(path, floor, budget, quoted, want, keep)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			whole = false
			continue
		}
		whole = whole && w.whole
		marks[rel] = w.mark
		budget, want = budget-w.used, want-w.kept
		all = w.keyed(all, rel, i)
	}
	switch {
	case !whole:
		// More was appended since the last search than the window holds:
		// the window's answer, as TailLinesMentioning gives it.
		var err error
		if all, err = tailMentions(root, files, maxBytes, quoted, n, keep); err != nil && firstErr == nil {
			firstErr = err
		}
	case haveOld && want > 0:
		all = old.lines(root, files, all, quoted, keep)
	}
	sortMentions(all)
	all = all[max(0, len(all)-n):]
	if !haveOld || !old.current(marks, all, min(memoSlack, maxBytes/8)) {
		_ = writeMemo(memo, encodeMemo(head, files, marks, all)) // one not written only costs the next search
	}
	return linesOf(all), firstErr
}

// linesEnd returns where the complete lines of the file at path end, when
// size is its size and its last line is complete, as it almost always is
// (a torn line is a writer's in the middle of an append).
func linesEnd(path string, size int64) (int64, bool) {
	if size == 0 {
		return 0, true
	}
	f, err := osfile.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var last [1]byte
	if _, err := f.ReadAt(last[:], size-1); err != nil || last[0] != '\n' {
		return 0, false
	}
	return size, true
}

// memoHead is a memo's first line: its format, the word and n.
func memoHead(word string, n int) string {
	return "intenthook recent 1 " + strconv.Quote(word) + " " + strconv.Itoa(n)
}

// maxMemo bounds the memo read: ten lines' places and five marks take
// about a KiB.
const maxMemo = 4 << 10

// A memo is the last search's marks and where its answer's lines are, as
// read from its file, which held
//
//	intenthook recent 1 "<word>" <n>
//	m "<file>" <file id> <end>        (a mark, one per file)
//	l "<file>" <offset> <length>      (a line of the answer, oldest first)
type memo struct {
	marks map[string]mark
	at    []memoLine
}

type memoLine struct {
	rel      string
	off, len int64
}

// readMemo reads the memo at path; false when there is none or it is not
// one for head's word and n, or does not parse.
func readMemo(path, head string, n int) (memo, bool) {
	f, err := osfile.Open(path)
	if err != nil {
		return memo{}, false
	}
	defer f.Close()
	buf := make([]byte, maxMemo+1)
	k, err := io.ReadFull(f, buf)
	if k > maxMemo || err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return memo{}, false
	}
	m, ok := parseMemo(buf[:k], head, n)
	return m, ok
}

// parseMemo parses a memo's bytes; false when they are not a memo for
// head's word and n (naming n lines at most).
func parseMemo(b []byte, head string, n int) (memo, bool) {
	text, ok := strings.CutSuffix(string(b), "\n")
	if !ok {
		return memo{}, false
	}
	rows := strings.Split(text, "\n")
	if rows[0] != head {
		return memo{}, false
	}
	m := memo{marks: map[string]mark{}}
	for _, row := range rows[1:] {
		kind, rest, _ := strings.Cut(row, " ")
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return memo{}, false
		}
		rel, _ := strconv.Unquote(q)
		nums := strings.Fields(rest[len(q):])
		if !ledgerFile(rel) || len(nums) != 2 {
			return memo{}, false
		}
		a, errA := strconv.ParseUint(nums[0], 10, 64)
		z, errZ := strconv.ParseInt(nums[1], 10, 64)
		if errA != nil || errZ != nil || z < 0 {
			return memo{}, false
		}
		switch kind {
		case "m":
			m.marks[rel] = mark{a, z}
		case "l":
			if a > 1<<62 || z == 0 || z > maxMemoLine || len(m.at) == n {
				return memo{}, false
			}
			m.at = append(m.at, memoLine{rel, int64(a), z})
		default:
			return memo{}, false
		}
	}
	return m, true
}

// maxMemoLine bounds a line a memo names, and so what a memo another
// program wrote can make a search read: a change's line is a few KiB. An
// answer with a longer line leaves a memo that does not parse, and the
// next search goes back as far as it would without one.
const maxMemoLine = 64 << 10

// ledgerFile reports whether rel names a file of the ledger: the legacy
// file, a part of it, or a segment.
func ledgerFile(rel string) bool {
	_, seg := ParseSegment(rel)
	return rel == FileName || IsLegacyPart(rel) || seg
}

// lines appends to all the old answer's lines that are still whole lines
// of their files holding quoted that keep accepts, and not found again in
// this search (a file another stands behind is searched afresh).
func (m *memo) lines(root string, files []string, all []keyedMention, quoted []byte, keep func([]byte) bool) []keyedMention {
	opened := map[string]*os.File{}
	defer func() {
		for _, f := range opened {
			if f != nil {
				f.Close()
			}
		}
	}()
	for _, at := range m.at {
		if slices.ContainsFunc(all, func(e keyedMention) bool { return e.rel == at.rel && e.off == at.off }) {
			continue
		}
		f, ok := opened[at.rel]
		if !ok {
			f, _ = osfile.Open(filepath.Join(root, filepath.FromSlash(at.rel)))
			opened[at.rel] = f
		}
		if f == nil {
			continue
		}
		// The line with the newline after it and the one before it (a
		// line at the file's start has none).
		from := max(0, at.off-1)
		buf := make([]byte, at.off+at.len+1-from)
		if readFull(f, buf, from) != nil {
			continue
		}
		line := buf[at.off-from : len(buf)-1]
		if at.off > 0 && buf[0] != '\n' || buf[len(buf)-1] != '\n' || bytes.IndexByte(line, '\n') >= 0 ||
			!bytes.Contains(line, quoted) || keep != nil && !keep(line) {
			continue
		}
		i := slices.Index(files, at.rel)
		if i < 0 {
			i = len(files) // a file no longer among the newest: older
		}
		all = append(all, keyedMention{keyOf(line, writerOf(at.rel), i, int(at.off)), at.rel, mention{at.off, line}})
	}
	return all
}

// memoSlack is how far a file's mark may fall behind before the memo is
// written again (an eighth of the window at most): a search with the same
// answer as the memo's only moves marks, and searching a few KiB again
// costs less than writing a file.
const memoSlack = 64 << 10

// current reports whether m still serves a search that answered answer
// and left marks: the same answer, and each mark of the same file and at
// most slack ahead of m's.
func (m *memo) current(marks map[string]mark, answer []keyedMention, slack int64) bool {
	if len(answer) != len(m.at) || len(marks) != len(m.marks) {
		return false
	}
	for i, e := range answer {
		if at := m.at[i]; at.rel != e.rel || at.off != e.off || at.len != int64(len(e.line)) {
			return false
		}
	}
	for rel, mk := range marks {
		was, ok := m.marks[rel]
		if !ok || was.id != mk.id || was.end > mk.end || mk.end-was.end > slack {
			return false
		}
	}
	return true
}

// encodeMemo writes the memo of a search: head, its marks (in files'
// order) and its answer's places.
func encodeMemo(head string, files []string, marks map[string]mark, answer []keyedMention) []byte {
	b := append([]byte(head), '\n')
	for _, rel := range files {
		if mk, ok := marks[rel]; ok {
			b = append(b, "m "...)
			b = strconv.AppendQuote(b, rel)
			b = append(b, ' ')
			b = strconv.AppendUint(b, mk.id, 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, mk.end, 10)
			b = append(b, '\n')
		}
	}
	for _, e := range answer {
		b = append(b, "l "...)
		b = strconv.AppendQuote(b, e.rel)
		b = append(b, ' ')
		b = strconv.AppendInt(b, e.off, 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(len(e.line)), 10)
		b = append(b, '\n')
	}
	return b
}

// writeMemo replaces the memo at path with b, making its directory on
// demand. The name is replaced, never written through: a link planted
// there points nowhere the hook writes.
func writeMemo(path string, b []byte) error {
	dir := filepath.Dir(path)
	tmp, err := osfile.CreateTemp(dir, ".memo-*")
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		tmp, err = osfile.CreateTemp(dir, ".memo-*")
	}
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
