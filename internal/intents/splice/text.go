//go:build !noyaml

package splice

import (
	"bytes"
	"fmt"
	"sort"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// bom is the UTF-8 byte order mark. yaml.v3 skips it before it starts counting columns.
const bom = "\xEF\xBB\xBF"

// text maps yaml.v3 marks (1-based line and column) to byte offsets in the original data and finds
// where a node's text ends, which yaml.v3 does not report.
//
// yaml.v3 follows libyaml: a line ends at CR LF, CR, LF, NEL (U+0085), LS (U+2028) or PS (U+2029), and
// a column counts characters, not bytes (`{name: "Café", status: X}` puts X at column 28, byte 29).
// So offsets are found by walking runes from the start of the line, with the same line breaks.
//
// The scanners below mirror libyaml's scanner closely enough to find the end of a node that has
// already parsed; they are not a YAML parser and report nothing about malformed input.
type text struct {
	data  []byte
	lines []int // byte offset at which each line starts
}

func newText(data []byte) *text {
	t := &text{data: data}
	i := 0
	if bytes.HasPrefix(data, []byte(bom)) {
		i = len(bom)
	}
	t.lines = append(t.lines, i)
	for i < len(data) {
		if w := breakWidth(data, i); w > 0 {
			i += w
			t.lines = append(t.lines, i)
			continue
		}
		// Byte steps are safe: a line break starts with a byte that never continues a UTF-8 sequence.
		i++
	}
	return t
}

// offset converts a yaml.v3 mark to a byte offset.
func (t *text) offset(line, col int) (int, error) {
	if line < 1 || line > len(t.lines) || col < 1 {
		return 0, fmt.Errorf("%w: position %d:%d is outside the file", errMismatch, line, col)
	}
	i := t.lines[line-1]
	for k := 1; k < col; k++ {
		if i >= len(t.data) || breakWidth(t.data, i) > 0 {
			return 0, fmt.Errorf("%w: position %d:%d is past the end of its line", errMismatch, line, col)
		}
		_, w := utf8.DecodeRune(t.data[i:])
		i += w
	}
	return i, nil
}

// nodeOffset is the byte offset at which n's text starts (its anchor or tag, if it has one).
func (t *text) nodeOffset(n *yaml.Node) (int, error) {
	return t.offset(n.Line, n.Column)
}

// lineStart is the byte offset of the start of the line holding off.
func (t *text) lineStart(off int) int {
	k := sort.Search(len(t.lines), func(k int) bool { return t.lines[k] > off })
	if k == 0 {
		return 0
	}
	return t.lines[k-1]
}

// column is the 0-based character column of off, counted like yaml.v3 counts it.
func (t *text) column(off int) int {
	return utf8.RuneCount(t.data[t.lineStart(off):off])
}

// lineEnd is the offset of the line break at or after i, or the end of the data.
func (t *text) lineEnd(i int) int {
	for i < len(t.data) && breakWidth(t.data, i) == 0 {
		i++
	}
	return i
}

// nextLine is where a new line inserted after the line holding off goes. atEOF reports that this line
// has no line break (the file's last line without a final newline): the caller then has to put the
// break before its new line, so that the file still ends without one.
func (t *text) nextLine(off int) (at int, atEOF bool) {
	i := t.lineEnd(off)
	if i >= len(t.data) {
		return len(t.data), true
	}
	return i + breakWidth(t.data, i), false
}

// lineBreak is the line break the file uses, taken from its first line, so inserted lines match.
func (t *text) lineBreak() string {
	for i := range t.data {
		if w := breakWidth(t.data, i); w > 0 {
			if b := string(t.data[i : i+w]); b == "\r\n" || b == "\r" {
				return b
			}
			return "\n"
		}
	}
	return "\n"
}

// skipSeparation moves past blanks, line breaks and comments.
func (t *text) skipSeparation(i int) int {
	d := t.data
	for i < len(d) {
		switch w := breakWidth(d, i); {
		case isBlank(d, i):
			i++
		case w > 0:
			i += w
		case d[i] == '#':
			i = t.lineEnd(i)
		default:
			return i
		}
	}
	return i
}

// skipProperties moves past a node's anchor and tag. content is where the node's own text starts and
// propsEnd is the end of its last property; they differ only by the separation between them, which
// matters for a value that is empty except for its properties (`key: !!str`).
func (t *text) skipProperties(i int) (content, propsEnd int) {
	d := t.data
	propsEnd = i
	for i < len(d) && (d[i] == '&' || d[i] == '!') {
		if d[i] == '!' && i+1 < len(d) && d[i+1] == '<' {
			// A verbatim tag, !<...>, may hold characters that end other tags.
			for i < len(d) && d[i] != '>' && breakWidth(d, i) == 0 {
				i++
			}
			if i < len(d) && d[i] == '>' {
				i++
			}
		} else {
			i++
			for i < len(d) && !isBlankz(d, i) {
				i++
			}
		}
		propsEnd = i
		i = t.skipSeparation(i)
	}
	if propsEnd == i {
		return i, i
	}
	return i, propsEnd
}

// end returns the offset just past n's text. flow tells whether n sits inside a flow collection, and
// indent is the column of the block collection holding it (-1 at the top level): libyaml ends plain and
// block scalars by comparing line indentation with it.
func (t *text) end(n *yaml.Node, flow bool, indent int) (int, error) {
	start, err := t.nodeOffset(n)
	if err != nil {
		return 0, err
	}
	if n.Kind == yaml.AliasNode {
		return t.aliasEnd(start), nil
	}
	content, propsEnd := t.skipProperties(start)
	switch n.Kind {
	case yaml.ScalarNode:
		return t.scalarEnd(n, content, propsEnd, flow, indent)
	case yaml.SequenceNode, yaml.MappingNode:
		if n.Style&yaml.FlowStyle != 0 || flow {
			return t.flowEnd(n, content)
		}
		if len(n.Content) == 0 {
			return 0, fmt.Errorf("%w: empty block collection at line %d", errMismatch, n.Line)
		}
		in := t.column(content) // a sequence's dash
		if n.Kind == yaml.MappingNode {
			in = n.Content[0].Column - 1 // a mapping's first key
		}
		return t.end(n.Content[len(n.Content)-1], false, in)
	}
	return 0, fmt.Errorf("%w: unexpected node kind %v at line %d", errMismatch, n.Kind, n.Line)
}

// scalarEnd finds the end of a scalar whose text starts at content.
func (t *text) scalarEnd(n *yaml.Node, content, propsEnd int, flow bool, indent int) (int, error) {
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		return t.quotedEnd(content, '"')
	case n.Style&yaml.SingleQuotedStyle != 0:
		return t.quotedEnd(content, '\'')
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return t.blockEnd(content, indent)
	case n.Value == "":
		// A plain scalar is never empty: this is an implied null (`key:`), which has no text of its own.
		return propsEnd, nil
	}
	return t.plainEnd(content, flow, indent), nil
}

