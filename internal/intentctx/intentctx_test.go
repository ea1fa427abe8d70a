package intentctx

import (
	"encoding/xml"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/safetext"
)

func hookIntent() *intents.Intent {
	return &intents.Intent{
		ID:          "INT-001",
		Name:        "Hook System",
		Status:      intents.InProgress,
		Version:     2,
		OwnedScope:  []string{"src/core/hooks/**"},
		Constraints: []string{"Must not break existing tool execution flow"},
		AcceptanceCriteria: []intents.Criterion{
			{Description: "Hook engine intercepts all write tool executions", Check: "go test ./..."},
		},
	}
}

func TestBuildFull(t *testing.T) {
	in := Inputs{
		Intent:       hookIntent(),
		RelatedFiles: []string{"src/core/hooks/HookEngine.ts"},
		Specs:        []SpecExcerpt{{Ref: ".specify/specs/hook.md", Text: "# Hooks\nIntercept writes."}},
		Trace:        []TraceEntry{{Time: "2026-11-22T10:00:00Z", Tool: "Write", Path: "src/core/hooks/HookEngine.ts", Class: "AST_REFACTOR"}},
		Budget:       9500,
	}
	want := `<intent_context id="INT-001" name="Hook System" status="IN_PROGRESS" version="2">
  <scope><pattern>src/core/hooks/**</pattern></scope>
  <constraints><constraint>Must not break existing tool execution flow</constraint></constraints>
  <acceptance_criteria><criterion>Hook engine intercepts all write tool executions</criterion></acceptance_criteria>
  <related_files><file path="src/core/hooks/HookEngine.ts" /></related_files>
  <related_specs><spec_excerpt ref=".specify/specs/hook.md"># Hooks
Intercept writes.</spec_excerpt></related_specs>
  <recent_trace><entry time="2026-11-22T10:00:00Z" tool="Write" path="src/core/hooks/HookEngine.ts" class="AST_REFACTOR" /></recent_trace>
</intent_context>`
	got := build(t, in)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBuildEmptyGroups(t *testing.T) {
	got := build(t, Inputs{Intent: &intents.Intent{ID: "INT-002", Status: intents.Pending, Version: 1}, Budget: 9500})
	want := `<intent_context id="INT-002" name="" status="PENDING" version="1">
  <scope />
</intent_context>`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBuildNil(t *testing.T) {
	if got := Build(Inputs{Budget: 9500}); got != "" {
		t.Errorf("nil intent: got %q", got)
	}
}

// trace returns n entries whose paths t01, t02… name their age.
func trace(n int) []TraceEntry {
	var tr []TraceEntry
	for i := 1; i <= n; i++ {
		tr = append(tr, TraceEntry{Time: "2026-11-22T10:00:00Z", Tool: "Edit", Path: fmt.Sprintf("t%02d", i), Class: "AST_REFACTOR"})
	}
	return tr
}

func files(n int) []string {
	var fs []string
	for i := 1; i <= n; i++ {
		fs = append(fs, fmt.Sprintf("f%02d.go", i))
	}
	return fs
}

func items(prefix string, n int) []string {
	var is []string
	for i := 1; i <= n; i++ {
		is = append(is, fmt.Sprintf("%s%03d", prefix, i))
	}
	return is
}

// staged is an intent with something in every group, so each truncation
// stage can be seen to leave the later groups alone.
func staged() Inputs {
	in := hookIntent()
	in.OwnedScope = items("scope", 40)
	in.Constraints = items("constraint", 10)
	in.AcceptanceCriteria = nil
	for _, c := range items("criterion", 5) {
		in.AcceptanceCriteria = append(in.AcceptanceCriteria, intents.Criterion{Description: c})
	}
	return Inputs{
		Intent:       in,
		RelatedFiles: files(20),
		Specs: []SpecExcerpt{
			{Ref: "a.md", Text: "AB" + strings.Repeat("é", 3000)}, // the 2 KB cut falls inside an é
			{Ref: "b.md", Text: strings.Repeat("B", 5000)},
		},
		Trace:  trace(12),
		Budget: 1 << 20,
	}
}

// sizeWithout is the length of the full context of in with some groups
// emptied, to aim a budget exactly at a stage.
func sizeWithout(in Inputs, trace, specs, files bool) int {
	if trace {
		in.Trace = nil
	}
	if specs {
		in.Specs = nil
	}
	if files {
		in.RelatedFiles = nil
	}
	in.Budget = 1 << 30
	return len(Build(in))
}

func TestBuildTruncation(t *testing.T) {
	full := staged()
	fullLen := sizeWithout(full, false, false, false)
	noTrace := sizeWithout(full, true, false, false)
	noSpecs := sizeWithout(full, true, true, false)
	noFiles := sizeWithout(full, true, true, true)
	// 2045 bytes and "…": the B's exactly, the é's one byte short.
	cutA := "AB" + strings.Repeat("é", 1021) + ellipsis
	cutB := strings.Repeat("B", SpecExcerptBytes-len(ellipsis)) + ellipsis

	tests := []struct {
		name    string
		budget  int
		want    []string
		notWant []string
	}{
		{
			name:    "everything fits, newest 10 trace entries",
			budget:  fullLen,
			want:    []string{`path="t03"`, `path="t12"`, `ref="b.md">BBBBB`, `f01.go`, `scope040`},
			notWant: []string{`path="t01"`, `path="t02"`, ellipsis, "truncated"},
		},
		{
			name:    "trace dropped oldest first",
			budget:  fullLen - 1,
			want:    []string{`path="t04"`, `path="t12"`},
			notWant: []string{`path="t03"`, ellipsis},
		},
		{
			name:    "all trace dropped before any spec is cut",
			budget:  noTrace,
			want:    []string{strings.Repeat("B", 5000) + "</spec_excerpt>"},
			notWant: []string{"recent_trace", ellipsis},
		},
		{
			name:    "last spec cut to 2 KB first",
			budget:  noTrace - 1,
			want:    []string{`<spec_excerpt ref="b.md">` + cutB + `</spec_excerpt>`, "AB" + strings.Repeat("é", 3000) + "</spec_excerpt>"},
			notWant: []string{"recent_trace"},
		},
		{
			name:    "then the first spec, on a UTF-8 boundary",
			budget:  noTrace - (5000 - 2048) - 1,
			want:    []string{`<spec_excerpt ref="a.md">` + cutA + `</spec_excerpt><spec_excerpt ref="b.md">` + cutB + `</spec_excerpt>`},
			notWant: []string{"recent_trace"},
		},
		{
			name:    "specs dropped last first",
			budget:  noSpecs + 3000,
			want:    []string{`<related_specs><spec_excerpt ref="a.md">` + cutA + `</spec_excerpt></related_specs>`},
			notWant: []string{"b.md"},
		},
		{
			name:    "files dropped oldest first",
			budget:  noSpecs - 1,
			want:    []string{`<related_files><file path="f02.go" />`, `f20.go`, `scope040`},
			notWant: []string{"related_specs", "f01.go"},
		},
		{
			name:   "all files dropped before lists are cut",
			budget: noFiles,
			want: []string{
				`<pattern>scope040</pattern></scope>`,
				`<constraint>constraint010</constraint></constraints>`,
				`<criterion>criterion005</criterion></acceptance_criteria>`,
			},
			notWant: []string{"related_files", "truncated"},
		},
		{
			name:   "longest list cut from its end",
			budget: noFiles - 1,
			want: []string{
				`<pattern>scope039</pattern><truncated count="1"/></scope>`,
				`<constraint>constraint010</constraint></constraints>`,
			},
			notWant: []string{"scope040"},
		},
		{
			name:   "lists cut in turn, longest first",
			budget: noFiles - 40*len("<pattern>scope001</pattern>"),
			want: []string{
				`<truncated count="`,
				`<pattern>scope001</pattern>`,
				`<constraint>constraint001</constraint>`,
			},
		},
		{
			name:   "at the minimum budget every list keeps its marker",
			budget: MinBudget,
			want: []string{
				`<intent_context id="INT-001" name="Hook System" status="IN_PROGRESS" version="2">`,
				`<truncated count=`,
				"</scope>", "</constraints>", "</acceptance_criteria>",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := staged()
			in.Budget = tt.budget
			got := build(t, in)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("unexpected %q in\n%s", w, got)
				}
			}
		})
	}
}

