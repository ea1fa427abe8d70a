package audit

import (
	"testing"

	"github.com/intenthook/intenthook/internal/ledger"
)

func TestFindGaps(t *testing.T) {
	rec := func(seq int64, session, path, event, pre, post string, ok bool) *ledger.Record {
		r := &ledger.Record{Files: []ledger.File{{Path: path}}}
		m := &r.Metadata.Intenthook
		m.Seq, m.SessionID, m.Event, m.PreHash, m.PostHash, m.Success = seq, session, event, ledger.NullString(pre), ledger.NullString(post), ok
		return r
	}
	post := ledger.EventPostToolUse
	for _, tc := range []struct {
		name string
		recs []*ledger.Record
		want []int64 // the next record of each gap
	}{
		{"chained", []*ledger.Record{rec(1, "s", "a", post, "", "h1", true), rec(2, "s", "a", post, "h1", "h2", true)}, nil},
		{"gap", []*ledger.Record{rec(1, "s", "a", post, "", "h1", true), rec(2, "s", "a", post, "h9", "h2", true)}, []int64{2}},
		{"another session's record is no gap", []*ledger.Record{rec(1, "s", "a", post, "", "h1", true), rec(2, "t", "a", post, "h9", "h2", true)}, nil},
		{"another file", []*ledger.Record{rec(1, "s", "a", post, "", "h1", true), rec(2, "s", "b", post, "h9", "h2", true)}, nil},
		{"unknown pre", []*ledger.Record{rec(1, "s", "a", post, "", "h1", true), rec(2, "s", "a", post, "", "h2", true)}, nil},
		{"failed call skipped", []*ledger.Record{rec(1, "s", "a", post, "", "h1", true), rec(2, "s", "a", post, "h9", "", false), rec(3, "s", "a", post, "h1", "h3", true)}, nil},
		{"denial skipped", []*ledger.Record{rec(1, "s", "a", post, "", "h1", true), rec(2, "s", "a", ledger.EventPreToolUse, "h9", "", false)}, nil},
		{"deleted, then found", []*ledger.Record{rec(1, "s", "a", post, "h0", "", true), rec(2, "s", "a", post, "h5", "h6", true)}, []int64{2}},
		{"two gaps", []*ledger.Record{rec(1, "s", "a", post, "", "h1", true), rec(2, "s", "a", post, "h8", "h2", true), rec(3, "s", "a", post, "h9", "h3", true)}, []int64{2, 3}},
	} {
		gaps := findGaps(tc.recs)
		var got []int64
		for _, g := range gaps {
			got = append(got, g.next.seq)
		}
		if len(got) != len(tc.want) || (len(got) > 0 && !equal(got, tc.want)) {
			t.Errorf("%s: gaps at %v, want %v", tc.name, got, tc.want)
		}
	}
}

func equal(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
