package transcript

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/osfile"
)

// MaxRead bounds the bytes one call reads to count usage: a call that finds
// more appended since the last falls behind, and the next call goes on
// from where it stopped (nothing is skipped, only counted later).
const MaxRead = 1 << 20

// checkBytes is how many bytes before a mark's offset its Check covers: a
// transcript whose bytes there changed was rewritten.
const checkBytes = 64

// Tokens is what model calls spent, by kind. Input excludes the cached
// kinds, as Claude's usage does; a Codex input count (which includes its
// cached part) is split into Input and CacheRead.
type Tokens struct {
	Input, Output, CacheCreation, CacheRead int64
}

// Total is every kind together.
func (t Tokens) Total() int64 { return t.Input + t.Output + t.CacheCreation + t.CacheRead }

func (t Tokens) add(o Tokens) Tokens {
	return Tokens{t.Input + o.Input, t.Output + o.Output, t.CacheCreation + o.CacheCreation, t.CacheRead + o.CacheRead}
}

// grown is how much each kind of t exceeds was; a kind that did not grow
// adds nothing.
func (t Tokens) grown(was Tokens) Tokens {
	d := func(a, b int64) int64 { return max(a-b, 0) }
	return Tokens{d(t.Input, was.Input), d(t.Output, was.Output), d(t.CacheCreation, was.CacheCreation), d(t.CacheRead, was.CacheRead)}
}

// Mark is where counting stopped in one transcript, kept in the session's
// state between calls.
type Mark struct {
	Offset int64  // the bytes counted: whole lines
	Check  uint32 // CRC-32 of the checkBytes bytes before Offset
	// MidLine: Offset is inside a line (a line longer than MaxRead, or the
	// end of the file when counting began): the rest of it is skipped.
	MidLine bool
	// MsgID is the last Claude message counted, and Msg what was counted
	// for it: Claude Code writes a message's content blocks as lines of
	// their own, each with the message's id and usage.
	MsgID string
	Msg   Tokens
	// Codex is the last cumulative total of Codex's token_count events
	// (Input with its cached part); Codex.Output < 0 when none was seen.
	Codex Tokens
}

// String encodes m for the session's state: space-separated numbers.
func (m Mark) String() string {
	id := m.MsgID
	if id == "" {
		id = "-"
	}
	mid := "0"
	if m.MidLine {
		mid = "1"
	}
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	return strings.Join([]string{"1", n(m.Offset), strconv.FormatUint(uint64(m.Check), 10), mid, id,
		n(m.Msg.Input), n(m.Msg.Output), n(m.Msg.CacheCreation), n(m.Msg.CacheRead),
		n(m.Codex.Input), n(m.Codex.Output), n(m.Codex.CacheRead)}, " ")
}

// ParseMark decodes a Mark's String; ok is false for anything else.
func ParseMark(s string) (m Mark, ok bool) {
	f := strings.Fields(s)
	if len(f) != 12 || f[0] != "1" || (f[3] != "0" && f[3] != "1") {
		return Mark{}, false
	}
	var nums [8]int64
	for i, j := range []int{1, 5, 6, 7, 8, 9, 10, 11} {
		v, err := strconv.ParseInt(f[j], 10, 64)
		if err != nil || (v < 0 && j != 10) {
			return Mark{}, false
		}
		nums[i] = v
	}
	check, err := strconv.ParseUint(f[2], 10, 32)
	if err != nil || nums[0] < 0 {
		return Mark{}, false
	}
	m = Mark{Offset: nums[0], Check: uint32(check), MidLine: f[3] == "1",
		Msg:   Tokens{nums[1], nums[2], nums[3], nums[4]},
		Codex: Tokens{Input: nums[5], Output: nums[6], CacheRead: nums[7]}}
	if f[4] != "-" {
		m.MsgID = f[4]
	}
	return m, true
}

// Spent is what a transcript records as spent since a mark.
type Spent struct {
	Tokens
	Model string // the newest model named with what was counted
	// Reset: the transcript shrank or its counted bytes changed since the
	// mark; counting began again at its end.
	Reset bool
}

// Usage counts what the JSONL transcript at path records as spent since
// mark, reading at most MaxRead bytes appended after it, and returns the
// mark to keep. With no mark (known false) counting begins at the
// transcript's end, or at its start when fromStart (a transcript born
// after intenthook first saw its session: a subagent's). A transcript
// that is not a regular .jsonl file spends nothing.
func Usage(path string, mark Mark, known, fromStart bool) (Spent, Mark) {
	if !strings.HasSuffix(path, ".jsonl") {
		return Spent{}, mark
	}
	f, err := osfile.Open(path)
	if err != nil {
		return Spent{}, mark
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return Spent{}, mark
	}
	size := st.Size()
	var sp Spent
	switch {
	case !known && fromStart:
		mark = Mark{Codex: Tokens{Output: -1}}
	case !known:
		return Spent{}, endMark(f, size)
	case size < mark.Offset || !mark.holds(f):
		m := endMark(f, size)
		return Spent{Reset: true}, m
	}
	n := min(size-mark.Offset, MaxRead)
	if n == 0 {
		return sp, mark
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, mark.Offset); err != nil && err != io.EOF {
		return sp, mark
	}
	sp, mark = count(buf, n == MaxRead, mark)
	mark.Check = checkOf(f, mark.Offset)
	return sp, mark
}

// Unchanged reports, without reading it, whether the transcript at path
// has nothing to count since mark: it is no regular .jsonl file (none to
// read), or it ends where mark does. A caller skips Usage, and the
// session's lock it is read under, when it has.
func Unchanged(path string, mark Mark, known bool) bool {
	if !strings.HasSuffix(path, ".jsonl") {
		return true
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return true
	}
	return known && st.Size() == mark.Offset
}

