package ledger

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidJSON(t *testing.T) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":1}`, ` {"a" : [1, 2.5e-3, -0, true, false, null, "x\u00e9\n"]} `, `"s"`, `0`, `-1.0E+2`,
		`{"a":}`, `{"a" 1}`, `{a:1}`, `[1,]`, `[1 2]`, `01`, `1.`, `1e`, `-`, `"\x"`, "\"\x01\"", `"\u12"`, `tru`, `{"a":1}x`, ``, `{`, `"`,
		// Nesting at encoding/json's bound and one past it, under a record.
		`{"a":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
		`{"a":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
		`{"metadata":{"x":1},"metadata":2}`, `{} `, ` {"a":1,}`,
	} {
		if got, want := validJSON([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%.80q) = %v, json.Valid %v", s, got, want)
		}
	}
}

func FuzzValidJSON(f *testing.F) {
	f.Add([]byte(`{"version":"0.1.0","files":[{"path":"a\"b"}],"metadata":{"dev.intenthook":{"seq":1,"prev":null}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validJSON(b), json.Valid(b); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid %v", b, got, want)
		}
	})
}
