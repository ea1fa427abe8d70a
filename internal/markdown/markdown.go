// Package markdown edits Markdown files people own, line by line: it finds
// ATX sections, appends to them and removes list items, keeping every line
// it does not touch byte for byte, and makes values safe to write into one
// line. It is not a Markdown parser.
package markdown

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Doc is a Markdown file as lines, each kept with its own terminator, so that
// every line this package does not touch is written back byte for byte.
// It knows ATX headings, fenced code blocks (a heading inside one is text) and
// list items: enough to find a section and append to it, not a Markdown parser.
type Doc struct {
	Lines []string // text and terminator; only the last line may lack one. Callers may change a line's text in place
	eol   string   // terminator of new lines: the file's own, so a CRLF file stays CRLF
	level []int    // per line: its ATX heading level, 0 for any other line
	title []string // per heading line: its Text without the #s
	Code  []bool   // per line: inside a fenced code block (fences included)
}

func Parse(data string) *Doc {
	d := &Doc{eol: "\n"}
	for data != "" {
		i := strings.IndexByte(data, '\n')
		if i < 0 {
			d.Lines = append(d.Lines, data)
			break
		}
		d.Lines = append(d.Lines, data[:i+1])
		data = data[i+1:]
	}
	if len(d.Lines) > 0 && strings.HasSuffix(d.Lines[0], "\r\n") {
		d.eol = "\r\n"
	}
	d.index()
	return d
}

func (d *Doc) String() string { return strings.Join(d.Lines, "") }

// index classifies every line again; edits call it, files are small.
func (d *Doc) index() {
	n := len(d.Lines)
	d.level, d.title, d.Code = make([]int, n), make([]string, n), make([]bool, n)
	fence, open := "", -1
	for i := 0; i < n; i++ {
		t := Text(d.Lines[i])
		lead := strings.TrimLeft(t, " ")
		indented := len(t)-len(lead) >= 4
		if fence != "" {
			d.Code[i] = true
			if run := fenceRun(lead); !indented && run != "" && run[0] == fence[0] && len(run) >= len(fence) &&
				strings.TrimSpace(lead[len(run):]) == "" {
				fence = ""
			}
			if fence != "" && i == n-1 {
				// Never closed. CommonMark runs such a block to the end of
				// the file, hiding every heading after it, and each write
				// would append the same section again; read the opener as
				// Text instead and go on after it.
				fence = ""
				for j := open; j < n; j++ {
					d.Code[j] = false
				}
				i = open
			}
			continue
		}
		if indented {
			continue
		}
		if run := fenceRun(lead); run != "" {
			fence, open = run, i
			d.Code[i] = true
			if i == n-1 {
				d.Code[i] = false
			}
			continue
		}
		d.level[i], d.title[i] = heading(lead)
	}
}

// fenceRun returns the ``` or ~~~ run opening or closing a fenced code block
// at the start of lead, or "".
func fenceRun(lead string) string {
	if lead == "" || (lead[0] != '`' && lead[0] != '~') {
		return ""
	}
	n := 0
	for n < len(lead) && lead[n] == lead[0] {
		n++
	}
	if n < 3 || (lead[0] == '`' && strings.Contains(lead[n:], "`")) {
		return ""
	}
	return lead[:n]
}

// heading returns the level and title of an ATX heading line (indentation
// already removed), or 0.
func heading(lead string) (int, string) {
	n := 0
	for n < len(lead) && lead[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(lead) && lead[n] != ' ' && lead[n] != '\t') {
		return 0, ""
	}
	title := strings.TrimSpace(lead[n:])
	if t := strings.TrimRight(title, "#"); t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t") {
		title = strings.TrimSpace(t) // a closing sequence of #s
	}
	return n, title
}

// Text returns a line without its terminator.
func Text(line string) string {
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
}

func Blank(line string) bool { return strings.TrimSpace(line) == "" }

// ListItem reports whether a line starts a bullet list item.
func ListItem(line string) bool {
	lead := strings.TrimLeft(Text(line), " \t")
	return strings.HasPrefix(lead, "- ") || strings.HasPrefix(lead, "* ") || strings.HasPrefix(lead, "+ ")
}