// endMark is a mark at the end of a transcript of size bytes: inside a line
// unless the file ends in a newline.
func endMark(f io.ReaderAt, size int64) Mark {
	m := Mark{Offset: size, Check: checkOf(f, size), Codex: Tokens{Output: -1}}
	if size > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], size-1); err == nil && last[0] != '\n' {
			m.MidLine = true
		}
	}
	return m
}

// holds reports whether the bytes before the mark are still those counted.
func (m Mark) holds(f io.ReaderAt) bool { return checkOf(f, m.Offset) == m.Check }

func checkOf(f io.ReaderAt, off int64) uint32 {
	start := max(off-checkBytes, 0)
	buf := make([]byte, off-start)
	if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
		return 0
	}
	return crc32IEEE(buf)
}

// crc32IEEE is hash/crc32's ChecksumIEEE, a bit at a time: over
// checkBytes it costs about a microsecond, where hash/crc32 builds its
// tables as the process starts, on every hook call (docs/performance.md).
func crc32IEEE(b []byte) uint32 {
	crc := ^uint32(0)
	for _, c := range b {
		crc ^= uint32(c)
		for range 8 {
			crc = crc>>1 ^ 0xedb88320&-(crc&1)
		}
	}
	return ^crc
}

// count sums up the whole lines of chunk, the bytes after mark; full says
// the chunk was cut at MaxRead. A torn last line is left for a later call,
// unless it fills a full chunk alone: then it is skipped.
func count(chunk []byte, full bool, m Mark) (Spent, Mark) {
	var sp Spent
	start := 0
	if m.MidLine {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			m.Offset += int64(len(chunk))
			return sp, m
		}
		start, m.MidLine = i+1, false
	}
	end := bytes.LastIndexByte(chunk, '\n') + 1
	if end <= start {
		if full {
			m.Offset += int64(len(chunk))
			m.MidLine = true
		} else {
			m.Offset += int64(start)
		}
		return sp, m
	}
	for _, line := range bytes.Split(chunk[start:end-1], []byte("\n")) {
		m = countLine(line, &sp, m)
	}
	m.Offset += int64(end)
	return sp, m
}

// entry is the part of a transcript line that usage is read from: a Claude
// Code assistant message, or a Codex rollout item (token_count events and
// turn contexts).
type entry struct {
	Type    string `json:"type"`
	Message struct {
		ID    string     `json:"id"`
		Role  string     `json:"role"`
		Model string     `json:"model"`
		Usage *claudeUse `json:"usage"`
	} `json:"message"`
	Payload struct {
		Type  string `json:"type"`
		Model string `json:"model"`
		Info  *struct {
			Total *codexUse `json:"total_token_usage"`
			Last  *codexUse `json:"last_token_usage"`
		} `json:"info"`
	} `json:"payload"`
}

type claudeUse struct {
	Input         int64 `json:"input_tokens"`
	Output        int64 `json:"output_tokens"`
	CacheCreation int64 `json:"cache_creation_input_tokens"`
	CacheRead     int64 `json:"cache_read_input_tokens"`
}

type codexUse struct {
	Input  int64 `json:"input_tokens"`
	Cached int64 `json:"cached_input_tokens"`
	Output int64 `json:"output_tokens"`
}

func (c codexUse) tokens() Tokens {
	return Tokens{Input: c.Input, Output: c.Output, CacheRead: c.Cached}
}

// countLine adds what one line spent to sp.
func countLine(line []byte, sp *Spent, m Mark) Mark {
	if !bytes.Contains(line, []byte(`"usage"`)) && !bytes.Contains(line, []byte(`"token_count"`)) && !bytes.Contains(line, []byte(`"turn_context"`)) {
		return m
	}
	var e entry
	if json.Unmarshal(line, &e) != nil {
		return m
	}
	switch {
	case e.Message.Usage != nil && (e.Type == "assistant" || e.Message.Role == "assistant"):
		u := e.Message.Usage
		t := Tokens{max(u.Input, 0), max(u.Output, 0), max(u.CacheCreation, 0), max(u.CacheRead, 0)}
		if e.Message.ID == "" || e.Message.ID != m.MsgID {
			// A new message: counted whole. Ids of an unexpected shape are
			// not kept, so each of their lines counts.
			m.MsgID, m.Msg = "", Tokens{}
			if safe(e.Message.ID) {
				m.MsgID = e.Message.ID
			}
		}
		// Another line of the counted message adds only what grew.
		sp.Tokens = sp.Tokens.add(t.grown(m.Msg))
		m.Msg = Tokens{max(t.Input, m.Msg.Input), max(t.Output, m.Msg.Output), max(t.CacheCreation, m.Msg.CacheCreation), max(t.CacheRead, m.Msg.CacheRead)}
		if safe(e.Message.Model) {
			sp.Model = e.Message.Model
		}
	case e.Type == "turn_context" && safe(e.Payload.Model):
		sp.Model = e.Payload.Model
	case e.Type == "event_msg" && e.Payload.Type == "token_count" && e.Payload.Info != nil && e.Payload.Info.Total != nil:
		total := e.Payload.Info.Total.tokens()
		was := m.Codex
		if was.Output < 0 || total.Input < was.Input || total.Output < was.Output || total.CacheRead < was.CacheRead {
			// No total seen yet, or one that went down: what this event
			// adds is its last turn's usage.
			was = Tokens{}
			if l := e.Payload.Info.Last; l != nil {
				was = total.grown(l.tokens())
			}
		}
		d := total.grown(was)
		// Codex's input count includes its cached part.
		cached := min(d.CacheRead, d.Input)
		sp.Tokens = sp.Tokens.add(Tokens{Input: d.Input - cached, Output: d.Output, CacheRead: cached})
		m.Codex = total
	}
	return m
}
