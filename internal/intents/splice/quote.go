//go:build !noyaml

package splice

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// quoting is how a scalar is written: a new value is written the way the value it replaces was.
type quoting int

const (
	plainQuoting quoting = iota
	singleQuoting
	doubleQuoting
)

// quotingOf reports how n was written. Block scalars (| and >) count as plain: a one-line value never
// needs a block scalar, and plain falls back to double quotes where it must.
func quotingOf(n *yaml.Node) quoting {
	switch {
	case n.Kind != yaml.ScalarNode:
		return plainQuoting
	case n.Style&yaml.DoubleQuotedStyle != 0:
		return doubleQuoting
	case n.Style&yaml.SingleQuotedStyle != 0:
		return singleQuoting
	}
	return plainQuoting
}

// quote writes value with quoting q where YAML can hold it that way, and double-quoted otherwise:
// double quotes hold any string. A plain value must also read back with one of tags, so that "true"
// never turns a string into a boolean. flow tells whether the value sits inside a flow collection,
// where ",[]{}" end a plain scalar. The value must be valid UTF-8.
func quote(value string, q quoting, flow bool, tags ...string) string {
	switch q {
	case plainQuoting:
		if plainSafe(value, flow, tags) {
			return value
		}
	case singleQuoting:
		if singleSafe(value) {
			return "'" + strings.ReplaceAll(value, "'", "''") + "'"
		}
	}
	return doubleQuote(value)
}

// plainSafe reports whether v can be written as a plain scalar and read back unchanged with one of
// tags. The character rules are deliberately stricter than YAML's; the final parse catches what
// they miss (null, true, 1e3, ~ and the like).
func plainSafe(v string, flow bool, tags []string) bool {
	if v == "" || !utf8.ValidString(v) || v[0] == ' ' || v[len(v)-1] == ' ' {
		return false
	}
	if strings.IndexByte("-?:,[]{}#&*!|>'\"%@`", v[0]) >= 0 {
		return false
	}
	for i, r := range v {
		if !printable(r) {
			return false
		}
		switch r {
		case '#':
			if v[i-1] == ' ' {
				return false
			}
		case ':':
			if i+1 == len(v) || v[i+1] == ' ' || flow && strings.IndexByte(",[]{}", v[i+1]) >= 0 {
				return false
			}
		case ',', '[', ']', '{', '}', '?':
			if flow {
				return false
			}
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(v), &doc); err != nil || len(doc.Content) != 1 {
		return false
	}
	n := doc.Content[0]
	return n.Kind == yaml.ScalarNode && n.Style == 0 && n.Value == v && slices.Contains(tags, n.ShortTag())
}

// singleSafe reports whether v can be single-quoted on one line: single quotes have no escapes, so
// every character must be printable.
func singleSafe(v string) bool {
	if !utf8.ValidString(v) {
		return false
	}
	for _, r := range v {
		if !printable(r) {
			return false
		}
	}
	return true
}

// doubleQuote writes v as a one-line double-quoted scalar, escaping what YAML does not allow or
// would fold (line breaks, tabs, control and non-characters).
func doubleQuote(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range v {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case 0:
			b.WriteString(`\0`)
		case 0x85:
			b.WriteString(`\N`)
		case 0x2028:
			b.WriteString(`\L`)
		case 0x2029:
			b.WriteString(`\P`)
		default:
			switch {
			case printable(r):
				b.WriteRune(r)
			case r <= 0xFF:
				fmt.Fprintf(&b, `\x%02X`, r)
			case r <= 0xFFFF:
				fmt.Fprintf(&b, `\u%04X`, r)
			default:
				fmt.Fprintf(&b, `\U%08X`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// printable reports a character that may stand for itself inside a one-line scalar: YAML's printable
// set without tab, line breaks (NEL, LS, PS) and the byte order mark.
func printable(r rune) bool {
	switch {
	case r >= 0x20 && r <= 0x7E:
		return true
	case r >= 0xA0 && r <= 0xD7FF:
		return r != 0x2028 && r != 0x2029
	case r >= 0xE000 && r <= 0xFFFD:
		return r != 0xFEFF
	case r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}
