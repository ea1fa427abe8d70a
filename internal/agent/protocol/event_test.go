package protocol

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/hook"
)

// TestNativePath: backslashes become separators only in Windows-shaped
// paths, and only on Windows; elsewhere they are file name characters.
func TestNativePath(t *testing.T) {
	tests := []struct{ in, goos, want string }{
		{`C:\work\a.txt`, "windows", "C:/work/a.txt"},
		{`c:/work\a.txt`, "windows", "c:/work/a.txt"},
		{`\\server\share\a.txt`, "windows", "//server/share/a.txt"},
		{`work\a.txt`, "windows", `work\a.txt`},
		{`C:\work\a.txt`, "linux", `C:\work\a.txt`},
		{`C:\a\b/../../../x`, "linux", `C:\a\b/../../../x`},
		{`/p/a\b.txt`, "linux", `/p/a\b.txt`},
	}
	for _, tt := range tests {
		if got := nativePath(tt.in, tt.goos); got != tt.want {
			t.Errorf("nativePath(%q, %s) = %q, want %q", tt.in, tt.goos, got, tt.want)
		}
	}
}

func TestAddedRuns(t *testing.T) {
	tests := []struct {
		name  string
		start int
		lines []string
		want  []hook.LineRun
	}{
		{"one line inserted at 4 among three context lines each side", 1,
			[]string{" a", " b", " c", "+new", " d", " e", " f"}, []hook.LineRun{{First: 4, Last: 4}}},
		{"a change: removed then added lines make one run", 10,
			[]string{" ctx", "-old1", "-old2", "+new1", "+new2", " ctx"}, []hook.LineRun{{First: 11, Last: 12}}},
		{"interleaved removals do not split a run", 1,
			[]string{"+a", "-x", "+b"}, []hook.LineRun{{First: 1, Last: 2}}},
		{"two runs split by context", 5,
			[]string{"+a", " c", "+b", "+c"}, []hook.LineRun{{First: 5, Last: 5}, {First: 7, Last: 8}}},
		{"pure deletion", 3, []string{" a", "-b", "-c", " d"}, nil},
		{"no newline marker takes no line", 1,
			[]string{"-a", `\ No newline at end of file`, "+a", "+b"}, []hook.LineRun{{First: 1, Last: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := addedRuns(tt.start, tt.lines); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("addedRuns = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestStringPlain: String's path without json agrees with json.Unmarshal,
// and leaves to json what it does not read itself.
func TestStringPlain(t *testing.T) {
	for _, raw := range []string{`""`, `"a"`, `"src/x.go"`, `"héllo"`, `"a\"b"`, `"a\\b"`, `"\u00e9"`, "\"a\x01\"", "\"\xff\"", `"a`, `"a"b"`, `"a""`, `"`} {
		got, ok := String(json.RawMessage(raw))
		var want string
		wantOK := json.Unmarshal([]byte(raw), &want) == nil
		if ok != wantOK || got != want {
			t.Errorf("String(%q) = %q, %v; json: %q, %v", raw, got, ok, want, wantOK)
		}
	}
}
