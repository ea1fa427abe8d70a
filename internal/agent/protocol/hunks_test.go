package protocol

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/hook"
)

// hunksByStruct is how Hunks read structuredPatch before it read it field
// by field: the reference the new reading must agree with.
func hunksByStruct(raw json.RawMessage) ([]hook.Hunk, bool) {
	var hunks []struct {
		NewStart *int     `json:"newStart"`
		NewLines *int     `json:"newLines"`
		Lines    []string `json:"lines"`
	}
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &hunks) != nil {
		return nil, false
	}
	var out []hook.Hunk
	for _, h := range hunks {
		if h.NewStart == nil || h.NewLines == nil {
			continue
		}
		hk := hook.Hunk{NewStart: *h.NewStart, NewLines: *h.NewLines}
		if h.Lines != nil {
			hk.HasLines = true
			hk.Added = addedRuns(*h.NewStart, h.Lines)
		}
		out = append(out, hk)
	}
	return out, true
}

// TestHunksAgreeWithStructDecode: every shape, well-formed or not, reads as
// the struct decode read it. (Keys are matched exactly, as Claude Code
// writes them; the struct decode also took "NewStart" or "NEWLINES".)
func TestHunksAgreeWithStructDecode(t *testing.T) {
	inputs := []string{
		`[{"oldStart":1,"oldLines":3,"newStart":1,"newLines":4,"lines":[" a","+b"," c"," d"]}]`,
		`[{"newStart":4,"newLines":1,"lines":["+x"]},{"newStart":10,"newLines":2,"lines":[" y","-z","+w"]}]`,
		`[]`, `null`, ``, `{}`, `"[]"`, `[null]`, `[5]`, `["x"]`, `[[]]`,
		`[{"newStart":null,"newLines":1}]`, `[{"newLines":1}]`, `[{"newStart":1}]`,
		`[{"newStart":1.5,"newLines":1}]`, `[{"newStart":"1","newLines":1}]`, `[{"newStart":1e2,"newLines":1}]`,
		`[{"newStart":1,"newLines":1,"lines":null}]`, `[{"newStart":1,"newLines":1,"lines":[]}]`,
		`[{"newStart":1,"newLines":1,"lines":[1]}]`, `[{"newStart":1,"newLines":1,"lines":"+a"}]`,
		`[{"newStart":1,"newLines":1,"lines":["+a",null]}]`,
		`[{"newStart":-3,"newLines":0,"lines":["-a"]}]`, `[{"newStart":1,"newLines":1,"extra":{"x":[1]}}]`,
		`[ {"newStart": 2, "newLines": 1, "lines": ["+\u00e9"]} , null ]`,
		`[{"newStart":99999999999999999999,"newLines":1}]`,
		`[{"newStart":1,"newLines":1,"newStart":2}]`,
	}
	for _, in := range inputs {
		got, ok := Hunks(json.RawMessage(in))
		want, wantOK := hunksByStruct(json.RawMessage(in))
		if ok != wantOK || !reflect.DeepEqual(got, want) {
			t.Errorf("Hunks(%s) = %+v, %v; the struct decode read %+v, %v", in, got, ok, want, wantOK)
		}
	}
}
