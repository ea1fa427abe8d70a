// Package safetext holds the small text operations that make a value fit
// where it is shown: cut to a byte budget without splitting a UTF-8
// sequence, put on one line, Go-quoted when it holds what a terminal or a
// log would misread (a control character, a line break, invalid UTF-8), and
// escaped for Markdown. It holds no format of its own: the ledger's, the
// intent context's and the Markdown line model's escapes stay theirs.
package safetext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ellipsis marks a cut.
const Ellipsis = "…"

// Prefix returns the longest prefix of s of at most n bytes that does not
// end inside a UTF-8 sequence.
func Prefix(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Suffix returns the longest suffix of s of at most n bytes that does not
// begin inside a UTF-8 sequence.
func Suffix(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return ""
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// Clip returns s if it takes at most n bytes; else its longest prefix that,
// with Ellipsis after it, takes at most n bytes, on a rune boundary.
func Clip(s string, n int) string { return ClipMark(s, n, Ellipsis) }

// ClipMark is Clip with mark in place of Ellipsis. Where n leaves no room
// for mark, the prefix goes unmarked.
func ClipMark(s string, n int, mark string) string {
	if len(s) <= n {
		return s
	}
	if n <= len(mark) {
		return Prefix(s, n)
	}
	return Prefix(s, n-len(mark)) + mark
}

// OneLine keeps s on one line: every control character (C0, DEL, C1) and
// Unicode line or paragraph separator becomes a space, and invalid UTF-8
// becomes U+FFFD.
func OneLine(s string) string {
	if !needsLine(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case breaksLine(r):
			b.WriteByte(' ')
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsLine(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || breaksLine(r) {
			return true
		}
		i += size
	}
	return false
}

func breaksLine(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == '\u2028' || r == '\u2029'
}

// Flat puts free text on one line as it reads: every run of white space
// (line breaks included) becomes one space, and none is left at the ends.
func Flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// FirstLine returns s up to its first newline.
func FirstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Quote is how a path or text is shown to people: Go-quoted when it holds a
// control character, a line break or invalid UTF-8, so that it cannot
// move the cursor, forge a line or hide its bytes; as it is otherwise.
func Quote(s string) string {
	if Unsafe(s) {
		return strconv.Quote(s)
	}
	return s
}

// QuoteAll is Quote of each of xs.
func QuoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = Quote(x)
	}
	return out
}

// Unsafe reports whether s holds a control character, a line break, a
// bidirectional control (which reorders what a reader sees of the rest of
// the line) or invalid UTF-8: what Quote quotes.
func Unsafe(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r) {
			return true
		}
		i += size
	}
	return false
}

// markdownSpecial are the ASCII punctuation characters Markdown gives a
// meaning to inside a line or at its start; each is escaped with a
// backslash (CommonMark: any ASCII punctuation may be).
const markdownSpecial = "\\`*_{}[]()<>#+-.!|~&"

// Markdown escapes s for Markdown text: its special characters are
// backslash-escaped, so that s reads as its own characters and starts no
// heading, list, link, emphasis, HTML or table cell; line breaks become
// spaces (OneLine).
func Markdown(s string) string {
	s = OneLine(s)
	if !strings.ContainsAny(s, markdownSpecial) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(markdownSpecial, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// EscapeJSON rewrites, in encoded JSON, each bidirectional control (which
// reorders what a reader sees of the rest of the line) and each C1
// control as a \uXXXX escape: encoding/json writes them raw, and a
// person's terminal or editor acts on them. Such a rune can stand only
// inside a JSON string, where the escape means the same rune, so the
// value is unchanged; JSON without them is returned as it is.
func EscapeJSON(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < utf8.RuneSelf {
		i++
	}
	if i == len(b) {
		return b
	}
	var out []byte
	for j := i; j < len(b); {
		r, size := utf8.DecodeRune(b[j:])
		if jsonEscaped(r) {
			if out == nil {
				out = append(make([]byte, 0, len(b)+12), b[:j]...)
			}
			out = fmt.Appendf(out, `\u%04x`, r)
		} else if out != nil {
			out = append(out, b[j:j+size]...)
		}
		j += size
	}
	if out == nil {
		return b
	}
	return out
}

func jsonEscaped(r rune) bool {
	return r >= 0x80 && r <= 0x9f || unicode.Is(unicode.Bidi_Control, r)
}
