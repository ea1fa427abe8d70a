package docs

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/shipped"
)

var update = flag.Bool("update", false, "rewrite the output shown under each console example that differs from what the binary printed")

// TestExamples runs the documentation's console examples against the
// binaries as make build builds them, and compares what each command
// printed with what the page shows under it. Every ```console block of
// README.md and docs/*.md is an example: README.md's first, then the pages
// in name order, each page's blocks top to bottom, all in one scratch
// workspace, so that a block sees what the blocks before it did (see
// docs/development.md#the-documentations-examples).
func TestExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries and runs the documentation's examples")
	}
	pages, err := examplePages()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := shipped.Build(bin, shipped.Hook, shipped.Full); err != nil {
		t.Fatal(err)
	}
	ws := newScratch(t, bin)
	ran := 0
	var edits []edit
	for _, p := range pages {
		for _, b := range p.blocks {
			if b.problem != "" {
				t.Errorf("%s:%d: %s", p.name, b.line, b.problem)
				continue
			}
			switch {
			case b.file != "":
				ws.write(t, b.file, strings.Join(b.lines, "\n")+"\n")
			case b.lang == "console" && b.skip == "":
				ran++
				for _, c := range b.commands() {
					got := ws.run(t, c.cmd)
					if matches(normalise(c.want), normalise(got)) {
						continue
					}
					t.Errorf("%s:%d: $ %s\nthe page shows (lines %d-%d):\n%s\nthe binary printed:\n%s",
						p.name, c.line, c.cmd, c.line+1, c.line+len(c.want), indent(c.want), indent(got))
					edits = append(edits, edit{p.path, c.line, len(c.want), b.indent, got})
				}
			}
		}
	}
	if ran == 0 {
		t.Fatal("no console example found: the scan is broken")
	}
	if *update {
		if err := apply(edits); err != nil {
			t.Fatal(err)
		}
	}
}

// page is one Markdown file's fenced blocks.
type page struct {
	name   string // as a reader names it: README.md, docs/ci.md
	path   string // from this package's directory
	blocks []block
}

// block is one fenced block, its marker (the HTML comment on the line
// before its fence, if any) read.
type block struct {
	line    int    // the opening fence's line, 1-based
	lang    string // the fence's info string: console, sh, yaml, …
	indent  string // the fence's indentation, taken off each line
	lines   []string
	skip    string // <!-- docs-test: skip REASON -->
	file    string // <!-- docs-test: file PATH -->
	problem string // a marker the test cannot follow
}

// command is one "$ " line of a console block and the output shown under
// it, up to the next "$ " line or the block's end.
type command struct {
	line int // the "$ " line's line number
	cmd  string
	want []string
}

func (b block) commands() []command {
	var out []command
	for i, l := range b.lines {
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			out = append(out, command{line: b.line + 1 + i, cmd: cmd})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].want = append(out[len(out)-1].want, l)
		}
	}
	return out
}

// examplePages reads README.md and docs/*.md, in the order their examples
// run.
func examplePages() ([]page, error) {
	names, err := filepath.Glob("*.md")
	if err != nil {
		return nil, err
	}
	paths := append([]string{filepath.Join("..", "README.md")}, names...)
	var pages []page
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		name := "docs/" + filepath.Base(path)
		if path == filepath.Join("..", "README.md") {
			name = "README.md"
		}
		pages = append(pages, page{name: name, path: path, blocks: fencedBlocks(string(data))})
	}
	return pages, nil
}

var (
	fence  = regexp.MustCompile("^([ \t]*)(```+)[ \t]*([^`\\s]*)[ \t]*$")
	marker = regexp.MustCompile(`^<!--\s*docs-test:\s*(\S+)\s*(.*?)\s*-->\s*$`)
)

// fencedBlocks returns a page's fenced code blocks with their markers.
func fencedBlocks(text string) []block {
	lines := strings.Split(text, "\n")
	var out []block
	for i := 0; i < len(lines); i++ {
		m := fence.FindStringSubmatch(lines[i])
		if m == nil {
			if marker.MatchString(lines[i]) && !nextIsFence(lines, i) {
				out = append(out, block{line: i + 1, problem: "a docs-test marker must stand on the line before a block's opening fence"})
			}
			continue
		}
		b := block{line: i + 1, indent: m[1], lang: m[3]}
		if i > 0 {
			if mm := marker.FindStringSubmatch(lines[i-1]); mm != nil {
				switch verb, arg := mm[1], mm[2]; {
				case arg == "":
					b.problem = fmt.Sprintf("docs-test %s needs an argument", verb)
				case verb == "skip" && b.lang == "console":
					b.skip = arg
				case verb == "skip":
					b.problem = "docs-test skip on a block that is not ```console (only console blocks are run)"
				case verb == "file":
					b.file = arg
				default:
					b.problem = fmt.Sprintf("unknown docs-test marker %q (skip REASON, file PATH)", verb)
				}
			}
		}
		for i++; i < len(lines); i++ {
			if c := fence.FindStringSubmatch(lines[i]); c != nil && c[3] == "" && len(c[2]) >= len(m[2]) {
				break
			}
			b.lines = append(b.lines, strings.TrimPrefix(lines[i], b.indent))
		}
		if b.lang == "console" && b.skip == "" && b.problem == "" && len(b.commands()) == 0 {
			b.problem = "a console block shows a command's output under a \"$ \" line; this one has none (use a plain block for output alone)"
		}
		out = append(out, b)
	}
	return out
}

