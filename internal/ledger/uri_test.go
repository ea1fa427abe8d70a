package ledger

import (
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
)

// TestEscapeMatchesNetURL holds FileURL and IntentURL to what net/url
// writes: every byte alone, and random strings of the bytes that matter.
func TestEscapeMatchesNetURL(t *testing.T) {
	var inputs []string
	for c := 0; c < 256; c++ {
		inputs = append(inputs, "a"+string(rune(c))+"b", string([]byte{byte(c)}))
	}
	inputs = append(inputs, "", "/", "//server/share/x", "C:/x", "é#1?.jsonl", "a b/c;d,e?f", "%41", "*", "./x:y")
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("aZ09-_.~!$&'()*+,;=:@/?#[]% \\\"<>^`{|}\x00\x7f\xc3\xa9\xff")
	for i := 0; i < 20000; i++ {
		b := make([]byte, r.IntN(12))
		for j := range b {
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(b))
	}
	for _, s := range inputs {
		if got, want := IntentURL(s), "intent:"+url.PathEscape(s); got != want {
			t.Fatalf("IntentURL(%q) = %q, want %q", s, got, want)
		}
		p := "/" + strings.TrimLeft(s, "/")
		if got, want := escape(p, false), (&url.URL{Path: p}).EscapedPath(); got != want {
			t.Fatalf("escape(%q) = %q, want %q", p, got, want)
		}
		// (FileURL reads a backslash as a Windows path's separator first.)
		file := &url.URL{Scheme: "file", Path: strings.ReplaceAll(p, `\`, "/")}
		if got, want := FileURL(p), file.String(); got != want {
			t.Fatalf("FileURL(%q) = %q, want %q", p, got, want)
		}
	}
}
