// Package jsontext reads and writes JSON text without reflection: it checks
// a value as json.Valid does, splits an object into its members and an
// array into its elements, decodes a string as json.Unmarshal does and
// encodes one as json.Marshal does (HTML left unescaped).
//
// A hook runs in a new process on every tool call, and encoding/json's
// first use in a process builds its decoders and encoders and touches its
// code and the reflect package's: a dozen page faults and more, each
// costing what a page costs on a virtual machine. The hooks read their
// event and their state, and write their answers, here instead. The tests
// hold every function to encoding/json on the same input, fuzzed.
package jsontext

import (
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds nesting, as encoding/json does (10000).
const maxDepth = 10000

// SkipSpace returns the offset of the first byte at or after i that is not
// JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// Valid reports whether b is one JSON value (RFC 8259), white space around
// it allowed, as json.Valid does.
func Valid(b []byte) bool {
	i, ok := value(b, SkipSpace(b, 0), 0)
	return ok && SkipSpace(b, i) == len(b)
}

// value checks the JSON value that starts at b[i], inside depth arrays and
// objects (nesting is bounded, as encoding/json bounds it), and returns the
// offset just after it.
func value(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch c := b[i]; {
	case c == '"':
		return stringEnd(b, i)
	case (c == '{' || c == '[') && depth >= maxDepth:
		return i, false
	case c == '{':
		return object(b, i, depth+1, nil)
	case c == '[':
		return array(b, i, depth+1, nil)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return number(b, i)
	}
	return i, false
}

func literal(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// object checks the object at b[i] ('{'), calling member, when it is not
// nil, with each member's key as written (its quotes included) and the
// offsets in b of its value.
func object(b []byte, i, depth int, member func(key []byte, start, end int)) (int, bool) {
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		key := i
		var ok bool
		if i, ok = stringEnd(b, i); !ok {
			return i, false
		}
		keyEnd := i
		i = SkipSpace(b, i)
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		start := SkipSpace(b, i+1)
		if i, ok = value(b, start, depth); !ok {
			return i, false
		}
		if member != nil {
			member(b[key:keyEnd], start, i)
		}
		var done bool
		if i, done, ok = next(b, i, '}'); done || !ok {
			return i, ok
		}
	}
}

// array checks the array at b[i] ('['), calling element, when it is not
// nil, with each element.
func array(b []byte, i, depth int, element func(value []byte)) (int, bool) {
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		start := i
		var ok bool
		if i, ok = value(b, i, depth); !ok {
			return i, false
		}
		if element != nil {
			element(b[start:i:i])
		}
		var done bool
		if i, done, ok = next(b, i, ']'); done || !ok {
			return i, ok
		}
	}
}

// next reads what follows a member or an element that ends at b[i]: a
// comma, and it returns where the next one starts, or closer, and it
// returns the offset past it, done.
func next(b []byte, i int, closer byte) (at int, done, ok bool) {
	i = SkipSpace(b, i)
	switch {
	case i >= len(b):
		return i, false, false
	case b[i] == closer:
		return i + 1, true, true
	case b[i] != ',':
		return i, false, false
	}
	return SkipSpace(b, i+1), false, true
}

// stringEnd checks the string that starts at b[i] (its opening quote) and
// returns the offset just after its closing quote. Like json.Valid it
// checks escapes and control characters, not UTF-8 (Unquote replaces what
// is not UTF-8).
func stringEnd(b []byte, i int) (int, bool) {
	i++
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= len(b) {
				return i, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || hex4(b[i+2:i+6]) < 0 {
					return i, false
				}
				i += 6
			default:
				return i, false
			}
		case c < 0x20:
			return i, false
		default:
			i++
		}
	}
	return i, false
}

