package replay

import (
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/ledger"
)

// TestDecodeAgrees holds the fast reading of intenthook's own lines to the
// decoder's: for every record shape a replay reads, and for values that
// send a line to the slow path (escapes).
func TestDecodeAgrees(t *testing.T) {
	base := func(m ledger.Meta, files ...string) *ledger.Record {
		r := ledger.NewRecord("abc", m)
		r.Version, r.ID, r.Timestamp = ledger.SpecVersion, "00000000-0000-4000-8000-000000000001", "2026-11-27T10:00:00.000Z"
		r.Tool = &ledger.Tool{Name: "intenthook", Version: "v"}
		for _, f := range files {
			r.Files = append(r.Files, ledger.NewFile(f, []ledger.Range{{StartLine: 1, EndLine: 1}}, ledger.Attribution{IntentID: string(m.IntentID), Transcript: "/t/s.jsonl"}))
		}
		if r.Files == nil {
			r.Files = []ledger.File{}
		}
		r.Metadata.Intenthook.Seq, r.Metadata.Intenthook.Format = 7, ledger.Format
		return r
	}
	write := ledger.Meta{Event: ledger.EventPostToolUse, IntentID: "INT-1", SessionID: "s1", ToolName: "Edit", ToolUseID: "t", MutationClass: "AST_REFACTOR", ScopeValidation: "PASS", Decision: "allow"}
	sub := write
	sub.AgentID, sub.Role = "a1", "Executor"
	deny := ledger.Meta{Event: ledger.EventPreToolUse, IntentID: "INT-1", SessionID: "s1", ToolName: "Bash", ScopeValidation: "FAIL", Decision: "deny", Code: "scope_violation",
		Command: `echo "role":"x" > lib/a`, Reason: `deny "paths":["x"]`}
	viol := ledger.Meta{Event: ledger.EventViolation, IntentID: "INT-1", SessionID: "s1", ToolName: "Bash", ScopeValidation: "FAIL", Decision: "violation", Code: "out_of_scope_change", Paths: []string{"lib/a.go", "lib/b.go"}}
	trans := ledger.Meta{Event: ledger.EventTransition, IntentID: "INT-1", SessionID: "s1", ScopeValidation: "EXEMPT", Decision: "allow", From: "IN_PROGRESS", To: "COMPLETE"}
	escaped := write
	escaped.SessionID = "s\"1"
	tests := map[string]*ledger.Record{
		"write":           base(write, "src/a.go", "src/b.go"),
		"subagent's":      base(sub, "src/a.go"),
		"shell deny":      base(deny, "lib/a"),
		"violation":       base(viol),
		"transition":      base(trans),
		"escaped session": base(escaped, "src/a.go"),
		"escaped path":    base(write, "src/a\tb.go"),
	}
	for name, r := range tests {
		t.Run(name, func(t *testing.T) {
			line := r.MarshalLine()
			var got, want entry
			if !decode(line, &got) {
				t.Fatalf("decode failed: %s", line)
			}
			parsed, err := ledger.ParseLine(line)
			if err != nil {
				t.Fatal(err)
			}
			fromRecord(parsed, &want)
			if len(got.paths) == 0 {
				got.paths = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("fast %+v\nslow %+v", got, want)
			}
		})
	}
	var e entry
	if fastDecode(tests["escaped session"].MarshalLine(), &e) {
		t.Error("a line with an escaped value was read by the fast path")
	}
	if !fastDecode(tests["shell deny"].MarshalLine(), &e) || e.code != "scope_violation" || e.role != "" {
		t.Errorf("a shell deny's command fooled the fast path: %+v", e)
	}
}
