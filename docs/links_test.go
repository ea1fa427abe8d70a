// Package docs holds intenthook's documentation pages. Its tests check
// that every relative link and anchor in README.md and the pages resolves,
// and run the pages' console examples against the built binaries.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestLinksResolve follows every relative link of README.md and docs/*.md:
// the file must exist, and a #fragment must name a heading of its page.
func TestLinksResolve(t *testing.T) {
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join("..", "README.md"))
	if len(pages) < 2 {
		t.Fatalf("found only %v", pages)
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		a := headingAnchors(string(data))
		anchors[path] = a
		return a
	}
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range links(string(data)) {
			checked++
			file, frag, _ := strings.Cut(l.target, "#")
			target := page
			if file != "" {
				target = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s:%d: link %q: %v", page, l.line, l.target, err)
					continue
				}
			}
			if frag == "" {
				continue
			}
			if !strings.HasSuffix(target, ".md") {
				t.Errorf("%s:%d: link %q: a fragment on a file that is not Markdown", page, l.line, l.target)
				continue
			}
			if !anchorsOf(target)[frag] {
				t.Errorf("%s:%d: link %q: no heading with anchor #%s in %s", page, l.line, l.target, frag, target)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found: the scan is broken")
	}
}

type link struct {
	target string
	line   int
}

var inlineLink = regexp.MustCompile(`\]\(([^()\s]+)\)`)

// links returns the relative link targets outside code blocks and code spans.
func links(text string) []link {
	var out []link
	for i, line := range proseLines(text) {
		if line == "" {
			continue
		}
		for _, m := range inlineLink.FindAllStringSubmatch(stripCodeSpans(line), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			out = append(out, link{target: target, line: i + 1})
		}
	}
	return out
}

// proseLines returns the lines of text with those inside fenced code blocks
// blanked, so that line numbers stay those of the file.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	fenced := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			lines[i] = ""
			continue
		}
		if fenced {
			lines[i] = ""
		}
	}
	return lines
}

var codeSpan = regexp.MustCompile("`[^`]*`")

func stripCodeSpans(line string) string { return codeSpan.ReplaceAllString(line, "") }

// headingAnchors returns the anchors GitHub gives a page's headings:
// lowercased, punctuation but '-' and '_' dropped, spaces to '-', and a
// repeated anchor suffixed -1, -2, ….
func headingAnchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range proseLines(text) {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		title := strings.TrimLeft(l, "#")
		if title == "" || title[0] != ' ' {
			continue
		}
		a := slug(strings.TrimSpace(title))
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"The git backstop: `intenthook precommit`", "the-git-backstop-intenthook-precommit"},
		{"End-to-end tests with the real agent CLIs (`make e2e`)", "end-to-end-tests-with-the-real-agent-clis-make-e2e"},
		{"Cursor, Windsurf, Cline", "cursor-windsurf-cline"},
		{"`.intentignore`", "intentignore"},
	} {
		if got := slug(c.in); got != c.want {
			t.Errorf("slug(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
