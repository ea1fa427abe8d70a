package hookconfig

import (
	"regexp"
	"strings"
)

// Matches reports whether a Claude Code matcher selects name (a tool name,
// or a SessionStart source), following the documented semantics: "*", ""
// and an absent matcher select everything; a matcher made only of letters,
// digits, '_', ' ', ',', '|' and '-' is a list of exact names separated by
// '|' or ','; anything else is an unanchored regular expression (so
// "Edit.*" also selects NotebookEdit). Claude Code's regexps are
// JavaScript's; Go's syntax agrees on everything a matcher needs, and a
// matcher Go cannot compile selects nothing.
func Matches(matcher, name string) bool {
	if matcher == "" || matcher == "*" {
		return true
	}
	if isNameList(matcher) {
		for _, n := range strings.FieldsFunc(matcher, func(r rune) bool { return r == '|' || r == ',' }) {
			if strings.TrimSpace(n) == name {
				return true
			}
		}
		return false
	}
	re, err := regexp.Compile(matcher)
	return err == nil && re.MatchString(name)
}

func isNameList(m string) bool {
	for _, r := range m {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		case strings.ContainsRune("_ ,|-", r):
		default:
			return false
		}
	}
	return true
}
