package ledger

import (
	"bytes"
	"strings"
	"testing"
)

func TestVerifyIncrement(t *testing.T) {
	l := newLedger(t)
	for range 6 {
		mustAppend(t, l, writeRecord("s1", "src/a.go"))
	}
	lines := ledgerLines(t, l.Root) // 6 chained lines
	join := func(ls ...[]byte) []byte {
		var b bytes.Buffer
		for _, x := range ls {
			b.Write(x)
			b.WriteByte('\n')
		}
		return b.Bytes()
	}
	tests := []struct {
		name     string
		last     []byte
		lastLine int
		added    []byte
		ok       bool
		errs     []string // substrings, one per error
	}{
		{name: "appended after line 3", last: lines[2], lastLine: 3, added: join(lines[3], lines[4], lines[5]), ok: true},
		{name: "from the start", added: join(lines[0], lines[1]), ok: true},
		{name: "a line repeated", last: lines[2], lastLine: 3, added: join(lines[3], lines[2]), ok: true,
			errs: []string{"line 5: duplicate of line 3"}},
		{name: "a line skipped cannot be told from a fork", last: lines[2], lastLine: 3, added: join(lines[4]), ok: false},
		{name: "a line that does not parse", last: lines[2], lastLine: 3, added: join(lines[3], []byte("{oops")), ok: true,
			errs: []string{"line 5: does not parse"}},
		{name: "a torn tail", last: lines[2], lastLine: 3, added: append(join(lines[3]), `{"version"`...), ok: true,
			errs: []string{"line 5: torn tail"}},
		{name: "a fork from further back cannot be judged alone", last: lines[3], lastLine: 4, added: join(lines[2]), ok: false},
		{name: "last not chained", last: []byte(`{"id":"x"}`), lastLine: 1, added: join(lines[0]), ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, ok := VerifyIncrement(tt.last, tt.lastLine, bytes.NewReader(tt.added))
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tt.ok, rep)
			}
			if !ok {
				return
			}
			if len(rep.Errors) != len(tt.errs) {
				t.Fatalf("errors %v, want %v", rep.Errors, tt.errs)
			}
			for i, e := range tt.errs {
				if !strings.Contains(rep.Errors[i].String(), e) {
					t.Errorf("error %d = %q, want %q", i, rep.Errors[i], e)
				}
			}
		})
	}
}
