// Package redact takes secrets out of text before it goes into the
// committed, append-only ledger, where nothing can ever be rewritten: values
// of assignments and flags whose names say key, token, secret, password or
// credential; bearer and basic credentials; well-known token shapes (GitHub,
// GitLab, OpenAI and Anthropic, Slack, AWS, Google, npm) and private key
// blocks; and the password in a URL's userinfo. It works on bytes with
// hand-written matchers (no regular expressions to compile on the hook
// path) and leaves text without secrets exactly as it was.
package redact

import "strings"

// Mark replaces each secret.
const Mark = "[REDACTED]"

// Text returns s with its secrets replaced by Mark, and whether anything
// was replaced.
func Text(s string) (string, bool) {
	if s == "" {
		return s, false
	}
	out := privateKeys(s)
	out = userinfo(out)
	out = words(out)
	out = schemes(out)
	out = shapes(out)
	return out, out != s
}

// privateKeys replaces "-----BEGIN … PRIVATE KEY-----" blocks up to their END
// line (or the end of the text).
func privateKeys(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "-----BEGIN ")
		if i < 0 {
			break
		}
		head := s[i:]
		eol := strings.Index(head[len("-----BEGIN "):], "-----")
		if eol < 0 || !strings.Contains(head[:len("-----BEGIN ")+eol], "PRIVATE KEY") {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(Mark)
		end := strings.Index(head, "-----END ")
		if end < 0 {
			return b.String()
		}
		rest := head[end+len("-----END "):]
		if j := strings.Index(rest, "-----"); j >= 0 {
			s = rest[j+len("-----"):]
		} else {
			s = ""
		}
	}
	b.WriteString(s)
	return b.String()
}

// userinfo replaces what stands before '@' in a URL's authority: the
// password of user:password, or a lone user that may be a token
// (https://ghp_…@github.com).
func userinfo(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			break
		}
		start := i + 3
		end := start
		for end < len(s) && !strings.ContainsRune("/?# \t\n\"'`", rune(s[end])) {
			end++
		}
		at := strings.LastIndexByte(s[start:end], '@')
		if at <= 0 {
			b.WriteString(s[:end])
			s = s[end:]
			continue
		}
		info := s[start : start+at]
		b.WriteString(s[:start])
		if user, _, ok := strings.Cut(info, ":"); ok && user != "" {
			b.WriteString(user + ":" + Mark)
		} else {
			b.WriteString(Mark)
		}
		s = s[start+at:]
	}
	b.WriteString(s)
	return b.String()
}

// sensitive reports whether a variable or flag name says it holds a secret.
func sensitive(name string) bool {
	n := strings.ToLower(strings.TrimLeft(name, "-"))
	for _, w := range []string{"key", "token", "secret", "password", "passwd", "credential", "authorization"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// words replaces the values of sensitive NAME=value assignments and
// --name=value or --name value flags. A value in quotes runs to its closing
// quote.
func words(s string) string {
	var b strings.Builder
	redactNext := false
	i := 0
	for i < len(s) {
		if isSpace(s[i]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		start := i
		i = wordEnd(s, i)
		w := s[start:i]
		switch {
		case redactNext:
			b.WriteString(keepQuotes(w))
			redactNext = false
		case assignment(w) >= 0 && sensitive(w[:assignment(w)]):
			eq := assignment(w)
			b.WriteString(w[:eq+1] + keepQuotes(w[eq+1:]))
		case strings.HasPrefix(w, "-") && !strings.Contains(w, "=") && sensitive(w):
			b.WriteString(w)
			redactNext = true
		default:
			b.WriteString(w)
		}
	}
	return b.String()
}

// schemes replaces the credential after "Bearer " anywhere, and after
// "Basic " or "Token " where they follow "Authorization:" (they are common
// words otherwise), inside quotes or not.
func schemes(s string) string {
	lower := strings.ToLower(s)
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		n := schemeAt(lower, i)
		if n == 0 {
			continue
		}
		j := i + n
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		k := j
		for k < len(s) && !isSpace(s[k]) && !strings.ContainsRune("\"'`,;", rune(s[k])) {
			k++
		}
		if k == j {
			continue
		}
		b.WriteString(s[last:j] + Mark)
		last, i = k, k-1
	}
	b.WriteString(s[last:])
	return b.String()
}

// schemeAt returns the length of an authorization scheme word starting at
// i of lower, or 0.
func schemeAt(lower string, i int) int {
	if i > 0 && tokenChar(lower[i-1], false) {
		return 0
	}
	rest := lower[i:]
	if strings.HasPrefix(rest, "bearer ") {
		return len("bearer")
	}
	for _, w := range []string{"basic ", "token "} {
		if strings.HasPrefix(rest, w) && strings.HasSuffix(strings.TrimRight(lower[:i], " \t"), "authorization:") {
			return len(w) - 1
		}
	}
	return 0
}

// assignment returns the index of the '=' of NAME=value (NAME a shell or
// flag name), or -1.
func assignment(w string) int {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return -1
	}
	for _, c := range strings.TrimLeft(w[:eq], "-") {
		if !(c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return -1
		}
	}
	return eq
}

// keepQuotes replaces a value, keeping quotes around it.
func keepQuotes(v string) string {
	lead := len(v) - len(strings.TrimLeft(v, `"'`))
	trail := len(v) - len(strings.TrimRight(v, `"'`))
	if lead+trail >= len(v) {
		return v
	}
	return v[:lead] + Mark + v[len(v)-trail:]
}

// wordEnd finds the end of the word starting at i: the next unquoted space.
func wordEnd(s string, i int) int {
	var quote byte
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case isSpace(c):
			return i
		}
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// shape is a well-known token prefix and the least number of token
// characters that must follow it.
type shape struct {
	prefix string
	min    int
	upper  bool // AWS: upper-case letters and digits only
}

var tokenShapes = [...]shape{
	{"github_pat_", 20, false}, {"ghp_", 20, false}, {"gho_", 20, false}, {"ghu_", 20, false},
	{"ghs_", 20, false}, {"ghr_", 20, false}, {"glpat-", 16, false}, {"sk-", 20, false},
	{"xoxb-", 10, false}, {"xoxp-", 10, false}, {"xoxa-", 10, false}, {"xoxr-", 10, false},
	{"xoxs-", 10, false}, {"npm_", 20, false}, {"AIza", 30, false}, {"AKIA", 16, true}, {"ASIA", 16, true},
}

// shapes replaces tokens of the well-known shapes that start at a word
// boundary.
func shapes(s string) string {
	for _, sh := range tokenShapes {
		var b strings.Builder
		rest := s
		changed := false
		for {
			i := strings.Index(rest, sh.prefix)
			if i < 0 {
				break
			}
			j := i + len(sh.prefix)
			for j < len(rest) && tokenChar(rest[j], sh.upper) {
				j++
			}
			if (i > 0 && tokenChar(rest[i-1], false)) || j-i-len(sh.prefix) < sh.min {
				b.WriteString(rest[:i+len(sh.prefix)])
				rest = rest[i+len(sh.prefix):]
				continue
			}
			b.WriteString(rest[:i] + Mark)
			rest = rest[j:]
			changed = true
		}
		if changed {
			b.WriteString(rest)
			s = b.String()
		}
	}
	return s
}

func tokenChar(c byte, upper bool) bool {
	switch {
	case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	case upper:
		return false
	}
	return c >= 'a' && c <= 'z' || c == '_' || c == '-'
}