func TestBuildLongStrings(t *testing.T) {
	long := strings.Repeat("x", 20<<10)
	tests := []struct {
		name   string
		mutate func(*intents.Intent)
		budget int
		want   []string
	}{
		{
			name:   "20 KB constraint cut, the other constraints kept",
			mutate: func(in *intents.Intent) { in.Constraints = []string{"first", long, "last"} },
			budget: 9500,
			want:   []string{"<constraint>first</constraint><constraint>xxx", "x…</constraint><constraint>last</constraint>"},
		},
		{
			name:   "5 KB name cut",
			mutate: func(in *intents.Intent) { in.Name = long[:5<<10] },
			budget: 1000,
			want:   []string{`name="xxx`, `x…" status="IN_PROGRESS" version="2">`, `<pattern>src/core/hooks/**</pattern>`},
		},
		{
			name: "long strings capped alike, then lists cut",
			mutate: func(in *intents.Intent) {
				in.Constraints = []string{long, long, long, long, long, long, long, long}
			},
			budget: 2000,
			want:   []string{"x…</constraint>", `<truncated count="`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := hookIntent()
			tt.mutate(in)
			got := build(t, Inputs{Intent: in, Budget: tt.budget})
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
		})
	}
}

func TestBuildWarning(t *testing.T) {
	in := Inputs{Intent: hookIntent(), Budget: 9500, Warning: "intenthook: warning: INT-001 is\nalso active in session s2"}
	got := build(t, in)
	line, rest, _ := strings.Cut(got, "\n")
	if line != "intenthook: warning: INT-001 is also active in session s2" {
		t.Errorf("warning line = %q", line)
	}
	if !strings.HasPrefix(rest, `<intent_context id="INT-001"`) {
		t.Errorf("XML does not follow the warning line:\n%s", got)
	}

	// A warning longer than a third of the budget is cut.
	in.Warning = strings.Repeat("w", 5000)
	in.Budget = 600
	got = build(t, in)
	line, _, _ = strings.Cut(got, "\n")
	if len(line)+1 > 600/3 || !strings.HasSuffix(line, ellipsis) {
		t.Errorf("warning line not cut to a third of the budget: %d bytes", len(line))
	}

	// When the budget cannot hold both, the warning goes first.
	in.Warning = "w"
	in.Budget = len(minimal(in.Intent)) + 40
	got = build(t, in)
	if got != minimal(in.Intent) {
		t.Errorf("tiny budget: got %q", got)
	}
}

