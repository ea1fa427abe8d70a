package intents

import (
	"strings"
	"testing"
)

func TestScopeRejects(t *testing.T) {
	for _, p := range []string{"", "  ", "/etc/**", "../x/**", "src/../../x", "src/{a", "src/[a"} {
		if _, err := MatchGlob(p, "x"); err == nil {
			t.Errorf("MatchGlob(%q) compiled, want an error", p)
		}
	}
}

// FuzzScopeMatch: compiling and matching never panics, a pattern without
// metacharacters matches exactly itself, and `p/**` covers what p matches.
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
			if d, err := MatchGlob(dir, path); err == nil && d && !ok {
				t.Fatalf("%q matches %q but %q does not", dir, path, pattern)
			}
			if !strings.ContainsAny(dir, `*?[]{}\`) {
				if m, err := MatchGlob(pattern, dir); err == nil && !m {
					t.Fatalf("%q does not cover %q", pattern, dir)
				}
			}
		}
	})
}
