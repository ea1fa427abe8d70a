package ledger

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/safetext"
)

// cutMark ends a value that was shortened to fit a line.
const cutMark = "…[cut]"

// clampLen is what short fields are cut to when a record does not fit: with
// the worst JSON escaping (6 bytes a byte) all of them together still fit.
const clampLen = 256

// fitLine encodes rec as a line of at most MaxLine bytes with its newline.
// Oversized records lose, in this order and only as far as needed: what
// goes beyond clampLen in their ids and other short fields (only hostile
// event data is that long), the tail of their long texts (command, error,
// reason; the full value's digest is kept in command_hash / error_hash),
// their last ranges, their last paths, and their last files. Meta.Cut names
// what was shortened. The caller's record is not changed.
func fitLine(rec *Record) ([]byte, error) {
	line := rec.MarshalLine()
	if len(line) < MaxLine {
		return line, nil
	}
	c := *rec
	for _, shrink := range []func(*Record, int) bool{clampFields, cutTexts, dropRanges, dropPaths, dropFiles} {
		for tries := 0; len(line) >= MaxLine && tries < 16; tries++ {
			if !shrink(&c, len(line)+1-MaxLine) {
				break
			}
			line = c.MarshalLine()
		}
	}
	if len(line) >= MaxLine {
		return nil, fmt.Errorf("record %s: %d bytes do not fit in a ledger line", rec.ID, len(line))
	}
	return line, nil
}

// cutTexts shortens the longest of command, error and reason by over bytes
// and a little slack for the fields the cut itself adds.
func cutTexts(c *Record, over int) bool {
	m := &c.Metadata.Intenthook
	cmdLen, errLen, reasonLen := len(m.Command), len(m.Error), len(m.Reason)
	longest := max(cmdLen, errLen, reasonLen)
	if longest <= len(cutMark) {
		return false
	}
	keep := longest - over - len(cutMark) - 128
	switch longest {
	case cmdLen:
		if m.CommandHash == "" {
			m.CommandHash = digest.String(m.Command)
		}
		m.Command = cut(m.Command, keep)
		note(c, "command")
	case errLen:
		if m.ErrorHash == "" {
			m.ErrorHash = digest.String(string(m.Error))
		}
		m.Error = NullString(cut(string(m.Error), keep))
		note(c, "error")
	default:
		m.Reason = cut(m.Reason, keep)
		note(c, "reason")
	}
	return true
}

// dropRanges removes ranges from the end of the last file backwards until
// about over bytes are gone.
func dropRanges(c *Record, over int) bool {
	files := cloneFiles(c.Files)
	freed, dropped := 0, false
	for i := len(files) - 1; i >= 0 && freed < over; i-- {
		convs := files[i].Conversations
		for j := len(convs) - 1; j >= 0 && freed < over; j-- {
			rs := convs[j].Ranges
			for len(rs) > 0 && freed < over {
				freed += encodedLen(rs[len(rs)-1]) + 1
				rs = rs[:len(rs)-1]
				dropped = true
			}
			convs[j].Ranges = rs
		}
	}
	if !dropped {
		return false
	}
	c.Files = files
	note(c, "ranges")
	return true
}

// dropPaths removes a violation record's last paths.
func dropPaths(c *Record, over int) bool {
	m := &c.Metadata.Intenthook
	return dropLast(c, &m.Paths, over, "paths")
}

// dropFiles removes the last files, once nothing else is left to drop: what
// remains is a record of bounded size.
func dropFiles(c *Record, over int) bool {
	return dropLast(c, &c.Files, over, "files")
}

// dropLast removes the last elements of *list until their encoding frees
// over bytes (or the list is empty), noting field as cut in c.
func dropLast[T any](c *Record, list *[]T, over int, field string) bool {
	if len(*list) == 0 {
		return false
	}
	n, freed := len(*list), 0
	for n > 0 && freed < over {
		n--
		freed += encodedLen((*list)[n]) + 1
	}
	*list = slices.Clip((*list)[:n])
	note(c, field)
	return true
}

// clampFields cuts the record's short fields (all strings but the texts
// cutTexts handles and what is inside files) to clampLen, for records made
// huge by event data (a megabyte session id). Prev is a digest and never
// that long.
func clampFields(c *Record, _ int) bool {
	m := &c.Metadata.Intenthook
	changed := false
	clamp := func(s *string) {
		if len(*s) > clampLen {
			*s = cut(*s, clampLen-len(cutMark))
			changed = true
		}
	}
	clampNull := func(s *NullString) {
		v := string(*s)
		clamp(&v)
		*s = NullString(v)
	}
	for _, s := range []*string{&c.Version, &c.ID, &c.Timestamp, &m.Event, &m.SessionID, &m.ToolName,
		&m.ToolUseID, &m.MutationClass, &m.ScopeValidation, &m.Decision, &m.CommandHash,
		&m.ErrorHash, &m.From, &m.To, &m.Fragment} {
		clamp(s)
	}
	for _, s := range []*NullString{&m.IntentID, &m.AgentID, &m.PreHash, &m.PostHash, &m.Code} {
		clampNull(s)
	}
	if c.VCS != nil {
		v := *c.VCS
		clamp(&v.Type)
		clamp(&v.Revision)
		c.VCS = &v
	}
	if c.Tool != nil {
		t := *c.Tool
		clamp(&t.Name)
		clamp(&t.Version)
		c.Tool = &t
	}
	if changed {
		note(c, "fields")
	}
	return changed
}

// cut shortens s to at most keep bytes, on a rune boundary, and marks it.
func cut(s string, keep int) string {
	return safetext.Prefix(s, keep) + cutMark
}

// note adds what to Meta.Cut, without writing into the caller's slice.
func note(c *Record, what string) {
	m := &c.Metadata.Intenthook
	if !slices.Contains(m.Cut, what) {
		m.Cut = append(slices.Clip(m.Cut), what)
	}
}

// cloneFiles copies files and their conversations, so ranges can be
// re-sliced without touching the caller's record.
func cloneFiles(files []File) []File {
	out := slices.Clone(files)
	for i := range out {
		out[i].Conversations = slices.Clone(out[i].Conversations)
	}
	return out
}

func encodedLen(v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(b)
}
