package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/claude"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/ledger"
)

// TestRangesFromRealShapedPatches decodes Edit and Write responses shaped
// like Claude Code's (structuredPatch hunks with up to three context lines
// each side) and checks that the ranges name exactly the added lines, each
// hash recomputed here from the file's lines rather than taken from the
// code under test.
func TestRangesFromRealShapedPatches(t *testing.T) {
	file := "l1\nl2\nl3\nNEW\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nX1\nX2\nl11\nl12\n"
	tests := []struct {
		name  string
		event string
		want  [][2]int // first, last
	}{
		{
			name:  "one-line insert at 4 with three context lines",
			event: `{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/p/a.go","old_string":"l3\nl4","new_string":"l3\nNEW\nl4"},"tool_response":{"filePath":"/p/a.go","structuredPatch":[{"oldStart":1,"oldLines":6,"newStart":1,"newLines":7,"lines":[" l1"," l2"," l3","+NEW"," l4"," l5"," l6"]}]}}`,
			want:  [][2]int{{4, 4}},
		},
		{
			name:  "multi-hunk edit: an insert and a two-line change",
			event: `{"hook_event_name":"PostToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/p/a.go","edits":[]},"tool_response":{"filePath":"/p/a.go","structuredPatch":[{"oldStart":1,"oldLines":6,"newStart":1,"newLines":7,"lines":[" l1"," l2"," l3","+NEW"," l4"," l5"," l6"]},{"oldStart":8,"oldLines":7,"newStart":9,"newLines":7,"lines":[" l8"," l9"," l10","-Y","+X1","+X2"," l11"," l12"]}]}}`,
			want:  [][2]int{{4, 4}, {12, 13}},
		},
		{
			name:  "a pure deletion has no range",
			event: `{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/p/a.go","old_string":"gone\n","new_string":""},"tool_response":{"filePath":"/p/a.go","structuredPatch":[{"oldStart":4,"oldLines":4,"newStart":4,"newLines":3,"lines":[" NEW","-gone"," l4"," l5"]}]}}`,
			want:  nil,
		},
		{
			name:  "a Write over an existing file is the whole file",
			event: `{"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/p/a.go","content":"…"},"tool_response":{"type":"update","filePath":"/p/a.go","structuredPatch":[{"oldStart":1,"oldLines":1,"newStart":1,"newLines":15,"lines":["-old","+l1"]}]}}`,
			want:  [][2]int{{1, 15}},
		},
		{
			name:  "hunks without their lines fall back to their extent",
			event: `{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/p/a.go"},"tool_response":{"structuredPatch":[{"oldStart":1,"oldLines":1,"newStart":2,"newLines":2}]}}`,
			want:  [][2]int{{2, 3}},
		},
	}
	lines := strings.SplitAfter(file, "\n")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := protocol.ParseObject([]byte(tt.event))
			if err != nil {
				t.Fatal(err)
			}
			c, err := claude.Decode(ev, "")
			if err != nil {
				t.Fatal(err)
			}
			got := ranges(c, []byte(file))
			var want []ledger.Range
			for _, w := range tt.want {
				sum := sha256.Sum256([]byte(strings.Join(lines[w[0]-1:w[1]], "")))
				want = append(want, ledger.Range{StartLine: w[0], EndLine: w[1], ContentHash: "sha256:" + hex.EncodeToString(sum[:])})
			}
			if len(got) != len(want) {
				t.Fatalf("ranges %+v, want %+v", got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("range %d = %+v, want %+v", i, got[i], want[i])
				}
			}
		})
	}
}