func nextIsFence(lines []string, i int) bool {
	return i+1 < len(lines) && fence.MatchString(lines[i+1])
}

// scratch is the one workspace every example runs in: a git repository
// with history (docs/testdata/workspace/ committed), then `intenthook init
// --git-hook` and the catalog docs/testdata/active_intents.yaml, not
// committed: README.md's quick start commits it.
type scratch struct {
	root, home, bin string
	env             []string
	// shown replaces the machine's directories in what a command printed
	// with the ones the pages show.
	shown *strings.Replacer
}

func newScratch(t *testing.T, bin string) *scratch {
	s := &scratch{root: t.TempDir(), home: t.TempDir(), bin: bin}
	// Nothing of the test's own environment (an agent's shell markers,
	// INTENTHOOK_* settings, the user's git configuration) reaches them.
	s.env = []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + s.home,
		"TZ=UTC",
		"GIT_CONFIG_NOSYSTEM=1",
	}
	var pairs []string
	for _, d := range []struct{ dir, shown string }{{s.root, "/home/me/project"}, {bin, "/home/me/go/bin"}, {s.home, "/home/me"}} {
		pairs = append(pairs, d.dir, d.shown)
		if real, err := filepath.EvalSymlinks(d.dir); err == nil && real != d.dir {
			pairs = append(pairs, real, d.shown)
		}
	}
	s.shown = strings.NewReplacer(pairs...)
	if err := os.CopyFS(s.root, os.DirFS(filepath.Join("testdata", "workspace"))); err != nil {
		t.Fatal(err)
	}
	catalog, err := os.ReadFile(filepath.Join("testdata", "active_intents.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{
		"git init -q -b main",
		"git config user.name Dev && git config user.email dev@example.com && git config commit.gpgsign false",
		"git add -A && git commit -qm 'the code before intenthook'",
		"intenthook init --git-hook >/dev/null",
	} {
		if out, err := s.exec(c); err != nil {
			t.Fatalf("setting the workspace up: %s: %v\n%s", c, err, out)
		}
	}
	s.write(t, ".orchestration/active_intents.yaml", string(catalog))
	return s
}

