package patch

import (
	"errors"
	"fmt"
	"strings"
)

// Section is one file's part of a patch: what it does to the file, the
// file's path as the patch names it (and a move's destination), and the
// lines that follow its header (an Add's "+" lines, an Update's hunks).
type Section struct {
	Op     Op // Add, Update or Delete
	Path   string
	MoveTo string
	Lines  []string
}

// Sections reads text's file sections, in order.
func Sections(text string) ([]Section, error) {
	begun := false
	var out []Section
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if !begun {
			begun = strings.TrimSpace(line) == "*** Begin Patch"
			continue
		}
		if strings.TrimSpace(line) == "*** End Patch" {
			break
		}
		header := false
		for _, h := range headers {
			rest, ok := strings.CutPrefix(line, h.prefix)
			if !ok {
				continue
			}
			header = true
			p := strings.TrimSpace(rest)
			if h.op == Move {
				if len(out) > 0 {
					out[len(out)-1].MoveTo = p
				}
			} else if p != "" {
				out = append(out, Section{Op: h.op, Path: p})
			}
			break
		}
		if !header && len(out) > 0 {
			s := &out[len(out)-1]
			s.Lines = append(s.Lines, line)
		}
	}
	switch {
	case !begun:
		return nil, ErrNotPatch
	case len(out) == 0:
		return nil, ErrNoFiles
	}
	return out, nil
}

// ErrNoMatch is Apply's error when a hunk's lines are not in the file.
var ErrNoMatch = errors.New("a hunk's lines are not in the file")

// Apply returns the content the section gives its file, from old (the
// file's content before; nil for none): an Add's lines, an Update's hunks
// applied in order, nil for a Delete. A hunk's removed and context lines
// are found from where the previous hunk ended, after its "@@ <line>"
// anchor when it has one, exactly or else ignoring trailing and then
// surrounding white space, as the agents that apply these patches do; a
// hunk that is not there is ErrNoMatch. The result ends with a newline.
func (s Section) Apply(old []byte) ([]byte, error) {
	switch s.Op {
	case Delete:
		return nil, nil
	case Add:
		var b strings.Builder
		for _, l := range s.Lines {
			if rest, ok := strings.CutPrefix(l, "+"); ok {
				b.WriteString(rest)
				b.WriteByte('\n')
			}
		}
		return []byte(b.String()), nil
	case Update:
	default:
		return nil, fmt.Errorf("patch: cannot apply %s", s.Op)
	}
	file := strings.Split(string(old), "\n")
	if len(file) > 0 && file[len(file)-1] == "" {
		file = file[:len(file)-1]
	}
	pos := 0
	for _, h := range hunks(s.Lines) {
		if h.anchor != "" {
			i := find(file, []string{h.anchor}, pos, false)
			if i < 0 {
				return nil, fmt.Errorf("%w: the anchor %q", ErrNoMatch, h.anchor)
			}
			pos = i + 1
		}
		at := len(file)
		if len(h.old) > 0 {
			if at = find(file, h.old, pos, h.eof); at < 0 {
				return nil, fmt.Errorf("%w: %q", ErrNoMatch, strings.Join(h.old, "\n"))
			}
		}
		file = append(file[:at:at], append(append([]string{}, h.new...), file[at+len(h.old):]...)...)
		pos = at + len(h.new)
	}
	return []byte(strings.Join(file, "\n") + "\n"), nil
}

// hunk is one "@@" chunk of an Update: its anchor line, the lines it
// replaces and those it puts in their place, and whether it ends at the
// end of the file.
type hunk struct {
	anchor   string
	old, new []string
	eof      bool
}

func hunks(lines []string) []hunk {
	var out []hunk
	cur := func() *hunk {
		if len(out) == 0 {
			out = append(out, hunk{})
		}
		return &out[len(out)-1]
	}
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "@@"):
			out = append(out, hunk{anchor: strings.TrimSpace(strings.TrimPrefix(l, "@@"))})
		case l == "*** End of File":
			cur().eof = true
		case strings.HasPrefix(l, "+"):
			h := cur()
			h.new = append(h.new, l[1:])
		case strings.HasPrefix(l, "-"):
			h := cur()
			h.old = append(h.old, l[1:])
		default:
			// A context line (" x"), or a blank line a writer left bare.
			h := cur()
			c := strings.TrimPrefix(l, " ")
			h.old, h.new = append(h.old, c), append(h.new, c)
		}
	}
	return out
}

// find returns where want first occurs in file at or after pos (at the
// end of the file for eof), or -1: exactly, then ignoring trailing white
// space, then ignoring surrounding white space.
func find(file, want []string, pos int, eof bool) int {
	for _, norm := range []func(string) string{
		func(s string) string { return s },
		func(s string) string { return strings.TrimRight(s, " \t") },
		strings.TrimSpace,
	} {
		start := pos
		if eof && len(file)-len(want) >= pos {
			start = len(file) - len(want)
		}
	next:
		for i := start; i+len(want) <= len(file); i++ {
			for j, w := range want {
				if norm(file[i+j]) != norm(w) {
					continue next
				}
			}
			return i
		}
	}
	return -1
}
