package intents

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/state"
)

func TestLoadCached(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, File)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	broken := good + `  - id: "INT-002"
    name: "Broken"
    status: "IN_PROGRESS"
    owned_scope: []
    constraints: []
    acceptance_criteria: []
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
`
	if err := os.WriteFile(path, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	parsed, err := Parse([]byte(broken))
	if err != nil {
		t.Fatal(err)
	}
	want := mustJSON(t, parsed.All(), parsed.Problems)

	miss, err := LoadCached(root, path)
	if err != nil {
		t.Fatal(err)
	}
	if got := mustJSON(t, miss.All(), miss.Problems); got != want {
		t.Fatalf("first load differs from a parse:\n%s\n%s", got, want)
	}
	cache := state.Path(root, cacheName)
	if _, err := os.Stat(cache); err != nil {
		t.Fatalf("no cache written: %v", err)
	}

	hit, err := LoadCached(root, path)
	if err != nil {
		t.Fatal(err)
	}
	if hit.file == nil {
		t.Fatal("second load did not come from the cache")
	}
	in := hit.Find("INT-001")
	if in == nil || !in.Valid() || hit.Find("INT-002").Valid() || hit.Find("INT-404") != nil {
		t.Fatal("Find through the cache")
	}
	if p, ok := in.Match("src/hooks/x.go"); !ok || p != "src/hooks/**" {
		t.Errorf("Match through the cache: %q %v", p, ok)
	}
	if got := mustJSON(t, hit.All(), hit.Problems); got != want {
		t.Fatalf("cached load differs from a parse:\n%s\n%s", got, want)
	}

	// A changed catalog is a miss, whatever its modification time.
	changed := strings.Replace(broken, "Hook System", "Hook Engine", 1)
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh, err := LoadCached(root, path)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Find("INT-001").Name != "Hook Engine" {
		t.Fatal("stale catalog served from the cache")
	}

	// A damaged cache costs a parse, never a wrong answer.
	if err := os.WriteFile(cache, []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := LoadCached(root, path)
	if err != nil || again.Find("INT-001").Name != "Hook Engine" {
		t.Fatalf("after a damaged cache: %v", err)
	}
}

// TestCachedFind: Find through the cache reads the index where it lies
// and answers as a parse does: with duplicate ids the first wins, an id
// that needs quoting is found, an intent found keeps its identity in All,
// and one not found is nil.
func TestCachedFind(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, File)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	item := func(id, name string) string {
		return "  - id: " + id + "\n    name: \"" + name + "\"\n    status: \"IN_PROGRESS\"\n    owned_scope: [\"src/**\"]\n    constraints: []\n    acceptance_criteria: [\"works\"]\n    created_at: \"2026-02-18T10:00:00Z\"\n    updated_at: \"2026-02-20T14:00:00Z\"\n"
	}
	catalog := good + item(`"INT-002"`, "first") + item(`"INT-002"`, "second") + item(`'INT "3" é'`, "quoted")
	if err := os.WriteFile(path, []byte(catalog), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCached(root, path); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ id, name string }{
		{"INT-002", "first"},
		{`INT "3" é`, "quoted"},
		{"INT-001", "Hook System"},
		{"INT-404", ""},
	} {
		hit, err := LoadCached(root, path)
		if err != nil || hit.file == nil {
			t.Fatalf("not from the cache: %v", err)
		}
		in := hit.Find(tt.id)
		if tt.name == "" {
			if in != nil {
				t.Errorf("Find(%q) = %q, want none", tt.id, in.Name)
			}
			continue
		}
		if in == nil || in.Name != tt.name {
			t.Fatalf("Find(%q) = %v, want %q", tt.id, in, tt.name)
		}
		if again := hit.Find(tt.id); again != in {
			t.Errorf("Find(%q) twice: two intents", tt.id)
		}
		if !slices.Contains(hit.All(), in) {
			t.Errorf("All after Find(%q) does not hold the intent Find returned", tt.id)
		}
		if after := hit.Find(tt.id); after != in {
			t.Errorf("Find(%q) after All: another intent", tt.id)
		}
	}
}