func TestBuildEscaping(t *testing.T) {
	in := &intents.Intent{
		ID:          "INT-001",
		Name:        `"quoted" & <angled> 'single'`,
		Status:      intents.InProgress,
		Version:     1,
		OwnedScope:  []string{"a<b>&c"},
		Constraints: []string{`say "hi" & <bye>`},
	}
	got := build(t, Inputs{
		Intent:       in,
		RelatedFiles: []string{`we"ird&<path>`},
		Trace:        []TraceEntry{{Time: "t", Tool: "Bash", Path: "a\tb\nc", Class: `"`}},
		Budget:       9500,
	})
	for _, w := range []string{
		`name="&quot;quoted&quot; &amp; &lt;angled&gt; 'single'"`,
		`<pattern>a&lt;b&gt;&amp;c</pattern>`,
		`<constraint>say "hi" &amp; &lt;bye&gt;</constraint>`,
		`<file path="we&quot;ird&amp;&lt;path&gt;" />`,
		`path="a&#x9;b&#xA;c" class="&quot;"`,
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
}

func TestBuildInvalidInput(t *testing.T) {
	in := &intents.Intent{
		ID:          "INT-001",
		Name:        "bad\xff\xfe name\x00",
		Status:      intents.InProgress,
		OwnedScope:  []string{"src/\x01\x1b[31m/**", "\xc3"},
		Constraints: []string{"ok \uFFFE \ufffd"},
	}
	got := build(t, Inputs{
		Intent:  in,
		Specs:   []SpecExcerpt{{Ref: "s\x00.md", Text: strings.Repeat("é", 1500)[1:] + "\x80"}},
		Budget:  9500,
		Warning: "warn\x00\xff\x85",
	})
	for _, w := range []string{
		"warn \uFFFD\uFFFD\n",
		`name="bad` + "\uFFFD\uFFFD" + ` name` + "\uFFFD" + `"`,
		"<pattern>src/\uFFFD\uFFFD[31m/**</pattern><pattern>\uFFFD</pattern>",
		"<constraint>ok \uFFFD \uFFFD</constraint>",
		`ref="s` + "\uFFFD" + `.md">` + "\uFFFD",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in\n%q", w, got)
		}
	}
}

