package lessons

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// at is t0 plus minutes, in another zone: what is written is UTC.
func at(minutes int) time.Time {
	return t0.Add(time.Duration(minutes) * time.Minute).In(time.FixedZone("CET", 3600))
}

// md joins lines into a file's text, each line ending in a newline. Golden
// texts are built with it rather than raw strings: they hold backticks.
func md(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// call is one Record (when lesson.Code is set) or one Note.
type call struct {
	lesson Lesson
	note   string
	intent string
	by     string
	now    time.Time
}

func rec(minutes int, code, intent, tool, path, msg string) call {
	return call{lesson: Lesson{Time: at(minutes), Code: code, Intent: intent, Tool: tool, Path: path, Message: msg}}
}

func note(minutes int, text, intent string) call {
	return call{note: text, intent: intent, by: ByPerson, now: at(minutes)}
}

// fresh is the file Record creates, with lines under Lessons Learned.
func fresh(lessons ...string) string {
	lines := []string{
		"# Shared Brain",
		"",
		"intenthook appends a lesson under Lessons Learned after each denial or failed tool call; the rest is yours to edit.",
		"",
		"## Architectural Decisions",
		"",
		"## Lessons Learned",
		"",
	}
	lines = append(lines, lessons...)
	if len(lessons) > 0 {
		lines = append(lines, "")
	}
	return md(append(lines,
		"## Project-Specific Rules",
		"",
		"## Known Issues",
		"",
		"## Future Enhancements",
	)...)
}

// human is a lessons file people have written, with prose in Lessons Learned
// and a fenced example of a lesson line that must not be counted.
var human = md(
	"# Project brain",
	"",
	"Read this first.  ",
	"",
	"## Lessons Learned",
	"",
	"Keep these short.",
	"",
	"```",
	"- [2026-01-01T00:00:00Z] SCOPE_VIOLATION: INT-001 Write `a.go`: example",
	"```",
	"",
	"- [2026-11-01T09:00:00Z] STALE_FILE: INT-002 Edit `b.go`: reread it",
	"",
	"",
	"## Known Issues",
	"",
	"* flaky CI",
)

func TestRecord(t *testing.T) {
	scope := "- [2026-11-22T10:00:00Z] SCOPE_VIOLATION: INT-001 Write `src/x.go`: outside the scope"
	tests := []struct {
		name   string
		file   string // "" for DefaultFile
		before string // "" for no file
		calls  []call
		want   string
	}{
		{
			name:  "first record creates the file",
			calls: []call{rec(0, "SCOPE_VIOLATION", "INT-001", "Write", "src/x.go", "outside the scope")},
			want:  fresh(scope),
		},
		{
			name: "repeat ×2 then ×3: first time and text kept, last time updated",
			calls: []call{
				rec(0, "SCOPE_VIOLATION", "INT-001", "Write", "src/x.go", "outside the scope"),
				rec(5, "SCOPE_VIOLATION", "INT-001", "Edit", "src/x.go", "another message"),
			},
			want: fresh(scope + " (×2, last 2026-11-22T10:05:00Z)"),
		},
		{
			name: "repeat ×3",
			calls: []call{
				rec(0, "SCOPE_VIOLATION", "INT-001", "Write", "src/x.go", "outside the scope"),
				rec(5, "SCOPE_VIOLATION", "INT-001", "Write", "src/x.go", "outside the scope"),
				rec(61, "SCOPE_VIOLATION", "INT-001", "Write", "src/x.go", "outside the scope"),
			},
			want: fresh(scope + " (×3, last 2026-11-22T11:01:00Z)"),
		},
		{
			name: "a different path, code or intent is a new line",
			calls: []call{
				rec(0, "SCOPE_VIOLATION", "INT-001", "Write", "src/x.go", "outside the scope"),
				rec(1, "SCOPE_VIOLATION", "INT-001", "Write", "src/y.go", "outside the scope"),
				rec(2, "STALE_FILE", "INT-001", "Write", "src/x.go", "changed since read"),
				rec(3, "SCOPE_VIOLATION", "INT-002", "Write", "src/x.go", "outside the scope"),
				rec(4, "SCOPE_VIOLATION", "", "Write", "src/x.go", "no intent"),
				rec(5, "SCOPE_VIOLATION", "INT-001", "Write", "src/y.go", "again"),
			},
			want: fresh(
				scope,
				"- [2026-11-22T10:01:00Z] SCOPE_VIOLATION: INT-001 Write `src/y.go`: outside the scope (×2, last 2026-11-22T10:05:00Z)",
				"- [2026-11-22T10:02:00Z] STALE_FILE: INT-001 Write `src/x.go`: changed since read",
				"- [2026-11-22T10:03:00Z] SCOPE_VIOLATION: INT-002 Write `src/x.go`: outside the scope",
				"- [2026-11-22T10:04:00Z] SCOPE_VIOLATION: - Write `src/x.go`: no intent",
			),
		},
		{
			name: "no path, no tool, no message",
			calls: []call{
				rec(0, "TOOL_FAILURE", "INT-001", "Bash", "", "exit status 1"),
				rec(1, "TOOL_FAILURE", "INT-001", "", "", ""),
			},
			want: fresh("- [2026-11-22T10:00:00Z] TOOL_FAILURE: INT-001 Bash: exit status 1 (×2, last 2026-11-22T10:01:00Z)"),
		},
		{
			name: "tool failures keep their distinct messages; numbers and case are one",
			calls: []call{
				rec(0, "TOOL_FAILURE", "INT-001", "Bash", "", "exit status 1"),
				rec(1, "TOOL_FAILURE", "INT-001", "Bash", "", "No such file: a.go"),
				rec(2, "TOOL_FAILURE", "INT-001", "Bash", "", "Exit status 2"),
				rec(3, "TOOL_FAILURE", "INT-001", "Bash", "", "no such file:\n  a.go"),
			},
			want: fresh(
				"- [2026-11-22T10:00:00Z] TOOL_FAILURE: INT-001 Bash: exit status 1 (×2, last 2026-11-22T10:02:00Z)",
				"- [2026-11-22T10:01:00Z] TOOL_FAILURE: INT-001 Bash: No such file: a.go (×2, last 2026-11-22T10:03:00Z)",
			),
		},
		{
			name: "a file named - is not no path",
			calls: []call{
				rec(0, "TOOL_FAILURE", "INT-001", "Write", "-", "x"),
				rec(1, "TOOL_FAILURE", "INT-001", "Bash", "", "y"),
			},
			want: fresh(
				"- [2026-11-22T10:00:00Z] TOOL_FAILURE: INT-001 Write `-`: x",
				"- [2026-11-22T10:01:00Z] TOOL_FAILURE: INT-001 Bash: y",
			),
		},
		{
			name: "notes",
			calls: []call{
				note(0, "Run make generate after editing the schema.", "INT-003"),
				note(1, "Run make generate after editing the schema.", ""),
			},
			want: fresh(
				"- [2026-11-22T10:00:00Z] note (by a person) on INT-003: Run make generate after editing the schema.",
				"- [2026-11-22T10:01:00Z] note (by a person) on the workspace: Run make generate after editing the schema.",
			),
		},
		{
			name: "notes name their writer, one field that text cannot reopen",
			calls: []call{
				{note: "x", intent: "INT-001", by: "Claude Code", now: at(0)},
				{note: "y", intent: "INT-001", by: "", now: at(1)},
				{note: "z", intent: "INT-001", by: "x) (by a person\n`", now: at(2)},
			},
			want: fresh(
				"- [2026-11-22T10:00:00Z] note (by Claude Code) on INT-001: x",
				"- [2026-11-22T10:01:00Z] note (by an agent) on INT-001: y",
				"- [2026-11-22T10:02:00Z] note (by x by a person\\x0a) on INT-001: z",
			),
		},
		{
			name:   "added to a human-edited file, after the section's last line",
			before: human,
			calls: []call{
				rec(0, "SCOPE_VIOLATION", "INT-001", "Write", "a.go", "new"),
				note(1, "remember", ""),
			},
			want: strings.Replace(human, "reread it\n", md(
				"reread it",
				"- [2026-11-22T10:00:00Z] SCOPE_VIOLATION: INT-001 Write `a.go`: new",
				"- [2026-11-22T10:01:00Z] note (by a person) on the workspace: remember",
			), 1),
		},
		{
			name:   "a repeat of a person's line is counted on it",
			before: human,
			calls:  []call{rec(0, "STALE_FILE", "INT-002", "Write", "b.go", "new text")},
			want:   strings.Replace(human, "reread it\n", "reread it (×2, last 2026-11-22T10:00:00Z)\n", 1),
		},
		{
			name:   "an existing count is replaced",
			before: md("## Lessons Learned", "- [2026-11-01T09:00:00Z] X: - Edit `b.go`: m (×41, last 2026-11-02T09:00:00Z)"),
			calls:  []call{rec(0, "X", "", "Edit", "b.go", "other")},
			want:   md("## Lessons Learned", "- [2026-11-01T09:00:00Z] X: - Edit `b.go`: m (×42, last 2026-11-22T10:00:00Z)"),
		},
		{
			name:   "a file without Lessons Learned gets the section at its end",
			before: md("# CLAUDE.md", "", "Use tabs.", "", "## Rules", "", "- be nice"),
			calls:  []call{rec(0, "X", "INT-001", "Write", "a.go", "m")},
			want: md("# CLAUDE.md", "", "Use tabs.", "", "## Rules", "", "- be nice", "",
				"## Lessons Learned", "", "- [2026-11-22T10:00:00Z] X: INT-001 Write `a.go`: m"),
		},
		{
			name:   "a section heading right after Lessons Learned",
			before: md("## Lessons Learned", "## Known Issues"),
			calls:  []call{note(0, "n", "")},
			want:   md("## Lessons Learned", "", "- [2026-11-22T10:00:00Z] note (by a person) on the workspace: n", "", "## Known Issues"),
		},
		{
			name:   "a file ending without a newline",
			before: "## Lessons Learned\n\n- [2026-11-01T09:00:00Z] note: - old",
			calls:  []call{note(0, "new", "")},
			want:   md("## Lessons Learned", "", "- [2026-11-01T09:00:00Z] note: - old", "- [2026-11-22T10:00:00Z] note (by a person) on the workspace: new"),
		},
		{
			name:   "CRLF file stays CRLF",
			before: crlf(human),
			calls: []call{
				rec(0, "STALE_FILE", "INT-002", "Write", "b.go", "again"),
				rec(1, "X", "INT-001", "Write", "a.go", "m"),
			},
			want: crlf(strings.Replace(human, "reread it\n", md(
				"reread it (×2, last 2026-11-22T10:00:00Z)",
				"- [2026-11-22T10:01:00Z] X: INT-001 Write `a.go`: m",
			), 1)),
		},
		{
			name: "hostile values stay on their line",
			calls: []call{
				rec(0, "A B\n## Lessons Learned", "INT 1`x", "Write\tx", "a`b`\n- [x] injected.go", "line one\nline two\r\n\x00 ok"),
				rec(1, "A B\n## Lessons Learned", "INT 1`x", "Edit", "a`b`\n- [x] injected.go", "again"),
				note(2, "one\n## Known Issues\ntwo\u2028three", "I\nD"),
			},
			want: fresh(
				"- [2026-11-22T10:00:00Z] A\\x20B\\x0a##\\x20Lessons\\x20Learned: INT\\x201\\x60x Write\\x09x `ab\\x0a- [x] injected.go`: line one line two \\x00 ok (×2, last 2026-11-22T10:01:00Z)",
				"- [2026-11-22T10:02:00Z] note (by a person) on I\\x0aD: one ## Known Issues two three",
			),
		},
		{
			name:  "a very long message is cut, a long path is not",
			calls: []call{rec(0, "X", "INT-001", "Write", strings.Repeat("d/", 1000)+"f.go", strings.Repeat("é", 1500))},
			want:  fresh("- [2026-11-22T10:00:00Z] X: INT-001 Write `" + strings.Repeat("d/", 1000) + "f.go`: " + strings.Repeat("é", 998) + "…"),
		},
		{
			name:  "a message that fits is not cut",
			calls: []call{rec(0, "X", "INT-001", "Write", "a.go", strings.Repeat("a", 2000))},
			want:  fresh("- [2026-11-22T10:00:00Z] X: INT-001 Write `a.go`: " + strings.Repeat("a", 2000)),
		},
		{
			name:  "a cut never splits an escape",
			calls: []call{rec(0, "X", "INT-001", "Write", "a.go", strings.Repeat("a", 1995)+"\x00\x00")},
			want:  fresh("- [2026-11-22T10:00:00Z] X: INT-001 Write `a.go`: " + strings.Repeat("a", 1995) + "…"),
		},
		{
			name:  "another file",
			file:  "docs/AGENTS.md",
			calls: []call{note(0, "n", "")},
			want:  fresh("- [2026-11-22T10:00:00Z] note (by a person) on the workspace: n"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // durable writes wait for fsync
			root := t.TempDir()
			file := tt.file
			if file == "" {
				file = DefaultFile
			}
			path := filepath.Join(root, filepath.FromSlash(file))
			if tt.before != "" {
				writeFile(t, path, tt.before)
			}
			for _, c := range tt.calls {
				var err error
				if c.lesson.Code != "" {
					err = Record(context.Background(), root, tt.file, time.Second, c.lesson)
				} else {
					err = Note(context.Background(), root, tt.file, time.Second, c.note, c.intent, c.by, 0, c.now)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(data); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestRejects(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		file string
		call func(root, file string) error
	}{
		{"lesson without a code", "", func(root, file string) error {
			return Record(ctx, root, file, time.Second, Lesson{Time: t0, Path: "a.go"})
		}},
		{"empty note", "", func(root, file string) error {
			return Note(ctx, root, file, time.Second, " \t", "INT-001", ByPerson, 0, t0)
		}},
		{"file outside the workspace", "../CLAUDE.md", func(root, file string) error {
			return Note(ctx, root, file, time.Second, "n", "", ByPerson, 0, t0)
		}},
		{"absolute file", "/tmp/CLAUDE.md", func(root, file string) error {
			return Note(ctx, root, file, time.Second, "n", "", ByPerson, 0, t0)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "ws")
			if err := tt.call(root, tt.file); err == nil {
				t.Fatal("no error")
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(DefaultFile))); err == nil {
				t.Error("a rejected call wrote the file")
			}
		})
	}
}

// The file keeps the mode a person gave it.
func TestRecordKeepsMode(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, filepath.FromSlash(DefaultFile))
	writeFile(t, path, human)
	if err := Note(context.Background(), root, "", time.Second, "n", "", ByPerson, 0, t0); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

// TestFold keeps the newest lessons_max lessons and notes per intent: older
// ones are removed and counted on one line, which later folds add to;
// other intents' lessons and a person's text are untouched.
func TestFold(t *testing.T) {
	root := t.TempDir()
	ctx := context.Background()
	for i := range 5 {
		l := Lesson{Time: at(i), Code: "STALE_FILE", Intent: "INT-001", Tool: "Edit", Path: fmt.Sprintf("f%d.go", i), Message: "m", Keep: 3}
		if err := Record(ctx, root, "", time.Second, l); err != nil {
			t.Fatal(err)
		}
	}
	if err := Record(ctx, root, "", time.Second, Lesson{Time: at(5), Code: "X", Intent: "INT-002", Tool: "Write", Path: "g.go", Message: "other", Keep: 3}); err != nil {
		t.Fatal(err)
	}
	if err := Note(ctx, root, "", time.Second, "a note", "INT-001", ByPerson, 3, at(6)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	want := fresh(
		"- [2026-11-22T10:06:00Z] folded: INT-001 3 older lesson(s) removed; the newest 3 are kept",
		"- [2026-11-22T10:03:00Z] STALE_FILE: INT-001 Edit `f3.go`: m",
		"- [2026-11-22T10:04:00Z] STALE_FILE: INT-001 Edit `f4.go`: m",
		"- [2026-11-22T10:05:00Z] X: INT-002 Write `g.go`: other",
		"- [2026-11-22T10:06:00Z] note (by a person) on INT-001: a note",
	)
	if string(data) != want {
		t.Errorf("got:\n%s\nwant:\n%s", data, want)
	}
}

func TestAttribute(t *testing.T) {
	person := func(minutes int, text string) string {
		return fmt.Sprintf("- [%s] note (by a person): INT-001 %s", stamp(at(minutes)), text)
	}
	before := fresh(person(0, "old"), person(5, "same second, before the command"))
	tests := []struct {
		name   string
		before []byte // nil: not known
		added  []string
		want   []string
	}{
		{
			name:   "new person notes become the agent's; earlier ones stay",
			before: []byte(before),
			added:  []string{person(5, "during"), "- [2026-11-22T10:05:00Z] note (by Claude Code): INT-001 marked"},
			want: []string{person(0, "old"), person(5, "same second, before the command"),
				"- [2026-11-22T10:05:00Z] note (by claude, session s1): INT-001 during",
				"- [2026-11-22T10:05:00Z] note (by Claude Code): INT-001 marked"},
		},
		{
			name:  "without the file before, by time: the same second goes to the agent",
			added: []string{person(5, "during")},
			want: []string{person(0, "old"),
				"- [2026-11-22T10:05:00Z] note (by claude, session s1): INT-001 same second, before the command",
				"- [2026-11-22T10:05:00Z] note (by claude, session s1): INT-001 during"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, filepath.FromSlash(DefaultFile))
			now := fresh(append([]string{person(0, "old"), person(5, "same second, before the command")}, tt.added...)...)
			writeFile(t, path, now)
			if err := Attribute(context.Background(), root, "", time.Second, tt.before, at(5), "claude, session s1"); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := string(data), fresh(tt.want...); got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestAttributeLeavesFileAlone(t *testing.T) {
	root := t.TempDir()
	// No lessons file: nothing is created.
	if err := Attribute(context.Background(), root, "", time.Second, nil, at(0), "claude"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(DefaultFile))); !os.IsNotExist(err) {
		t.Fatalf("Attribute created the lessons file: %v", err)
	}
	// No note to change: the file keeps its bytes and its time.
	path := filepath.Join(root, filepath.FromSlash(DefaultFile))
	writeFile(t, path, "## Lessons Learned\r\n- [2026-11-22T10:00:00Z] note (by Claude Code): - x\r\n")
	old := time.Unix(1_700_000_000, 0)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if err := Attribute(context.Background(), root, "", time.Second, nil, at(0), "claude"); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || !st.ModTime().Equal(old) {
		t.Fatalf("Attribute rewrote a file it had nothing to change in: %v %v", st.ModTime(), err)
	}
}

// TestOlderLines reads the lines of older intenthooks beside today's: a
// note with its intent after the colon ("-" for none), a lesson with "-"
// for no file.
func TestOlderLines(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, DefaultFile), md("## Lessons Learned", "",
		"- [2026-11-01T09:00:00Z] note: - oldest general",
		"- [2026-11-02T09:00:00Z] note (by a person): - old general",
		"- [2026-11-03T09:00:00Z] note (by a person): INT-001 old on one",
		"- [2026-11-04T09:00:00Z] TOOL_FAILURE: INT-001 Bash -: old failure",
		"- [2026-11-05T09:00:00Z] TOOL_FAILURE: - Bash -: old general failure",
		"- [2026-11-06T09:00:00Z] note (by a person) on the workspace: new general",
		"- [2026-11-07T09:00:00Z] note (by a person) on INT-001: new on one",
		"- [2026-11-08T09:00:00Z] TOOL_FAILURE: INT-001 Bash: new failure",
		"- [2026-11-09T09:00:00Z] TOOL_FAILURE: - Bash: new general failure",
		"- [2026-11-10T09:00:00Z] X: INT-002 Write `a.go`: other",
	))
	text := func(lines []string) (out []string) {
		for _, l := range lines {
			out = append(out, l[strings.LastIndex(l, ": ")+2:])
		}
		return out
	}
	if got, want := text(General(root, "", 10)), []string{"new general failure", "new general", "old general failure", "- old general", "- oldest general"}; !slices.Equal(got, want) {
		t.Errorf("General = %q, want %q", got, want)
	}
	if got, want := text(Relevant(root, "", "INT-001", nil, 10)), []string{"new failure", "new on one", "old failure", "INT-001 old on one"}; !slices.Equal(got, want) {
		t.Errorf("Relevant = %q, want %q", got, want)
	}
}
