package intentctx

import (
	"strings"
	"unicode/utf8"
)

// mode says how a string is measured and written.
type mode int

const (
	raw  mode = iota // bytes as they are (the warning line, the 2 KB spec cut)
	text             // XML character data
	attr             // a double-quoted XML attribute value
)

// replacement stands for invalid UTF-8 and characters XML 1.0 forbids, so
// that no input can make the output ill-formed.
const replacement = "\uFFFD"

// entity is what the rune r (n bytes of input) is written as in mode m, or
// "" when it is written as itself. In text, tabs and newlines stay literal
// (spec excerpts are documents; &#xA; on every line would bury them); in
// attributes they are escaped, since a parser would turn them into spaces.
func entity(r rune, n int, m mode) string {
	if m == raw {
		return ""
	}
	if r == utf8.RuneError && n == 1 {
		return replacement
	}
	switch r {
	case '&':
		return "&amp;"
	case '<':
		return "&lt;"
	case '>':
		return "&gt;"
	}
	if m == attr {
		switch r {
		case '"':
			return "&quot;"
		case '\t':
			return "&#x9;"
		case '\n':
			return "&#xA;"
		case '\r':
			return "&#xD;"
		}
	}
	if !xmlChar(r) {
		return replacement
	}
	return ""
}

// xmlChar reports whether r is a Char of XML 1.0 (§2.2).
func xmlChar(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= utf8.MaxRune
}

// escLen is the length of s written in mode m.
func escLen(s string, m mode) int { return measure(s, m, len(s)*len("&quot;")) }

// measure is the length of s written in mode m if that is at most limit;
// otherwise it is some number above limit. Build measures against its
// budget: what exceeds the budget alone is never shown whole, so its exact
// size does not matter, and a 10 MB spec file costs no more than its
// first budget bytes.
func measure(s string, m mode, limit int) int {
	if m == raw {
		return len(s)
	}
	n := 0
	for i := 0; i < len(s) && n <= limit; {
		if c := s[i]; c < utf8.RuneSelf {
			// ASCII needs no decoding, and is nearly all of it.
			n += asciiLen(c, m)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if e := entity(r, size, m); e != "" {
			n += len(e)
		} else {
			n += size
		}
		i += size
	}
	return n
}

// asciiLen is len(entity(c)) for an ASCII byte, or 1 when c stands for
// itself.
func asciiLen(c byte, m mode) int {
	switch {
	case c >= 0x20 && c != '&' && c != '<' && c != '>' && c != '"':
		return 1
	case c < 0x20 && c != '\t' && c != '\n' && c != '\r':
		return len(replacement)
	}
	if e := entity(rune(c), 1, m); e != "" {
		return len(e)
	}
	return 1
}

// writeEsc writes s to b in mode m.
func writeEsc(b *strings.Builder, s string, m mode) {
	start := 0 // s[start:i] is pending, written as itself
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if e := entity(r, size, m); e != "" {
			b.WriteString(s[start:i])
			b.WriteString(e)
			start = i + size
		}
		i += size
	}
	b.WriteString(s[start:])
}

// cut returns s if it takes at most max bytes in mode m; else its longest
// prefix, on a rune boundary, that takes at most max bytes with "…" added,
// "…" included; "" if max leaves no room for "…".
func cut(s string, max int, m mode) string {
	if max < len(ellipsis) {
		if len(s) <= max && escLen(s, m) <= max {
			return s
		}
		return ""
	}
	limit := max - len(ellipsis)
	n, end := 0, -1 // end: where the prefix fitting limit ends
	for i := 0; i < len(s); {
		if n <= limit {
			end = i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if e := entity(r, size, m); e != "" {
			n += len(e)
		} else {
			n += size
		}
		i += size
		if n > max {
			return s[:end] + ellipsis
		}
	}
	return s
}

// Text is s as XML character data: what a fence around text an agent or a
// person wrote holds, so that the text cannot close the fence.
func Text(s string) string {
	var b strings.Builder
	writeEsc(&b, s, text)
	return b.String()
}
