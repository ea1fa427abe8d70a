package markdown

import "testing"

func TestOneLine(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"plain text", 0, "plain text"},
		{"two\nlines\r\n", 0, `two\x0alines\x0d\x0a`},
		{"tab\there", 0, `tab\x09here`},
		{"bad \xff utf8", 0, `bad \xff utf8`},
		{"line\u2028sep", 0, `line\u2028sep`},
		{"bidi\u202eevil", 0, `bidi\u202eevil`},
		{"abcdefghij", 8, "abcde…"},
		{"ab\ncdefgh", 7, `ab…`},
	}
	for _, tt := range tests {
		if got := OneLine(tt.in, tt.limit); got != tt.want {
			t.Errorf("OneLine(%q, %d) = %q, want %q", tt.in, tt.limit, got, tt.want)
		}
	}
	if got := QuotePath("a`b\nc.go"); got != `ab\x0ac.go` {
		t.Errorf("QuotePath = %q", got)
	}
}

func TestDocEdits(t *testing.T) {
	d := Parse("# T\r\n\r\n## A\r\n\r\n- x\r\n\r\n## B\r\n")
	a := d.Find(0, len(d.Lines), 2, func(title string) bool { return title == "A" })
	if a != 2 || d.End(a) != 6 {
		t.Fatalf("Find/End = %d, %d", a, d.End(a))
	}
	d.AppendTo(a, d.End(a), "- y")
	if got := d.String(); got != "# T\r\n\r\n## A\r\n\r\n- x\r\n- y\r\n\r\n## B\r\n" {
		t.Errorf("after AppendTo: %q", got)
	}
	d.Remove(4)
	if got := d.String(); got != "# T\r\n\r\n## A\r\n\r\n- y\r\n\r\n## B\r\n" {
		t.Errorf("after Remove: %q", got)
	}
}