func (s *scratch) write(t *testing.T, rel, text string) {
	t.Helper()
	path := filepath.Join(s.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs one command line of a page through the shell in the workspace
// and returns what it printed, as a terminal shows it: standard output
// and error interleaved as written, the machine's directories as the
// pages show them. Its exit status is not compared: pages do not show it.
func (s *scratch) run(t *testing.T, line string) []string {
	t.Helper()
	out, err := s.exec(line)
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		t.Fatalf("$ %s: %v", line, err)
	}
	text := strings.TrimRight(s.shown.Replace(out), "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

func (s *scratch) exec(line string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// One pipe for both streams: their order is the one they were written in.
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = s.root, s.env, w, w
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return "", err
	}
	w.Close()
	var out bytes.Buffer
	_, copyErr := io.Copy(&out, r)
	r.Close()
	if err := cmd.Wait(); err != nil {
		return out.String(), err
	}
	return out.String(), copyErr
}

// The normalisations: what differs from run to run, or from machine to
// machine, is replaced on both sides before they are compared. Order
// matters: a uuid holds hex runs, a time holds a date.
var normalisations = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`sha256:(?:[0-9a-f]+…?|…)`), "sha256:<hash>"},
	{regexp.MustCompile(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`), "<uuid>"},
	{regexp.MustCompile(`\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)`), "<time>"},
	{regexp.MustCompile(`\b\d{8}T\d{6}(?:\.\d+)?Z`), "<time>"},
	{regexp.MustCompile(`\b\d{4}-\d\d-\d\d\b`), "<date>"},
	{regexp.MustCompile(`/\d{4}-\d\d/`), "/<month>/"},
	{regexp.MustCompile(`\b(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?(?:ns|µs|us|ms|s)\b`), "<duration>"},
	{regexp.MustCompile(`\bgo1\.\d+(?:\.\d+)?\b`), "go<version>"},
	{regexp.MustCompile(`\bv?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?\b`), "<version>"},
	{regexp.MustCompile(`\b(?:linux|darwin|windows|freebsd)/(?:amd64|arm64|386|arm)\b`), "<platform>"},
}

// hexID is a commit id, a short one, a writer id or a hash: a run of 7 to
// 64 hex digits holding a letter, or at least 12 long (intenthook shows
// commits 12 digits long; all of them may be digits).
var hexID = regexp.MustCompile(`\b[0-9a-f]{7,64}\b`)

func normalise(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		for _, n := range normalisations {
			l = n.re.ReplaceAllString(l, n.with)
		}
		l = hexID.ReplaceAllStringFunc(l, func(h string) string {
			if len(h) >= 12 || strings.ContainsAny(h, "abcdef") {
				return "<id>"
			}
			return h
		})
		out = append(out, strings.TrimRight(l, " \t"))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// matches compares the lines a page shows with those printed; a shown
// line that is "…" alone stands for any number of printed lines.
func matches(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "…" {
		for k := 0; k <= len(got); k++ {
			if matches(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && want[0] == got[0] && matches(want[1:], got[1:])
}

func indent(lines []string) string {
	if len(lines) == 0 {
		return "    (nothing)"
	}
	return "    " + strings.Join(lines, "\n    ")
}

// edit replaces the n lines shown under the "$ " line at line with got.
type edit struct {
	path   string
	line   int
	n      int
	indent string
	got    []string
}

// apply writes -update's edits, each file's from its end so that the line
// numbers of the others hold.
func apply(edits []edit) error {
	byPath := map[string][]edit{}
	for _, e := range edits {
		byPath[e.path] = append(byPath[e.path], e)
	}
	for path, es := range byPath {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lines := strings.Split(string(data), "\n")
		slices.SortFunc(es, func(a, b edit) int { return b.line - a.line })
		for _, e := range es {
			var with []string
			for _, g := range e.got {
				with = append(with, e.indent+g)
			}
			lines = slices.Replace(lines, e.line, e.line+e.n, with...)
		}
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func TestNormalise(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1    2026-11-27T14:53:59.489Z  PreToolUse", "1    <time>  PreToolUse"},
		{"heads sha256:…, 0 fork(s): ok", "heads sha256:<hash>, 0 fork(s): ok"},
		{"heads sha256:28040824f501b384175d010d11c1d790d69680ffef9cc2887140217aa59496ca, x", "heads sha256:<hash>, x"},
		{"55c508a8648b catalog: INT-001 added", "<id> catalog: INT-001 added"},
		{"553508108648 rules", "<id> rules"},
		{"seq 41 at 1234567", "seq 41 at 1234567"},
		{"id ed62565e-ea93-4fe9-bc03-fd5967218373.", "id <uuid>."},
		{"✓ version: intenthook 0.1.0-dev (go1.26.8 linux/amd64)", "✓ version: intenthook <version> (go<version> <platform>)"},
		{"✓ a check: passed (test -f x, 2ms)  ", "✓ a check: passed (test -f x, <duration>)"},
		{"s1  1m37s ago", "s1  <duration> ago"},
		{".orchestration/ledger/0a1b2c3d4e5f6789/2026-11/000001.jsonl", ".orchestration/ledger/<id>/<month>/000001.jsonl"},
		{"undone/20261122T150405.000000000Z-.orchestration_x", "undone/<time>-.orchestration_x"},
	} {
		if got := normalise([]string{c.in}); len(got) != 1 || got[0] != c.want {
			t.Errorf("normalise(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMatches(t *testing.T) {
	got := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		want []string
		ok   bool
	}{
		{[]string{"a", "b", "c", "d"}, true},
		{[]string{"a", "…", "d"}, true},
		{[]string{"…", "d"}, true},
		{[]string{"a", "…"}, true},
		{[]string{"a", "b", "…", "b", "c", "d"}, false},
		{[]string{"a", "…", "c"}, false},
		{[]string{"a", "c", "…"}, false},
		{nil, false},
	} {
		if matches(c.want, got) != c.ok {
			t.Errorf("matches(%q, %q) = %v", c.want, got, !c.ok)
		}
	}
}

func TestFencedBlocks(t *testing.T) {
	page := strings.Join([]string{
		"text",
		"<!-- docs-test: file draft.yaml -->",
		"```yaml",
		"a: 1",
		"```",
		"<!-- docs-test: skip needs a repository before the rules -->",
		"```console",
		"$ git commit",
		"```",
		"- item",
		"  ```console",
		"  $ intenthook version",
		"  intenthook 1",
		"  $ true",
		"  ```",
		"```console",
		"output without a command",
		"```",
		"<!-- docs-test: skip -->",
		"```console",
		"$ x",
		"```",
		"<!-- docs-test: skip no marker here -->",
		"",
	}, "\n")
	bs := fencedBlocks(page)
	if len(bs) != 6 {
		t.Fatalf("%d blocks: %+v", len(bs), bs)
	}
	if bs[0].file != "draft.yaml" || !slices.Equal(bs[0].lines, []string{"a: 1"}) {
		t.Errorf("file block: %+v", bs[0])
	}
	if bs[1].skip != "needs a repository before the rules" {
		t.Errorf("skipped block: %+v", bs[1])
	}
	cs := bs[2].commands()
	if bs[2].indent != "  " || len(cs) != 2 || cs[0].line != 12 || cs[0].cmd != "intenthook version" || !slices.Equal(cs[0].want, []string{"intenthook 1"}) || cs[1].want != nil {
		t.Errorf("console block in a list: %+v, %+v", bs[2], cs)
	}
	for i, want := range []string{"has none", "needs an argument", "must stand on the line before"} {
		if !strings.Contains(bs[3+i].problem, want) {
			t.Errorf("block %d: problem %q, want %q", 3+i, bs[3+i].problem, want)
		}
	}
}