// quotedEnd finds the closing quote of a quoted scalar starting at i. Escaped quotes (a backslash in
// double quotes, a doubled quote in single quotes) do not close it; byte steps are safe because the
// quotes and the backslash are ASCII.
func (t *text) quotedEnd(i int, q byte) (int, error) {
	d := t.data
	if i >= len(d) || d[i] != q {
		return 0, fmt.Errorf("%w: expected %c at byte %d", errMismatch, q, i)
	}
	for i++; i < len(d); i++ {
		switch {
		case q == '"' && d[i] == '\\':
			i++
		case d[i] == q && q == '\'' && i+1 < len(d) && d[i+1] == '\'':
			i++
		case d[i] == q:
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("%w: unterminated quoted scalar", errMismatch)
}

// aliasEnd finds the end of an alias (*name); anchor names are libyaml's "alpha" characters.
func (t *text) aliasEnd(i int) int {
	for i++; i < len(t.data) && isAlpha(t.data[i]); i++ {
	}
	return i
}

// plainEnd finds the end of a plain scalar starting at i, following libyaml's
// yaml_parser_scan_plain_scalar: the scalar may run over several lines, and stops at ": ", at " #", at a
// line indented no deeper than its block collection, at a document marker, and in flow context at
// flow indicators.
func (t *text) plainEnd(i int, flow bool, indent int) int {
	d := t.data
	end := i
	col := -1 // column after a line break; unknown on the scalar's first line
	for {
		if col == 0 && isDocumentMarker(d, i) {
			break
		}
		if i < len(d) && d[i] == '#' {
			break
		}
		for i < len(d) && !isBlankz(d, i) {
			c := d[i]
			if c == ':' && isBlankz(d, i+1) {
				break
			}
			if flow && (c == ',' || c == '?' || c == '[' || c == ']' || c == '{' || c == '}') {
				break
			}
			_, w := utf8.DecodeRune(d[i:])
			i += w
			end = i
		}
		if i >= len(d) || !(isBlank(d, i) || breakWidth(d, i) > 0) {
			break
		}
		col = -1
		for i < len(d) {
			if isBlank(d, i) {
				i++
				if col >= 0 {
					col++
				}
				continue
			}
			if w := breakWidth(d, i); w > 0 {
				i += w
				col = 0
				continue
			}
			break
		}
		if col >= 0 && !flow && col < indent+1 {
			break
		}
	}
	return end
}

// blockEnd finds the end of a literal or folded scalar whose indicator (| or >) is at i, following
// libyaml's yaml_parser_scan_block_scalar: the end of its last content line, or with keep chomping
// (|+), of its last trailing blank line, because those blank lines are part of its value.
func (t *text) blockEnd(i, indent int) (int, error) {
	d := t.data
	if i >= len(d) || (d[i] != '|' && d[i] != '>') {
		return 0, fmt.Errorf("%w: expected a block scalar at byte %d", errMismatch, i)
	}
	i++
	keep, increment := false, 0
	for k := 0; k < 2 && i < len(d); k++ {
		switch c := d[i]; {
		case c == '+':
			keep = true
			i++
		case c == '-':
			i++
		case c >= '1' && c <= '9':
			increment = int(c - '0')
			i++
		}
	}
	i = t.lineEnd(i) // the header's blanks and comment
	end := i
	i += breakWidth(d, i)

	want := 0
	if increment > 0 {
		want = increment
		if indent >= 0 {
			want = indent + increment
		}
	}
	// breaks consumes empty lines and the indentation of the next line, like
	// yaml_parser_scan_block_scalar_breaks, and reports the column reached.
	maxIndent := 0
	breaks := func() int {
		for {
			col := 0
			for i < len(d) && (want == 0 || col < want) && d[i] == ' ' {
				i++
				col++
			}
			maxIndent = max(maxIndent, col)
			w := breakWidth(d, i)
			if w == 0 {
				return col
			}
			if keep {
				end = i
			}
			i += w
		}
	}
	col := breaks()
	if want == 0 {
		want = max(maxIndent, indent+1, 1)
	}
	for col == want && i < len(d) {
		i = t.lineEnd(i)
		end = i
		i += breakWidth(d, i)
		col = breaks()
	}
	return end, nil
}

// flowEnd finds the closing bracket of a flow collection whose text starts at i.
func (t *text) flowEnd(n *yaml.Node, i int) (int, error) {
	d := t.data
	if i >= len(d) || (d[i] != '[' && d[i] != '{') {
		// A single-pair mapping inside a flow sequence ([a: b]) has no braces.
		if n.Kind == yaml.MappingNode && len(n.Content) > 0 {
			return t.end(n.Content[len(n.Content)-1], true, -1)
		}
		return 0, fmt.Errorf("%w: expected a flow collection at byte %d", errMismatch, i)
	}
	closing := byte(']')
	if d[i] == '{' {
		closing = '}'
	}
	i++
	if len(n.Content) > 0 {
		var err error
		if i, err = t.end(n.Content[len(n.Content)-1], true, -1); err != nil {
			return 0, err
		}
	}
	for {
		i = t.skipSeparation(i)
		switch {
		case i >= len(d):
			return 0, fmt.Errorf("%w: unterminated flow collection", errMismatch)
		case d[i] == ',':
			i++
		case d[i] == closing:
			return i + 1, nil
		default:
			return 0, fmt.Errorf("%w: unexpected %q in flow collection", errMismatch, d[i])
		}
	}
}

// breakWidth is the length of the line break at i, or 0 if there is none.
func breakWidth(d []byte, i int) int {
	switch {
	case i >= len(d):
		return 0
	case d[i] == '\r' && i+1 < len(d) && d[i+1] == '\n':
		return 2
	case d[i] == '\r' || d[i] == '\n':
		return 1
	case d[i] == 0xC2 && i+1 < len(d) && d[i+1] == 0x85: // NEL
		return 2
	case d[i] == 0xE2 && i+2 < len(d) && d[i+1] == 0x80 && (d[i+2] == 0xA8 || d[i+2] == 0xA9): // LS, PS
		return 3
	}
	return 0
}

func isBlank(d []byte, i int) bool {
	return i < len(d) && (d[i] == ' ' || d[i] == '\t')
}

// isBlankz reports a blank, a line break or the end of the data, libyaml's is_blankz.
func isBlankz(d []byte, i int) bool {
	return i >= len(d) || isBlank(d, i) || breakWidth(d, i) > 0
}

func isAlpha(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-'
}

func isDocumentMarker(d []byte, i int) bool {
	return i+3 <= len(d) && (string(d[i:i+3]) == "---" || string(d[i:i+3]) == "...") && isBlankz(d, i+3)
}
