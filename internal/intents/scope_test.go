package intents

import (
	"strings"
	"testing"
)

// TestScopeSemantics pins what owned_scope globs mean: `**` spans any number
// of segments (none included), `*` and `?` stay within one segment, and
// `p/**` covers p itself.
func TestScopeSemantics(t *testing.T) {
	tests := []struct {
		pattern string
		path    string
		want    bool
	}{
		{"src/**", "src/a.go", true},
		{"src/**", "src/a/b/c.go", true},
		{"src/**", "src", true},
		{"src/**", "srcx/a.go", false},
		{"src/**", "lib/src/a.go", false},
		{"**", "a", true},
		{"**", "a/b/c", true},
		{"**/*.go", "a.go", true},
		{"**/*.go", "x/y/a.go", true},
		{"**/*.go", "x/y/a.ts", false},
		{"src/**/test_*.go", "src/test_a.go", true},
		{"src/**/test_*.go", "src/a/b/test_a.go", true},
		{"src/*.go", "src/a.go", true},
		{"src/*.go", "src/a/b.go", false},
		{"src/*", "src/a", true},
		{"src/*", "src/a/b", false},
		{"src/?.go", "src/a.go", true},
		{"src/?.go", "src/ab.go", false},
		{"src/?.go", "src//.go", false},
		{"docs/hooks.md", "docs/hooks.md", true},
		{"docs/hooks.md", "docs/hooks.mdx", false},
		{"docs/hooks.md", "x/docs/hooks.md", false},
		{"src/{a,b}/**", "src/b/c.go", true},
		{"src/{a,b}/**", "src/c/c.go", false},
		{"src/[ab].go", "src/a.go", true},
		{"src/[!ab].go", "src/a.go", false},
		{"*.md", "README.md", true},
		{"*.md", "docs/README.md", false},
		{"src/api/**", "src/api", true},
		{"src/api/**", "src/apiary/x", false},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.path, func(t *testing.T) {
			got, err := MatchGlob(tt.pattern, tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("MatchGlob(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
			}
		})
	}
}

func TestScopeRejects(t *testing.T) {
	for _, p := range []string{"", "  ", "/etc/**", "../x/**", "src/../../x", "src/{a", "src/[a"} {
		if _, err := MatchGlob(p, "x"); err == nil {
			t.Errorf("MatchGlob(%q) compiled, want an error", p)
		}
	}
}

// FuzzScopeMatch: compiling and matching never panics, a pattern without
// metacharacters matches exactly itself, and `p/**` covers p.
func FuzzScopeMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"src/**", "src/a.go"}, {"**/*.go", "a/b.go"}, {"a?c", "abc"}, {"{a,b}/**", "a"},
		{"[a-", "x"}, {"\\*", "*"}, {"src/**/x/**", "src/x"}, {"**/**/**", ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		ok, err := MatchGlob(pattern, path)
		if err != nil {
			return
		}
		if !strings.ContainsAny(pattern, `*?[]{}\`) && ok != (pattern == path) {
			t.Fatalf("literal %q vs %q: match=%v", pattern, path, ok)
		}
		if dir, found := strings.CutSuffix(pattern, "/**"); found {
			if m, err := MatchGlob(pattern, dir); err == nil && !m {
				t.Fatalf("%q does not cover %q", pattern, dir)
			}
		}
	})
}
