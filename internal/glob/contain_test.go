package glob

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestWithin(t *testing.T) {
	tests := []struct {
		name    string
		child   string
		parents []string
		// covered, or the witness the search reports; undecided names why.
		covered   bool
		witness   string
		undecided string
	}{
		{name: "same pattern", child: "src/**", parents: []string{"src/**"}, covered: true},
		{name: "subdirectory", child: "src/api/**", parents: []string{"src/**"}, covered: true},
		{name: "file in dir", child: "src/api/client.go", parents: []string{"src/**"}, covered: true},
		{name: "star within globstar", child: "src/*.go", parents: []string{"src/**"}, covered: true},
		{name: "extension within globstar ext", child: "src/api/**/*.go", parents: []string{"src/**/*.go"}, covered: true},
		{name: "sibling dir", child: "lib/**", parents: []string{"src/**"}, witness: "lib"},
		{name: "prefix is not a dir", child: "srcx/**", parents: []string{"src/**"}, witness: "srcx"},
		{name: "parent dir itself", child: "src", parents: []string{"src/**"}, covered: true},
		{name: "wider than parent", child: "src/**", parents: []string{"src/api/**"}, witness: "src"},
		{name: "globstar wider than star", child: "src/**/*.go", parents: []string{"src/*.go"}, witness: "src/x/.go"},
		{name: "union of parents", child: "src/{a,b}/**", parents: []string{"src/a/**", "src/b/**"}, covered: true},
		{name: "one of union missing", child: "src/{a,b,c}/**", parents: []string{"src/a/**", "src/b/**"}, witness: "src/c"},
		{name: "question mark within star", child: "docs/?.md", parents: []string{"docs/*.md"}, covered: true},
		{name: "star not within question mark", child: "docs/*.md", parents: []string{"docs/?.md"}, witness: "docs/.md"},
		{name: "empty star segment is no path", child: "src/*", parents: []string{"src/?*"}, covered: true},
		{name: "class within star", child: "src/[ab].go", parents: []string{"src/*.go"}, covered: true},
		{name: "range not within list", child: "src/[a-c].go", parents: []string{"src/[ab].go"}, witness: "src/c.go"},
		{name: "negated class can be a slash", child: "a[!b]c", parents: []string{"a*c"}, witness: "a/c"},
		{name: "everything within globstar", child: "**", parents: []string{"**"}, covered: true},
		{name: "anything not within ext", child: "**", parents: []string{"**/*.go"}, witness: "x"},
		{name: "globstar at segment start matches no segment", child: "src/x.go", parents: []string{"src/**/x.go"}, covered: true},
		{name: "super inside a segment crosses dirs", child: "src/a/b.go", parents: []string{"src/**.go"}, covered: true},
		{name: "literal file outside", child: "README.md", parents: []string{"docs/**", "src/**"}, witness: "README.md"},
		{name: "escaped star is literal", child: `src/\*`, parents: []string{"src/*"}, covered: true},
		{name: "dir rule of child", child: "src/api/**", parents: []string{"src/api/*"}, witness: "src/api"},
		{name: "dot segments are no paths", child: "src/*/x", parents: []string{"src/[!.]*/x", "src/.?*/x"}, covered: true},

		{name: "undecidable: ** before a group", child: "src/**{/a,/b}", parents: []string{"src/**"}, undecided: "next to a {…} group"},
		{name: "undecidable: ** after a group", child: "{a,b/}**/x", parents: []string{"**"}, undecided: "next to a {…} group"},
		{name: "undecidable: malformed class", child: "src/[a-]", parents: []string{"src/**"}, undecided: "shape"},
		{name: "undecidable: unclosed group", child: "src/{a,b", parents: []string{"src/**"}, undecided: "unclosed"},
		{name: "undecidable: parent not parsed", child: "src/a", parents: []string{`src/\`}, undecided: "trailing backslash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Within(tt.child, tt.parents)
			if tt.undecided != "" {
				if got.Decided || !strings.Contains(got.Reason, tt.undecided) {
					t.Fatalf("Within(%q, %q) = %+v, want undecided (%s)", tt.child, tt.parents, got, tt.undecided)
				}
				return
			}
			if !got.Decided || got.Covered != tt.covered || got.Witness != tt.witness {
				t.Fatalf("Within(%q, %q) = %+v, want covered=%v witness=%q", tt.child, tt.parents, got, tt.covered, tt.witness)
			}
			if !tt.covered {
				// The witness is the evidence: the child matches it, no parent does.
				if ok, _ := Match(tt.child, got.Witness); !ok {
					t.Errorf("child %q does not match its witness %q", tt.child, got.Witness)
				}
				for _, p := range tt.parents {
					if ok, _ := Match(p, got.Witness); ok {
						t.Errorf("parent %q matches the witness %q", p, got.Witness)
					}
				}
			}
		})
	}
}

// TestAutomatonAgreesWithGobwas pins the automaton to the matcher: for
// patterns of every construct and many paths, both must agree.
func TestAutomatonAgreesWithGobwas(t *testing.T) {
	patterns := []string{
		"src/**", "src/**/*.go", "**/*.go", "**", "*", "src/*", "src/?.go", "a/**/b", "a/**/**/b",
		"a/***/b", "a***b", "**/x", "a/**b", "src/[ab].go", "src/[!ab]*", "src/[a-c]/**", "{a,b}/**",
		"src/{a,b/c}/*.md", "{a/,}x", "x/{,y/}z", `src/\*`, "docs/hooks.md", "a/*/**", "[!a]",
		"*.md", "a/**/*/b", "{a,b}{c,d}", "a/**/", "?", "??/*", "src/**/test_*.go",
	}
	words := []string{"a", "b", "c", "x", "src", "go", ".", "..", "*", "ab", "z"}
	r := rand.New(rand.NewPCG(1, 2))
	var paths []string
	for range 3000 {
		var b strings.Builder
		for j := range 1 + r.IntN(4) {
			if j > 0 {
				b.WriteString([]string{"/", "/", "/", ".", ""}[r.IntN(5)])
			}
			b.WriteString(words[r.IntN(len(words))])
			if r.IntN(3) == 0 {
				b.WriteString([]string{".go", ".md", "b", ""}[r.IntN(4)])
			}
		}
		paths = append(paths, b.String())
	}
	paths = append(paths, "", "/", "a/", "src", "src/", "a/b", "ab", "a/x/b", "x", "test_a.go")
	for _, pat := range patterns {
		l, err := parseLang(pat)
		if err != nil {
			t.Fatalf("%q: %v", pat, err)
		}
		g, err := Compile(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if got, want := run(l, p), g.Match(p); got != want {
				t.Errorf("pattern %q path %q: automaton %v, gobwas %v", pat, p, got, want)
			}
		}
	}
}

// run simulates l's automaton on s.
func run(l *lang, s string) bool {
	a := newAlphabet([]*lang{l})
	var m nfa
	m.add(l)
	cur := m.closure(m.starts)
	for _, r := range s {
		i, ok := slices.BinarySearch(a.lo, r)
		if !ok {
			i--
		}
		var next []int
		for _, st := range cur {
			for _, e := range m.edges[st] {
				if a.matches(e, i) {
					next = append(next, e.to)
				}
			}
		}
		cur = m.closure(next)
	}
	return slices.ContainsFunc(cur, func(st int) bool { return m.accept[st] })
}

// TestWithinAgreesWithSamples checks every decided answer over pairs of
// patterns against sampled paths: covered means no sampled path matches the
// child without the parent, and a witness is a real counterexample.
func TestWithinAgreesWithSamples(t *testing.T) {
	patterns := []string{
		"src/**", "src/**/*.go", "**/*.go", "**", "*", "src/*", "src/?.go", "a/**/b", "src/[ab].go",
		"src/[!ab]*", "{a,b}/**", "src/{a,b/c}/*.md", "x/{,y/}z", "a/*/**", "*.md", "src/*/**", "src/a/**",
	}
	var paths []string
	for _, a := range []string{"src", "a", "b", "x", "docs"} {
		for _, b := range []string{"", "/a", "/b", "/c", "/a.go", "/b.go", "/x.md", "/c/y.md", "/b/c/z.md", "/y/z", "/a/b"} {
			paths = append(paths, a+b)
		}
	}
	for _, c := range patterns {
		for _, p := range patterns {
			got := Within(c, []string{p})
			if !got.Decided {
				t.Errorf("Within(%q, %q) undecided: %s", c, p, got.Reason)
				continue
			}
			if got.Covered {
				for _, path := range paths {
					if mc, _ := Match(c, path); mc {
						if mp, _ := Match(p, path); !mp {
							t.Errorf("Within(%q, %q) says covered, but %q matches only the child", c, p, path)
						}
					}
				}
				continue
			}
			mc, _ := Match(c, got.Witness)
			mp, _ := Match(p, got.Witness)
			if !mc || mp {
				t.Errorf("Within(%q, %q): witness %q is no counterexample (child %v, parent %v)", c, p, got.Witness, mc, mp)
			}
		}
	}
}