// Find returns the first line in [from, to) that is a heading of the given
// level whose title satisfies match, or -1.
func (d *Doc) Find(from, to, level int, match func(title string) bool) int {
	for i := from; i < to; i++ {
		if d.level[i] == level && match(d.title[i]) {
			return i
		}
	}
	return -1
}

// Heading returns line i's heading level (0 for any other line) and title.
func (d *Doc) Heading(i int) (int, string) {
	if d.level[i] == 0 {
		return 0, ""
	}
	return d.level[i], d.title[i]
}

// End returns where the block opened by the heading at h ends: at the next
// heading of the same or a higher level, or at the end of the file.
func (d *Doc) End(h int) int {
	for i := h + 1; i < len(d.Lines); i++ {
		if d.level[i] > 0 && d.level[i] <= d.level[h] {
			return i
		}
	}
	return len(d.Lines)
}

// Insert puts new lines (given without terminators) before line i.
func (d *Doc) Insert(i int, block ...string) {
	if i > 0 && !strings.HasSuffix(d.Lines[i-1], "\n") {
		d.Lines[i-1] += d.eol // the file ended without a newline
	}
	add := make([]string, len(block))
	for k, l := range block {
		add[k] = l + d.eol
	}
	d.Lines = append(d.Lines[:i], append(add, d.Lines[i:]...)...)
	d.index()
}

// Remove deletes line i. When that leaves two blank lines side by side, one
// goes too: they were the blank lines around the list, and keeping both
// would let every remove-and-add cycle grow the file.
func (d *Doc) Remove(i int) {
	d.Lines = append(d.Lines[:i], d.Lines[i+1:]...)
	if i > 0 && i < len(d.Lines) && Blank(d.Lines[i-1]) && Blank(d.Lines[i]) {
		d.Lines = append(d.Lines[:i], d.Lines[i+1:]...)
	}
	d.index()
}

// AppendTo puts block at the end of the block opened by the heading at h and
// ending before line e: after its last non-blank line, so blank lines that
// separate it from the next heading stay after it. A blank line goes before
// the new lines unless they continue a list, and after them when a heading
// would follow at once, so the Markdown renders as the lines read.
func (d *Doc) AppendTo(h, e int, block ...string) {
	k := e - 1
	for k > h && Blank(d.Lines[k]) {
		k--
	}
	last := d.Lines[k]
	continues := k > h && !d.Code[k] && (ListItem(last) || strings.HasPrefix(last, " ") || strings.HasPrefix(last, "\t"))
	if !ListItem(block[0]) || !continues {
		block = append([]string{""}, block...)
	}
	if k+1 < len(d.Lines) && !Blank(d.Lines[k+1]) {
		block = append(block, "")
	}
	d.Insert(k+1, block...)
}

// OneLine makes s safe to write into one Markdown line that agents read:
// ASCII control characters (line breaks included) and invalid UTF-8 become
// \xNN, and Unicode line separators, C1 controls and bidirectional overrides
// become \uNNNN, so that no value can start a line of its own or make its line
// read differently from its bytes. Past limit bytes (0: none) the rest is cut
// and marked with an ellipsis.
func OneLine(s string, limit int) string {
	var b strings.Builder
	cut := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		var piece string
		switch {
		case r == utf8.RuneError && w == 1:
			piece = fmt.Sprintf(`\x%02x`, s[i])
		case r < 0x20 || r == 0x7f:
			piece = fmt.Sprintf(`\x%02x`, r)
		case r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			piece = fmt.Sprintf(`\u%04x`, r)
		default:
			piece = s[i : i+w]
		}
		b.WriteString(piece)
		i += w
		if b.Len() <= limit-len(ellipsis) {
			cut = b.Len() // never inside a rune or an escape
		}
	}
	if limit > 0 && b.Len() > limit {
		return b.String()[:cut] + ellipsis
	}
	return b.String()
}

const ellipsis = "…"

// QuotePath is how a path is written between backticks: without backticks,
// which would end the code span, and on one line.
func QuotePath(p string) string {
	return OneLine(strings.ReplaceAll(p, "`", ""), 0)
}