func TestCut(t *testing.T) {
	tests := []struct {
		s    string
		max  int
		m    mode
		want string
	}{
		{"hello", 5, text, "hello"},
		{"hello", 4, text, "h…"},
		{"hello", 3, text, "…"},
		{"hello", 2, text, ""},
		{"héllo", 5, raw, "h…"},       // é is 2 bytes: "hé…" is 6
		{"a&b", 7, text, "a&b"},       // a&amp;b
		{"a&b", 6, text, "a…"},        // "a&amp;…" would be 9
		{"a\xffb", 5, text, "a\xffb"}, // \xff is written as U+FFFD: 5 bytes
		{"a\xffb", 4, text, "a…"},
	}
	for _, tt := range tests {
		if got := cut(tt.s, tt.max, tt.m); got != tt.want {
			t.Errorf("cut(%q, %d, %d) = %q, want %q", tt.s, tt.max, tt.m, got, tt.want)
		}
		if got := cut(tt.s, tt.max, tt.m); escLen(got, tt.m) > tt.max {
			t.Errorf("cut(%q, %d) is %d bytes written", tt.s, tt.max, escLen(got, tt.m))
		}
	}
}

// TestBuildProperties builds random, hostile inputs under random budgets and
// checks what every result must be.
func TestBuildProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 200
	if testing.Short() {
		n = 50
	}
	for i := range n {
		in := randomInputs(r)
		in.Budget = MinBudget + r.IntN(20000-MinBudget+1)
		got := Build(in)
		if err := check(in, got); err != nil {
			t.Fatalf("case %d (budget %d): %v\n%.2000q", i, in.Budget, err, got)
		}
		if len(got) > in.Budget {
			t.Fatalf("case %d: %d bytes over budget %d", i, len(got), in.Budget)
		}
	}
}

func randomInputs(r *rand.Rand) Inputs {
	str := func(max int) string { return randString(r, r.IntN(max+1)) }
	// Mostly small strings, sometimes huge ones (but not thousands of huge
	// ones: the test must stay fast).
	size := func(count int) int {
		switch k := r.IntN(10); {
		case k == 0 && count < 100:
			return 100 << 10
		case k < 3 && count < 100:
			return 5 << 10
		default:
			return 60
		}
	}
	count := func() int {
		switch r.IntN(8) {
		case 0:
			return 3000
		case 1:
			return 200
		default:
			return r.IntN(8)
		}
	}
	in := &intents.Intent{
		ID:      fmt.Sprintf("INT-%03d", r.IntN(100000)),
		Name:    str(size(1)),
		Status:  []intents.Status{intents.Pending, intents.InProgress, intents.Blocked}[r.IntN(3)],
		Version: r.IntN(1000),
	}
	n := count()
	for range n {
		in.OwnedScope = append(in.OwnedScope, str(size(n)))
	}
	n = count()
	for range n {
		in.Constraints = append(in.Constraints, str(size(n)))
	}
	n = count()
	for range n {
		in.AcceptanceCriteria = append(in.AcceptanceCriteria, intents.Criterion{Description: str(size(n))})
	}
	out := Inputs{Intent: in}
	n = count()
	for range n {
		out.RelatedFiles = append(out.RelatedFiles, str(size(n)))
	}
	for range r.IntN(5) {
		out.Specs = append(out.Specs, SpecExcerpt{Ref: str(60), Text: str(size(1))})
	}
	for range r.IntN(15) {
		out.Trace = append(out.Trace, TraceEntry{Time: str(30), Tool: str(10), Path: str(size(1)), Class: str(20)})
	}
	if r.IntN(2) == 0 {
		out.Warning = "w" + str(size(1))
	}
	return out
}

// randString mixes ASCII, XML metacharacters, control characters,
// multi-byte runes, forbidden code points and invalid bytes: a random chunk
// of up to 300 bytes, repeated to n bytes and cut there (maybe mid-rune).
func randString(r *rand.Rand, n int) string {
	pieces := []string{"a", "z", " ", "/", "*", "<", ">", "&", `"`, "'", "\n", "\t", "\r", "\x00", "\x1b", "\x7f",
		"é", "語", "😀", "\u2028", "\uFFFE", "\uFFFF", "\xff", "\xc3", "\xed\xa0\x80", "]]>", "…"}
	var b strings.Builder
	for b.Len() < min(n, 300) {
		if r.IntN(4) == 0 {
			b.WriteString(pieces[r.IntN(len(pieces))])
		} else {
			b.WriteByte(byte('a' + r.IntN(26)))
		}
	}
	chunk := b.String()
	if chunk == "" {
		return ""
	}
	return strings.Repeat(chunk, n/len(chunk)+1)[:n]
}