func number(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		start := i + 1
		if i = digits(b, start); i == start {
			return i, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		if i = digits(b, start); i == start {
			return i, false
		}
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// Members calls fn with each member of the JSON object b (white space
// around it allowed): its key decoded as json.Unmarshal decodes a map's
// key, and its value's bytes, part of b. It reports whether b is one valid
// JSON object; when it is not, what fn was given is to be dropped. Members
// come in their order in b, so that a map built from them keeps the last
// of a repeated key, as json.Unmarshal into a map does.
func Members(b []byte, fn func(key string, value []byte)) bool {
	return Fields(b, func(key []byte, start, end int) {
		k, _ := unquote(key)
		fn(k, b[start:end:end])
	})
}

// Fields is Members with each key as written, its quotes included, and
// the offsets of its value in b.
func Fields(b []byte, fn func(key []byte, start, end int)) bool {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	end, ok := object(b, i, 1, fn)
	return ok && SkipSpace(b, end) == len(b)
}

// Elements calls fn with each element of the JSON array b (white space
// around it allowed). It reports whether b is one valid JSON array; when it
// is not, what fn was given is to be dropped.
func Elements(b []byte, fn func(value []byte)) bool {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	end, ok := array(b, i, 1, fn)
	return ok && SkipSpace(b, end) == len(b)
}

// Unquote decodes the JSON string b (white space around it allowed) as
// json.Unmarshal into a string does: escapes resolved, a \u escape of half
// a surrogate pair that is not followed by its other half and every byte
// that is not UTF-8 read as U+FFFD. ok is false when b is not one JSON
// string.
func Unquote(b []byte) (s string, ok bool) {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '"' {
		return "", false
	}
	end, ok := stringEnd(b, i)
	if !ok || SkipSpace(b, end) != len(b) {
		return "", false
	}
	return unquote(b[i:end])
}

// unquote decodes q, a string stringEnd has checked, quotes included.
func unquote(q []byte) (string, bool) {
	s := q[1 : len(q)-1]
	plain := 0
	for plain < len(s) {
		c := s[plain]
		if c == '\\' || c == '"' || c < ' ' {
			break
		}
		if c < utf8.RuneSelf {
			plain++
			continue
		}
		r, size := utf8.DecodeRune(s[plain:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		plain += size
	}
	if plain == len(s) {
		return string(s), true
	}
	out := make([]byte, 0, len(s)+utf8.UTFMax)
	out = append(out, s[:plain]...)
	for r := plain; r < len(s); {
		switch c := s[r]; {
		case c == '\\':
			if r+1 >= len(s) {
				return "", false
			}
			switch e := s[r+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
				r += 2
			case 'b':
				out, r = append(out, '\b'), r+2
			case 'f':
				out, r = append(out, '\f'), r+2
			case 'n':
				out, r = append(out, '\n'), r+2
			case 'r':
				out, r = append(out, '\r'), r+2
			case 't':
				out, r = append(out, '\t'), r+2
			case 'u':
				rr := escapedRune(s[r:])
				if rr < 0 {
					return "", false
				}
				r += 6
				if utf16.IsSurrogate(rr) {
					// A pair is taken whole; anything else is U+FFFD, and
					// what follows is read on its own.
					if pair := utf16.DecodeRune(rr, escapedRune(s[r:])); pair != utf8.RuneError {
						out, r = utf8.AppendRune(out, pair), r+6
						continue
					}
					rr = utf8.RuneError
				}
				out = utf8.AppendRune(out, rr)
			default:
				return "", false
			}
		case c == '"' || c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			out, r = append(out, c), r+1
		default:
			rr, size := utf8.DecodeRune(s[r:])
			out, r = utf8.AppendRune(out, rr), r+size
		}
	}
	return string(out), true
}

// escapedRune decodes the \uXXXX escape that s starts with; -1 when s does
// not start with one.
func escapedRune(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	return hex4(s[2:6])
}

// hex4 decodes four hexadecimal digits; -1 when one is not.
func hex4(h []byte) rune {
	var r rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string the way encoding/json does with
// HTML escaping off: quote and backslash escaped, the control characters
// as \b \f \n \r \t or \u00XX, invalid UTF-8 as \ufffd, and U+2028 and
// U+2029 escaped.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
