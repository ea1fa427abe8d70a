package ledger

import (
	"path/filepath"
	"strings"
)

// The URIs of a record are escaped here rather than with net/url, whose
// package initialisation (net/netip) every hook would pay: what is
// written is what net/url writes (TestEscapeMatchesNetURL). A related
// specification's URI is worked out when the catalog is parsed
// (intents.SpecURL).

// FileURL turns a local path (a transcript) into a percent-encoded file://
// URI: file:///home/u/x.jsonl, file:///C:/Users/u/x.jsonl for Windows paths.
// It returns "" for "", which leaves the conversation without a url.
func FileURL(path string) string {
	if path == "" {
		return ""
	}
	p := strings.ReplaceAll(path, `\`, "/")
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		p = "/" + p // a drive letter: file:///C:/…
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + filepath.ToSlash(p)
	}
	return "file://" + escape(p, false)
}

// IntentURL names an intent in a conversation's related list.
func IntentURL(id string) string { return "intent:" + escape(id, true) }

// escape percent-encodes s as a URI path (segment: one segment of it, so
// that a slash is escaped too), as RFC 3986 and net/url do: unreserved
// characters stay, and so do the reserved ones a path may hold.
func escape(s string, segment bool) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if escapes(s[i], segment) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		if c := s[i]; escapes(c, segment) {
			b = append(b, '%', hex[c>>4], hex[c&15])
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}

func escapes(c byte, segment bool) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return false
	}
	switch c {
	case '-', '_', '.', '~', '$', '&', '+', ':', '=', '@':
		return false
	case '/', ';', ',':
		return segment
	}
	return true
}
