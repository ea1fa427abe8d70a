package intentmap

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// doc is a Markdown file as lines, each kept with its own terminator, so that
// every line this package does not touch is written back byte for byte.
// It knows ATX headings, fenced code blocks (a heading inside one is text) and
// list items: enough to find a section and append to it, not a Markdown parser.
type doc struct {
	lines []string // text and terminator; only the last line may lack one
	eol   string   // terminator of new lines: the file's own, so a CRLF file stays CRLF
	level []int    // per line: its ATX heading level, 0 for any other line
	title []string // per heading line: its text without the #s
	code  []bool   // per line: inside a fenced code block (fences included)
}

func parseDoc(data string) *doc {
	d := &doc{eol: "\n"}
	for data != "" {
		i := strings.IndexByte(data, '\n')
		if i < 0 {
			d.lines = append(d.lines, data)
			break
		}
		d.lines = append(d.lines, data[:i+1])
		data = data[i+1:]
	}
	if len(d.lines) > 0 && strings.HasSuffix(d.lines[0], "\r\n") {
		d.eol = "\r\n"
	}
	d.index()
	return d
}

func (d *doc) String() string { return strings.Join(d.lines, "") }

// index classifies every line again; edits call it, files are small.
func (d *doc) index() {
	n := len(d.lines)
	d.level, d.title, d.code = make([]int, n), make([]string, n), make([]bool, n)
	fence, open := "", -1
	for i := 0; i < n; i++ {
		t := text(d.lines[i])
		lead := strings.TrimLeft(t, " ")
		indented := len(t)-len(lead) >= 4
		if fence != "" {
			d.code[i] = true
			if run := fenceRun(lead); !indented && run != "" && run[0] == fence[0] && len(run) >= len(fence) &&
				strings.TrimSpace(lead[len(run):]) == "" {
				fence = ""
			}
			if fence != "" && i == n-1 {
				// Never closed. CommonMark runs such a block to the end of
				// the file, hiding every heading after it, and each write
				// would append the same section again; read the opener as
				// text instead and go on after it.
				fence = ""
				for j := open; j < n; j++ {
					d.code[j] = false
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
			d.code[i] = true
			if i == n-1 {
				d.code[i] = false
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

// text returns a line without its terminator.
func text(line string) string {
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
}

func blank(line string) bool { return strings.TrimSpace(line) == "" }

// listItem reports whether a line starts a bullet list item.
func listItem(line string) bool {
	lead := strings.TrimLeft(text(line), " \t")
	return strings.HasPrefix(lead, "- ") || strings.HasPrefix(lead, "* ") || strings.HasPrefix(lead, "+ ")
}

// find returns the first line in [from, to) that is a heading of the given
// level whose title satisfies match, or -1.
func (d *doc) find(from, to, level int, match func(title string) bool) int {
	for i := from; i < to; i++ {
		if d.level[i] == level && match(d.title[i]) {
			return i
		}
	}
	return -1
}

// end returns where the block opened by the heading at h ends: at the next
// heading of the same or a higher level, or at the end of the file.
func (d *doc) end(h int) int {
	for i := h + 1; i < len(d.lines); i++ {
		if d.level[i] > 0 && d.level[i] <= d.level[h] {
			return i
		}
	}
	return len(d.lines)
}

// insert puts new lines (given without terminators) before line i.
func (d *doc) insert(i int, block ...string) {
	if i > 0 && !strings.HasSuffix(d.lines[i-1], "\n") {
		d.lines[i-1] += d.eol // the file ended without a newline
	}
	add := make([]string, len(block))
	for k, l := range block {
		add[k] = l + d.eol
	}
	d.lines = append(d.lines[:i], append(add, d.lines[i:]...)...)
	d.index()
}

// remove deletes line i. When that leaves two blank lines side by side, one
// goes too: they were the blank lines around the list, and keeping both
// would let every remove-and-add cycle grow the file.
func (d *doc) remove(i int) {
	d.lines = append(d.lines[:i], d.lines[i+1:]...)
	if i > 0 && i < len(d.lines) && blank(d.lines[i-1]) && blank(d.lines[i]) {
		d.lines = append(d.lines[:i], d.lines[i+1:]...)
	}
	d.index()
}

// appendTo puts block at the end of the block opened by the heading at h and
// ending before line e: after its last non-blank line, so blank lines that
// separate it from the next heading stay after it. A blank line goes before
// the new lines unless they continue a list, and after them when a heading
// would follow at once, so the Markdown renders as the lines read.
func (d *doc) appendTo(h, e int, block ...string) {
	k := e - 1
	for k > h && blank(d.lines[k]) {
		k--
	}
	last := d.lines[k]
	continues := k > h && !d.code[k] && (listItem(last) || strings.HasPrefix(last, " ") || strings.HasPrefix(last, "\t"))
	if !listItem(block[0]) || !continues {
		block = append([]string{""}, block...)
	}
	if k+1 < len(d.lines) && !blank(d.lines[k+1]) {
		block = append(block, "")
	}
	d.insert(k+1, block...)
}

// oneLine makes s safe to write into one Markdown line that agents read:
// ASCII control characters (line breaks included) and invalid UTF-8 become
// \xNN, and Unicode line separators, C1 controls and bidirectional overrides
// become \uNNNN, so that no value can start a line of its own or make its line
// read differently from its bytes.
func oneLine(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+w])
		}
		i += w
	}
	return b.String()
}

// quotePath is how a path is written between backticks: without backticks,
// which would end the code span, and on one line.
func quotePath(p string) string {
	return oneLine(strings.ReplaceAll(p, "`", ""))
}
