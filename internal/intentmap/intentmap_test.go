package intentmap

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var day = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// md joins lines into a file's text, each line ending in a newline. Golden
// texts are built with it rather than raw strings: they hold backticks.
func md(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

func add(id, name, path string) Change {
	return Change{IntentID: id, IntentName: name, Path: path, Kind: Added, Time: day}
}

func del(id, path string) Change {
	return Change{IntentID: id, Path: path, Kind: Removed, Time: day}
}

func evolve(id, name, path string) Change {
	return Change{IntentID: id, IntentName: name, Path: path, Kind: Evolved, Class: "INTENT_EVOLUTION", Time: day}
}

// human is a map people have edited: prose, a fenced block holding lines that
// look like headings and entries, a section of their own and notes inside
// the intents' sections. Every test that starts from it checks that only the
// intended lines change.
var human = md(
	"# Intent-Code Spatial Map",
	"",
	"Kept by intenthook; edit freely.  ",
	"",
	"```markdown",
	"## INT-001: Example",
	"### Files",
	"- `example.go`",
	"```",
	"",
	"## INT-001: Hook System (renamed)",
	"",
	"Owner: the platform team.",
	"",
	"### Files",
	"",
	"* `src/hooks/engine.go` — the entry point",
	"- `src/hooks/types.go`",
	"",
	"Generated files are not listed.",
	"",
	"### Evolution Log",
	"",
	"- _[EVOLUTION 2026-11-01]_ `src/hooks/types.go` — INTENT_EVOLUTION",
	"",
	"## Glossary",
	"",
	"- `intent`: a unit of work",
	"",
	"",
	"## INT-002: Ledger",
	"",
	"### Files",
	"",
	"- `src/ledger/append.go`",
)

func TestApply(t *testing.T) {
	long := strings.Repeat("deep/", 800) + "file.go"
	tests := []struct {
		name    string
		before  string // "" for no file
		changes []Change
		want    string // "" for no file
	}{
		{
			name:    "created from nothing",
			changes: []Change{add("INT-001", "Hook System", "src/hooks/engine.go")},
			want: md(
				"# Intent-Code Spatial Map",
				"",
				"## INT-001: Hook System",
				"",
				"### Files",
				"",
				"- `src/hooks/engine.go`",
			),
		},
		{
			name: "created from nothing with an evolution, as in the spec",
			changes: []Change{
				add("INT-001", "Hook System", "src/hooks/engine.go"),
				evolve("INT-001", "Hook System", "src/hooks/types.go"),
			},
			want: md(
				"# Intent-Code Spatial Map",
				"",
				"## INT-001: Hook System",
				"",
				"### Files",
				"",
				"- `src/hooks/engine.go`",
				"- `src/hooks/types.go`",
				"",
				"### Evolution Log",
				"",
				"- _[EVOLUTION 2026-11-22]_ `src/hooks/types.go` — INTENT_EVOLUTION",
			),
		},
		{
			name:    "an empty file gets the heading",
			before:  "\n",
			changes: []Change{add("INT-001", "", "a.go")},
			want:    md("# Intent-Code Spatial Map", "", "## INT-001", "", "### Files", "", "- `a.go`"),
		},
		{
			name:    "removal from nothing creates nothing",
			changes: []Change{del("INT-001", "a.go")},
		},
		{
			name:    "added to a human-edited map, after the section's last line",
			before:  human,
			changes: []Change{add("INT-001", "Hook System", "src/hooks/new.go")},
			want: strings.Replace(human,
				"Generated files are not listed.\n",
				"Generated files are not listed.\n\n- `src/hooks/new.go`\n", 1),
		},
		{
			name:    "added to a list that ends the section",
			before:  human,
			changes: []Change{add("INT-002", "Ledger", "src/ledger/read.go")},
			want:    human + "- `src/ledger/read.go`\n",
		},
		{
			name:    "a new section goes at the end",
			before:  human,
			changes: []Change{add("INT-003", "Shell", "src/shell/parse.go")},
			want:    human + md("", "## INT-003: Shell", "", "### Files", "", "- `src/shell/parse.go`"),
		},
		{
			name:    "a file without a final newline",
			before:  strings.TrimSuffix(human, "\n"),
			changes: []Change{add("INT-003", "Shell", "x.go")},
			want:    human + md("", "## INT-003: Shell", "", "### Files", "", "- `x.go`"),
		},
		{
			name:    "already listed, even with a note: no change",
			before:  human,
			changes: []Change{add("INT-001", "Hook System", "src/hooks/engine.go")},
			want:    human,
		},
		{
			name: "added twice in one call",
			changes: []Change{
				add("INT-001", "Hook System", "a.go"),
				add("INT-001", "Hook System", "a.go"),
				add("INT-001", "Other Name", "a.go"),
			},
			want: md("# Intent-Code Spatial Map", "", "## INT-001: Hook System", "", "### Files", "", "- `a.go`"),
		},
		{
			name:    "a path listed under another intent is listed here too",
			before:  human,
			changes: []Change{add("INT-002", "Ledger", "src/hooks/types.go")},
			want:    human + "- `src/hooks/types.go`\n",
		},
		{
			name:    "removed",
			before:  human,
			changes: []Change{del("INT-001", "src/hooks/types.go")},
			want:    strings.Replace(human, "- `src/hooks/types.go`\n", "", 1),
		},
		{
			name:    "removed with its note",
			before:  human,
			changes: []Change{del("INT-001", "src/hooks/engine.go")},
			want:    strings.Replace(human, "* `src/hooks/engine.go` — the entry point\n", "", 1),
		},
		{
			name:    "removing the last entry leaves one blank line",
			before:  human,
			changes: []Change{del("INT-002", "src/ledger/append.go")},
			want:    strings.TrimSuffix(human, "- `src/ledger/append.go`\n"),
		},
		{
			name:    "removed and added again: the file is as it was",
			before:  md("# Intent-Code Spatial Map", "", "## INT-001: A", "", "### Files", "", "- `a.go`", "", "## INT-002: B"),
			changes: []Change{del("INT-001", "a.go"), add("INT-001", "A", "a.go")},
			want:    md("# Intent-Code Spatial Map", "", "## INT-001: A", "", "### Files", "", "- `a.go`", "", "## INT-002: B"),
		},
		{
			name:    "removal of a path another intent lists, or no intent does: no change",
			before:  human,
			changes: []Change{del("INT-002", "src/hooks/types.go"), del("INT-001", "nope.go"), del("INT-009", "a.go")},
			want:    human,
		},
		{
			name:    "an evolution line after the log's last line",
			before:  human,
			changes: []Change{evolve("INT-001", "Hook System", "src/hooks/types.go")},
			want: strings.Replace(human,
				"— INTENT_EVOLUTION\n",
				"— INTENT_EVOLUTION\n- _[EVOLUTION 2026-11-22]_ `src/hooks/types.go` — INTENT_EVOLUTION\n", 1),
		},
		{
			name:    "an evolution of an unlisted file lists it and logs it",
			before:  human,
			changes: []Change{evolve("INT-002", "Ledger", "src/ledger/record.go")},
			want: human + md(
				"- `src/ledger/record.go`",
				"",
				"### Evolution Log",
				"",
				"- _[EVOLUTION 2026-11-22]_ `src/ledger/record.go` — INTENT_EVOLUTION",
			),
		},
		{
			name: "the same evolution twice on one day: one line",
			changes: []Change{
				evolve("INT-001", "A", "a.go"),
				evolve("INT-001", "A", "a.go"),
			},
			want: md("# Intent-Code Spatial Map", "", "## INT-001: A", "", "### Files", "", "- `a.go`", "",
				"### Evolution Log", "", "- _[EVOLUTION 2026-11-22]_ `a.go` — INTENT_EVOLUTION"),
		},
		{
			name:    "missing Files goes before the evolution log",
			before:  md("# Intent-Code Spatial Map", "", "## INT-001: A", "", "Prose.", "", "### Evolution Log", "", "- old line"),
			changes: []Change{add("INT-001", "A", "a.go")},
			want: md("# Intent-Code Spatial Map", "", "## INT-001: A", "", "Prose.", "", "### Files", "", "- `a.go`", "",
				"### Evolution Log", "", "- old line"),
		},
		{
			name:    "missing Files, heading followed at once by the log",
			before:  md("## INT-001: A", "### Evolution Log", "- old line"),
			changes: []Change{add("INT-001", "A", "a.go")},
			want:    md("## INT-001: A", "", "### Files", "", "- `a.go`", "", "### Evolution Log", "- old line"),
		},
		{
			name:    "missing Files in a section with prose and another section after",
			before:  md("# Map", "", "## INT-001: A", "Prose.", "## INT-002: B"),
			changes: []Change{add("INT-001", "A", "a.go")},
			want:    md("# Map", "", "## INT-001: A", "Prose.", "", "### Files", "", "- `a.go`", "", "## INT-002: B"),
		},
		{
			name:    "missing Evolution Log goes at the end of the section",
			before:  md("## INT-001: A", "", "### Files", "", "- `a.go`", "", "### Notes", "", "Hand-written.", "", "## INT-002: B"),
			changes: []Change{evolve("INT-001", "A", "a.go")},
			want: md("## INT-001: A", "", "### Files", "", "- `a.go`", "", "### Notes", "", "Hand-written.", "",
				"### Evolution Log", "", "- _[EVOLUTION 2026-11-22]_ `a.go` — INTENT_EVOLUTION", "", "## INT-002: B"),
		},
		{
			name:    "empty Files subsection",
			before:  md("## INT-001: A", "### Files", "### Evolution Log"),
			changes: []Change{add("INT-001", "A", "a.go")},
			want:    md("## INT-001: A", "### Files", "", "- `a.go`", "", "### Evolution Log"),
		},
		{
			name:    "renamed intent: the section is found by its ID and keeps its heading",
			before:  md("## INT-001: Old Name", "", "### Files", "", "- `a.go`"),
			changes: []Change{add("INT-001", "New Name", "b.go")},
			want:    md("## INT-001: Old Name", "", "### Files", "", "- `a.go`", "- `b.go`"),
		},
		{
			name:    "an ID that prefixes another ID is not that intent",
			before:  md("## INT-0010: Other", "", "### Files", "", "- `a.go`"),
			changes: []Change{add("INT-001", "A", "a.go")},
			want:    md("## INT-0010: Other", "", "### Files", "", "- `a.go`", "", "## INT-001: A", "", "### Files", "", "- `a.go`"),
		},
		{
			name:    "headings inside a fenced block are text",
			before:  md("# Map", "", "~~~", "## INT-001: A", "### Files", "~~~"),
			changes: []Change{add("INT-001", "A", "a.go")},
			want:    md("# Map", "", "~~~", "## INT-001: A", "### Files", "~~~", "", "## INT-001: A", "", "### Files", "", "- `a.go`"),
		},
		{
			name:    "an unclosed fence does not hide the sections after it",
			before:  md("# Map", "", "```", "## INT-001: A", "", "### Files", "", "- `a.go`"),
			changes: []Change{add("INT-001", "A", "a.go"), add("INT-001", "A", "b.go")},
			want:    md("# Map", "", "```", "## INT-001: A", "", "### Files", "", "- `a.go`", "- `b.go`"),
		},
		{
			name:    "CRLF file stays CRLF",
			before:  crlf(human),
			changes: []Change{add("INT-002", "Ledger", "b.go"), evolve("INT-001", "Hook System", "c.go"), del("INT-001", "src/hooks/types.go")},
			want: crlf(strings.NewReplacer(
				"Generated files are not listed.\n",
				"Generated files are not listed.\n\n- `c.go`\n",
				"- `src/hooks/types.go`\n", "",
				"— INTENT_EVOLUTION\n",
				"— INTENT_EVOLUTION\n- _[EVOLUTION 2026-11-22]_ `c.go` — INTENT_EVOLUTION\n",
			).Replace(human) + "- `b.go`\n"),
		},
		{
			name:    "CRLF file without a final newline",
			before:  "## INT-001: A\r\n\r\n### Files\r\n\r\n- `a.go`",
			changes: []Change{add("INT-001", "A", "b.go")},
			want:    "## INT-001: A\r\n\r\n### Files\r\n\r\n- `a.go`\r\n- `b.go`\r\n",
		},
		{
			name: "hostile paths stay on their line",
			changes: []Change{
				add("INT-001", "A", "a`b`.go"),
				add("INT-001", "A", "x.go\n## INT-666: Injected\n- `y.go`"),
				add("INT-001", "A", "tab\there\r\x00\x7f.go"),
				add("INT-001", "A", "sep\u2028\u202eog.exe\xff"),
				add("INT-001", "A", long),
				add("INT-001", "A", "ab.go"), // what the first one became
			},
			want: md("# Intent-Code Spatial Map", "", "## INT-001: A", "", "### Files", "",
				"- `ab.go`",
				"- `x.go\\x0a## INT-666: Injected\\x0a- y.go`",
				"- `tab\\x09here\\x0d\\x00\\x7f.go`",
				"- `sep\\u2028\\u202eog.exe\\xff`",
				"- `"+long+"`",
			),
		},
		{
			name:    "hostile intent name",
			changes: []Change{add("INT-001", " Name\n## INT-002: x\t", "a.go")},
			want:    md("# Intent-Code Spatial Map", "", "## INT-001: Name\\x0a## INT-002: x\\x09", "", "### Files", "", "- `a.go`"),
		},
		{
			name:    "class given for an evolution",
			changes: []Change{{IntentID: "INT-001", IntentName: "A", Path: "a.go", Kind: Evolved, Class: "AST_REFACTOR", Time: day}},
			want: md("# Intent-Code Spatial Map", "", "## INT-001: A", "", "### Files", "", "- `a.go`", "",
				"### Evolution Log", "", "- _[EVOLUTION 2026-11-22]_ `a.go` — AST_REFACTOR"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // durable writes wait for fsync
			root := t.TempDir()
			path := filepath.Join(root, filepath.FromSlash(File))
			if tt.before != "" {
				writeFile(t, path, tt.before)
			}
			if err := Apply(context.Background(), root, time.Second, tt.changes...); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("file written:\n%s", data)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(data); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			// Applying the same changes again changes nothing.
			if err := Apply(context.Background(), root, time.Second, tt.changes...); err != nil {
				t.Fatal(err)
			}
			if again, _ := os.ReadFile(path); string(again) != tt.want {
				t.Errorf("second apply changed the file:\n%s", again)
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

// A map the changes leave as it was is not rewritten: people's editors
// would otherwise see it change under them on every tool call.
func TestApplyNoChangeNoWrite(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, filepath.FromSlash(File))
	writeFile(t, path, human)
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	err = Apply(context.Background(), root, time.Second,
		add("INT-001", "Hook System", "src/hooks/engine.go"),
		del("INT-002", "not/listed.go"),
		evolve("INT-001", "Hook System", "src/hooks/types.go"), // logged on another day: a new line
	)
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(before, after) {
		t.Fatal("a change that adds a line did not rewrite the file")
	}
	if after.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", after.Mode().Perm())
	}

	err = Apply(context.Background(), root, time.Second,
		add("INT-001", "Hook System", "src/hooks/engine.go"),
		del("INT-002", "not/listed.go"),
		evolve("INT-001", "Hook System", "src/hooks/types.go"),
	)
	if err != nil {
		t.Fatal(err)
	}
	again, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(after, again) {
		t.Error("changes that change nothing rewrote the file")
	}
}

func TestApplyRejects(t *testing.T) {
	tests := []struct {
		name string
		c    Change
	}{
		{"no intent", Change{Path: "a.go", Kind: Added}},
		{"intent with a line break", Change{IntentID: "INT-1\n# x", Path: "a.go", Kind: Added}},
		{"intent with a space", Change{IntentID: "INT 1", Path: "a.go", Kind: Added}},
		{"intent with a colon", Change{IntentID: "INT:1", Path: "a.go", Kind: Added}},
		{"intent with a closing #", Change{IntentID: "X#", Path: "a.go", Kind: Added}},
		{"no path", Change{IntentID: "INT-001", Kind: Added}},
		{"no kind", Change{IntentID: "INT-001", Path: "a.go"}},
		{"unknown kind", Change{IntentID: "INT-001", Path: "a.go", Kind: Evolved + 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // durable writes wait for fsync
			root := t.TempDir()
			if err := Apply(context.Background(), root, time.Second, add("INT-001", "A", "ok.go"), tt.c); err == nil {
				t.Fatal("no error")
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(File))); err == nil {
				t.Error("a rejected call wrote the map")
			}
		})
	}
}

func TestFiles(t *testing.T) {
	tests := []struct {
		name   string
		before string
		id     string
		want   []string
	}{
		{"no map", "", "INT-001", nil},
		{"in file order, notes and bullets of other kinds too", human, "INT-001", []string{"src/hooks/engine.go", "src/hooks/types.go"}},
		{"not the fenced example, nor other sections", human, "INT-002", []string{"src/ledger/append.go"}},
		{"no section", human, "INT-003", nil},
		{"no Files", md("## INT-001: A", "", "- `a.go`"), "INT-001", nil},
		{"bullets without a path", md("## INT-001: A", "### Files", "- a.go", "- ``", "- `b.go`", "```", "- `c.go`", "```"), "INT-001", []string{"b.go"}},
		{"CRLF", crlf(human), "INT-002", []string{"src/ledger/append.go"}},
		{"every section of the intent (a union merge leaves two)",
			md("## INT-001: A", "### Files", "- `a.go`", "## INT-002: B", "### Files", "- `x.go`", "## INT-001: A", "### Files", "- `b.go`", "- `a.go`", "### Planned", "- `c.go`"),
			"INT-001", []string{"a.go", "b.go", "c.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // durable writes wait for fsync
			root := t.TempDir()
			if tt.before != "" {
				writeFile(t, filepath.Join(root, filepath.FromSlash(File)), tt.before)
			}
			got, err := Files(root, tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestTwoSections changes a map a union merge left with two sections of one
// intent: a file either lists is not added again, and a removal takes it
// out of both.
func TestTwoSections(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, filepath.FromSlash(File))
	writeFile(t, path, md("# Intent-Code Spatial Map", "", "## INT-001: A", "", "### Files", "", "- `a.go`", "- `b.go`", "",
		"## INT-001: A", "", "### Files", "", "- `b.go`", "- `c.go`"))
	ctx := context.Background()
	if err := Apply(ctx, root, time.Second, Change{IntentID: "INT-001", IntentName: "A", Path: "c.go", Kind: Added}, Change{IntentID: "INT-001", Path: "b.go", Kind: Removed}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := md("# Intent-Code Spatial Map", "", "## INT-001: A", "", "### Files", "", "- `a.go`", "",
		"## INT-001: A", "", "### Files", "", "- `c.go`")
	if string(data) != want {
		t.Errorf("got:\n%s\nwant:\n%s", data, want)
	}
}
