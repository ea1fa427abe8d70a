package precommit

import (
	"testing"

	"github.com/intenthook/intenthook/internal/fill"
	"github.com/intenthook/intenthook/internal/ledger"
)

// TestFastTraceEveryField: the trace read from a line without decoding it
// (fastTrace, which the trace index is built with) is the record's, on a
// record whose every field is set by reflection: a field added to Record
// that puts a "seq", "post_hash" or "path" key in the way fails here.
func TestFastTraceEveryField(t *testing.T) {
	var r ledger.Record
	if n := len(fill.Distinct(&r)); n < 35 {
		t.Fatalf("the walk reached %d fields of a record", n)
	}
	m := &r.Metadata.Intenthook
	m.Event, m.Success, m.MutationClass = ledger.EventPostToolUse, true, "AST_REFACTOR"
	line := r.MarshalLine()
	path, tr, ok := fastTrace(line)
	if !ok || path != r.Files[0].Path || tr.Seq != m.Seq || tr.PostHash != string(m.PostHash) {
		t.Errorf("fastTrace(%s) = %q, %+v, %v; want %q, seq %d, post hash %q", line, path, tr, ok, r.Files[0].Path, m.Seq, m.PostHash)
	}
	// And so is the line's decoding.
	back, err := ledger.ParseLine(line)
	if err != nil || len(back.Files) != 1 || back.Files[0].Path != path || back.Metadata.Intenthook.Seq != tr.Seq || string(back.Metadata.Intenthook.PostHash) != tr.PostHash {
		t.Errorf("ParseLine(%s) = %+v, %v; fastTrace %q, %+v", line, back, err, path, tr)
	}
}
