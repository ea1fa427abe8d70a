package safetext

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrefix(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abc", 3, "abc"},
		{"abc", 2, "ab"},
		{"abc", 0, ""},
		{"abc", -1, ""},
		{"aé", 2, "a"}, // é is two bytes
		{"aé", 3, "aé"},
		{"日本", 5, "日"},
		{"日本", 2, ""},
	} {
		if got := Prefix(c.s, c.n); got != c.want {
			t.Errorf("Prefix(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestSuffix(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abc", 2, "bc"},
		{"abc", 0, ""},
		{"éa", 2, "a"},
		{"日本", 5, "本"},
	} {
		if got := Suffix(c.s, c.n); got != c.want {
			t.Errorf("Suffix(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestClip(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdefgh", 7, "abcd…"},
		{"日本語のテキスト", 10, "日本…"}, // 3 bytes each: 6 + 3 fit 10
		{"日本語", 8, "日…"},
		{"abcdef", 3, "abc"}, // no room for the mark: the prefix alone
		{"日本語", 2, ""},
		{"", 0, ""},
	} {
		got := Clip(c.s, c.n)
		if got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
		if len(got) > c.n || !utf8.ValidString(got) {
			t.Errorf("Clip(%q, %d) = %q: over the budget or not UTF-8", c.s, c.n, got)
		}
	}
	if got := ClipMark("0123456789", 8, "[cut]"); got != "012[cut]" {
		t.Errorf("ClipMark = %q", got)
	}
}

// FuzzClip: whatever s and n, a clip is valid UTF-8 when s is, within n
// bytes, and s's own beginning.
func FuzzClip(f *testing.F) {
	f.Add("日本語のテキスト", 10)
	f.Add("a\u2028b", 2)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if !utf8.ValidString(s) || n < 0 {
			return
		}
		got := Clip(s, n)
		if !utf8.ValidString(got) || len(got) > max(n, 0) {
			t.Fatalf("Clip(%q, %d) = %q", s, n, got)
		}
		if got != s && !strings.HasPrefix(s, strings.TrimSuffix(got, Ellipsis)) {
			t.Fatalf("Clip(%q, %d) = %q: not a prefix", s, n, got)
		}
	})
}

func TestOneLine(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"plain text", "plain text"},
		{"a\nb\r\nc", "a b  c"},
		{"tab\there", "tab here"},
		{"esc\x1b[2Jx", "esc [2Jx"},
		{"del\x7f c1\u0085", "del  c1 "},
		{"sep\u2028par\u2029", "sep par "},
		{"bad\xffutf8", "bad\uFFFDutf8"},
		{"日本 ✓", "日本 ✓"},
	} {
		if got := OneLine(c.s); got != c.want {
			t.Errorf("OneLine(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestFlat(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"  a  b\n\n c\t", "a b c"},
		{"x\u2028y", "x y"},
		{"", ""},
	} {
		if got := Flat(c.s); got != c.want {
			t.Errorf("Flat(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestFirstLine(t *testing.T) {
	if got := FirstLine("one\ntwo"); got != "one" {
		t.Errorf("FirstLine = %q", got)
	}
	if got := FirstLine("one"); got != "one" {
		t.Errorf("FirstLine = %q", got)
	}
}

// TestQuote is the rule for people's output: a text with a control
// character, a line break or invalid UTF-8 is Go-quoted, others are shown
// as they are.
func TestQuote(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"src/main.go", "src/main.go"},
		{"with space.go", "with space.go"},
		{"日本/ファイル.go", "日本/ファイル.go"},
		{`back\slash"quote`, `back\slash"quote`},
		{"", ""},
		{"new\nline", `"new\nline"`},
		{"tab\t", `"tab\t"`},
		{"\x1b[31mred", `"\x1b[31mred"`},
		{"bad\xff", `"bad\xff"`},
		{"c1\u009b", `"c1\u009b"`},
		{"sep\u2028", `"sep\u2028"`},
		{"bidi\u202eog.exe", `"bidi\u202eog.exe"`},
		{"isolate\u2066x\u2069", `"isolate\u2066x\u2069"`},
	} {
		if got := Quote(c.s); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.s, got, c.want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"plain words", "plain words"},
		{"# heading", `\# heading`},
		{"*em* _em_ `code`", "\\*em\\* \\_em\\_ \\`code\\`"},
		{"[link](http://x)", `\[link\]\(http://x\)`},
		{"<script>", `\<script\>`},
		{"a|b", `a\|b`},
		{`back\slash`, `back\\slash`},
		{"two\nlines", "two lines"},
		{"- item", `\- item`},
		{"&copy;", `\&copy;`},
	} {
		if got := Markdown(c.s); got != c.want {
			t.Errorf("Markdown(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestEscapeJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":"plain"}`, `{"a":"plain"}`},
		{`{"a":"évite"}`, `{"a":"évite"}`},
		{"{\"a\":\"evil\u202egpj.go\"}", `{"a":"evil\u202egpj.go"}`},
		{"{\"a\":\"\u2066x\u2069 \u200f \u061c\"}", `{"a":"\u2066x\u2069 \u200f \u061c"}`},
		{"{\"a\":\"c1 \u0085 \u009b\"}", `{"a":"c1 \u0085 \u009b"}`},
		{"{\"a\":\"\xff bad\"}", "{\"a\":\"\xff bad\"}"},
	}
	for _, tt := range tests {
		got := string(EscapeJSON([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("EscapeJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
		var a, b any
		if json.Valid([]byte(tt.in)) && (json.Unmarshal([]byte(tt.in), &a) != nil || json.Unmarshal([]byte(got), &b) != nil || !reflect.DeepEqual(a, b)) {
			t.Errorf("EscapeJSON(%q) changed the value: %v, %v", tt.in, a, b)
		}
	}
}