func mustJSON(t *testing.T, v ...any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLoadCachedLargeIndex: a catalog whose index outgrows the first read
// still loads from the cache.
func TestLoadCachedLargeIndex(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, File)
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(generated(3000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCached(root, path); err != nil {
		t.Fatal(err)
	}
	c, err := LoadCached(root, path)
	if err != nil || c.file == nil {
		t.Fatalf("not from the cache: %v", err)
	}
	if in := c.Find("INT-2999"); in == nil || in.Name != "Generated intent" || len(c.All()) != 3000 {
		t.Fatal("large cached catalog")
	}
}

// BenchmarkParse is the cost the cache saves: 200 generated intents.
func BenchmarkParse(b *testing.B) {
	data := []byte(generated(200))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadCached is a hook's catalog load on a cache hit.
func BenchmarkLoadCached(b *testing.B) {
	root := b.TempDir()
	path := filepath.Join(root, File)
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(generated(200)), 0o644); err != nil {
		b.Fatal(err)
	}
	if _, err := LoadCached(root, path); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := LoadCached(root, path)
		if err != nil || c.Find("INT-150") == nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatch is one scope check on an intent with compiled patterns.
func BenchmarkMatch(b *testing.B) {
	c, _ := Parse([]byte(generated(1)))
	in := c.All()[0]
	for i := 0; i < b.N; i++ {
		in.Match("src/mod1/deep/file.go")
	}
}

func generated(n int) string {
	var s strings.Builder
	s.WriteString("active_intents:\n")
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("INT-%03d", i)
		s.WriteString("  - id: \"" + id + "\"\n    name: \"Generated intent\"\n    status: \"IN_PROGRESS\"\n")
		s.WriteString("    owned_scope: [\"src/mod" + fmt.Sprint(i) + "/**\", \"docs/*.md\"]\n    constraints: [\"one\", \"two\"]\n")
		s.WriteString("    acceptance_criteria: [\"works\", {description: \"tests\", check: \"go test ./...\"}]\n")
		s.WriteString("    created_at: \"2026-11-01T09:00:00Z\"\n    updated_at: \"2026-11-02T09:00:00Z\"\n")
	}
	return s.String()
}

// TestForgedCacheIsRefused: a cache built from another catalog and keyed
// with the real catalog's digest (what a program with write access to
// state/ could plant) does not change the rules: the forged intent reads as
// invalid and the cache is removed, so the next load parses the catalog.
func TestForgedCacheIsRefused(t *testing.T) {
	root := t.TempDir()
	real := "active_intents:\n  - {id: INT-001, name: Hooks, status: IN_PROGRESS, owned_scope: [\"src/**\"], constraints: [], acceptance_criteria: [], created_at: \"2026-01-01T00:00:00Z\", updated_at: \"2026-01-01T00:00:00Z\"}\n"
	forged := strings.Replace(real, `["src/**"]`, `["**"]`, 1)
	path := filepath.Join(root, ".orchestration", "active_intents.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(forged), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCached(root, path); err != nil { // the cache of the forged catalog
		t.Fatal(err)
	}
	cache := state.Path(root, cacheName)
	data, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	fsum, rsum := sha256.Sum256([]byte(forged)), sha256.Sum256([]byte(real))
	data = bytes.Replace(data, []byte(hex.EncodeToString(fsum[:])), []byte(hex.EncodeToString(rsum[:])), 1)
	if err := os.WriteFile(cache, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(real), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadCached(root, path)
	if err != nil {
		t.Fatal(err)
	}
	in := c.Find("INT-001")
	if in == nil || in.Valid() {
		t.Fatalf("the forged intent was served: %+v", in)
	}
	if _, ok := in.Match("docs/x.md"); ok {
		t.Error("the forged scope matches")
	}
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		t.Errorf("the forged cache is still there: %v", err)
	}
	again, err := LoadCached(root, path)
	if err != nil {
		t.Fatal(err)
	}
	if in := again.Find("INT-001"); in == nil || !in.Valid() || in.OwnedScope[0] != "src/**" {
		t.Errorf("after the forgery was removed: %+v", in)
	}
}

func TestItemSpan(t *testing.T) {
	src := "intents:\n" + // 1
		"  - id: A\n" + // 2
		"    status: X\n" + // 3
		"    owned_scope:\n" + // 4
		"      - a/**\n" + // 5
		"# a comment at the margin\n" + // 6
		"    note: still A\n" + // 7
		"  - id: B\n" + // 8
		"    a: 1\n" + // 9
		"    b: 2\n" + // 10
		"    c: 3\n" + // 11
		"    d: 4\n" // 12
	itemA := "  - id: A\n    status: X\n    owned_scope:\n      - a/**\n# a comment at the margin\n    note: still A\n"
	itemB := "  - id: B\n    a: 1\n    b: 2\n    c: 3\n    d: 4\n"
	tests := []struct {
		name string
		line int
		want string // "" when there is no item
	}{
		{"the dash line", 2, itemA},
		{"one line below the dash", 3, itemA},
		{"two lines below the dash", 4, itemA},
		{"a nested list item is its own item; comments do not end it", 5, "      - a/**\n# a comment at the margin\n"},
		{"the last item runs to the end", 8, itemB},
		{"too far below the dash", 12, ""},
		{"not in an item", 1, ""},
		{"line zero", 0, ""},
		{"past the end", 13, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Catalog{source: []byte(src)}
			in := &Intent{Line: tt.line}
			setLineStarts(c.source, []*Intent{in})
			got, ok := c.itemSpan(in.lineStart)
			if ok != (tt.want != "") || string(got) != tt.want {
				t.Errorf("itemSpan(line %d at %d) = %q, %v; want %q", tt.line, in.lineStart, got, ok, tt.want)
			}
		})
	}
	// An offset that is not a line's beginning (a forged cache's) holds no
	// item, nor does one outside the text.
	c := &Catalog{source: []byte(src)}
	for _, at := range []int{len("intents:\n") + 1, -1, len(src)} {
		if got, ok := c.itemSpan(at); ok {
			t.Errorf("itemSpan(%d) = %q; want no item", at, got)
		}
	}
}

// TestLineStarts: the intents of a parse, in the file's order or not, get
// the offsets of their lines.
func TestLineStarts(t *testing.T) {
	data := []byte("a\nbb\n\nccc\nd")
	lines := []int{1, 2, 3, 4, 5, 2, 6}
	want := []int{0, 2, 5, 6, 10, 2, len(data)}
	list := make([]*Intent, len(lines))
	for i, l := range lines {
		list[i] = &Intent{Line: l}
	}
	setLineStarts(data, list)
	for i, in := range list {
		if in.lineStart != want[i] {
			t.Errorf("line %d starts at %d; want %d", in.Line, in.lineStart, want[i])
		}
	}
}

// TestSwappedIndexIsRefused: a cache whose index lists one intent's id at
// another's place (what a program with write access to state/ could make
// of a real cache, every intent in it agreeing with the catalog) does not
// hand out the other intent: the id reads as invalid, and the cache is
// removed.
func TestSwappedIndexIsRefused(t *testing.T) {
	root := t.TempDir()
	catalog := "active_intents:\n" +
		"  - {id: INT-001, name: Narrow, status: IN_PROGRESS, owned_scope: [\"src/**\"], constraints: [], acceptance_criteria: [], created_at: \"2026-01-01T00:00:00Z\", updated_at: \"2026-01-01T00:00:00Z\"}\n" +
		"  - {id: INT-002, name: Wide, status: IN_PROGRESS, owned_scope: [\"**\"], constraints: [], acceptance_criteria: [], created_at: \"2026-01-01T00:00:00Z\", updated_at: \"2026-01-01T00:00:00Z\"}\n"
	path := filepath.Join(root, ".orchestration", "active_intents.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(catalog), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCached(root, path); err != nil {
		t.Fatal(err)
	}
	cache := state.Path(root, cacheName)
	data, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(data, []byte(`"INT-001" `)) != 1 || bytes.Count(data, []byte(`"INT-002" `)) != 1 {
		t.Fatalf("the index's lines are not where the test looks:\n%q", data)
	}
	data = bytes.Replace(data, []byte(`"INT-001" `), []byte(`"INT-00X" `), 1)
	data = bytes.Replace(data, []byte(`"INT-002" `), []byte(`"INT-001" `), 1)
	data = bytes.Replace(data, []byte(`"INT-00X" `), []byte(`"INT-002" `), 1)
	if err := os.WriteFile(cache, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, all := range []bool{false, true} {
		if all {
			if err := os.WriteFile(cache, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		c, err := LoadCached(root, path)
		if err != nil || c.file == nil {
			t.Fatalf("not from the cache: %v", err)
		}
		if all {
			c.All()
		}
		in := c.Find("INT-001")
		if in == nil || in.ID != "INT-001" || in.Valid() {
			t.Fatalf("all=%v: Find(INT-001) served %+v", all, in)
		}
		if _, ok := in.Match("docs/x.md"); ok {
			t.Errorf("all=%v: INT-002's scope serves INT-001", all)
		}
		if _, err := os.Stat(cache); !os.IsNotExist(err) {
			t.Errorf("all=%v: the swapped cache is still there: %v", all, err)
		}
	}
}