// check reports what is wrong with got as the result of Build(in): it must
// be valid UTF-8, a warning line then one well-formed <intent_context>
// carrying the intent's id, and exactly the size the plan predicted.
func check(in Inputs, got string) error {
	if !utf8.ValidString(got) {
		return fmt.Errorf("invalid UTF-8")
	}
	doc := got
	if !strings.HasPrefix(doc, "<intent_context ") {
		var ok bool
		if _, doc, ok = strings.Cut(doc, "\n"); !ok {
			return fmt.Errorf("no XML after the warning line")
		}
	}
	d := xml.NewDecoder(strings.NewReader(doc))
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("ill-formed: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if tok.Name.Local != "intent_context" {
					return fmt.Errorf("root is %s", tok.Name.Local)
				}
				id := ""
				for _, a := range tok.Attr {
					if a.Name.Local == "id" {
						id = a.Value
					}
				}
				if id != in.Intent.ID {
					return fmt.Errorf("id %q, want %q", id, in.Intent.ID)
				}
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && strings.TrimSpace(string(tok)) != "" {
				return fmt.Errorf("text outside the root: %q", tok)
			}
		default:
			return fmt.Errorf("unexpected token %T", tok)
		}
	}
	if roots != 1 {
		return fmt.Errorf("%d root elements", roots)
	}
	if got != minimal(in.Intent) {
		// The sizes the truncation stages reasoned with must be the real ones.
		warning := strings.TrimSpace(safetext.OneLine(in.Warning))
		if warning != "" {
			warning = cut(warning, in.Budget/3-1, raw)
		}
		if strings.HasPrefix(got, "<intent_context ") {
			warning = "" // dropped for want of room
		}
		p := newPlan(in, warning)
		if p.fit(in.Budget) && p.total() != len(got) {
			return fmt.Errorf("plan said %d bytes, rendered %d", p.total(), len(got))
		}
	}
	return nil
}

// build is Build, checked.
func build(t *testing.T, in Inputs) string {
	t.Helper()
	got := Build(in)
	if err := check(in, got); err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	if len(got) > in.Budget && in.Budget >= MinBudget {
		t.Fatalf("%d bytes over budget %d", len(got), in.Budget)
	}
	return got
}

func FuzzBuild(f *testing.F) {
	f.Add("Hook System", "src/**", "Must not break", "# Spec\ntext", "a.go", "", 9500)
	f.Add("<&\">", "\x00\xff", strings.Repeat("c", 3000), "\xed\xa0\x80", "p\"", "warn\n", 512)
	f.Add("", "", "", "", "", "w", 0)
	f.Fuzz(func(t *testing.T, name, pattern, constraint, spec, path, warning string, budget int) {
		budget %= 30000
		if budget < 0 {
			budget = -budget
		}
		in := Inputs{
			Intent: &intents.Intent{
				ID: "INT-042", Name: name, Status: intents.InProgress, Version: 3,
				OwnedScope:         []string{pattern, pattern + pattern},
				Constraints:        []string{constraint, name},
				AcceptanceCriteria: []intents.Criterion{{Description: constraint + pattern}},
			},
			RelatedFiles: []string{path, pattern},
			Specs:        []SpecExcerpt{{Ref: path, Text: spec}, {Ref: name, Text: spec + constraint}},
			Trace:        []TraceEntry{{Time: name, Tool: "Edit", Path: path, Class: warning}},
			Budget:       budget,
			Warning:      "w" + warning, // never starting with "<", so the check can find the XML
		}
		got := Build(in)
		if err := check(in, got); err != nil {
			t.Fatalf("%v\n%q", err, got)
		}
		if budget >= MinBudget && len(got) > budget {
			t.Fatalf("%d bytes over budget %d", len(got), budget)
		}
	})
}

// BenchmarkBuild is a SessionStart on a large intent: thousands of
// patterns, long constraints and spec files, all to be cut to the default
// budget.
func BenchmarkBuild(b *testing.B) {
	in := hookIntent()
	in.OwnedScope = items("src/generated/module/**/pattern", 5000)
	in.Constraints = []string{strings.Repeat("constraint & <text> ", 5000), "short"}
	in.Name = strings.Repeat("name ", 1000)
	inputs := Inputs{Intent: in, RelatedFiles: files(2000), Trace: trace(20), Budget: 9500, Warning: "intenthook: warning: shared"}
	for range 5 {
		inputs.Specs = append(inputs.Specs, SpecExcerpt{Ref: "spec.md", Text: strings.Repeat("# Spec\nSome text.\n", 5000)})
	}
	b.ReportAllocs()
	for b.Loop() {
		if out := Build(inputs); len(out) > inputs.Budget {
			b.Fatal("over budget")
		}
	}
}
