package glob

import "testing"

// TestDialect pins what the project's globs mean: `**` spans any number
// of segments (none included), `*` and `?` stay within one segment, and
// `p/**` covers p itself.
func TestDialect(t *testing.T) {
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
		// "p/**" covers p, whatever p matches.
		{"src/*/**", "src/a", true},
		{"src/*/**", "src/a/b", true},
		{"src/*/**", "src", false},
		{"src/{a,b}/**", "src/b", true},
		{"src/{a,b}/**", "src/{a,b}", false},
		{`src/\*/**`, "src/*", true},
		{`src/\*/**`, "src/a", false},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.path, func(t *testing.T) {
			got, err := Match(tt.pattern, tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
			}
		})
	}
}
