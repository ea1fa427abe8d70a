package docs

import (
	"os"
	"strings"
	"testing"
)

// TestBinariesCounted holds the pages that count the installed binaries to
// cmd/: every way installs one binary per directory there, and a newcomer
// reads the count in install.md's heading and the README's table.
func TestBinariesCounted(t *testing.T) {
	entries, err := os.ReadDir("../cmd")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
	if len(names) >= len(words) {
		t.Fatalf("%d binaries: extend the words", len(names))
	}
	word := words[len(names)]
	install, _ := os.ReadFile("install.md")
	readme, _ := os.ReadFile("../README.md")
	title := strings.ToUpper(word[:1]) + word[1:]
	if !strings.Contains(string(install), "\n### "+title+" binaries\n") {
		t.Errorf("install.md has no heading %q for the %d binaries of cmd/", "### "+title+" binaries", len(names))
	}
	if !strings.Contains(string(readme), "the "+word+" binaries") {
		t.Errorf("README.md's docs table does not say %q", "the "+word+" binaries")
	}
	section := string(install)
	if i := strings.Index(section, "### "+title+" binaries"); i >= 0 {
		section = section[i:]
		if j := strings.Index(section[4:], "\n#"); j >= 0 {
			section = section[:j+4]
		}
	}
	for _, n := range names {
		if !strings.Contains(section, "`"+n+"`") {
			t.Errorf("install.md's binaries section does not name `%s`", n)
		}
	}
	for _, page := range []string{"install.md", "performance.md", "../README.md"} {
		data, _ := os.ReadFile(page)
		for _, stale := range []string{"Three binaries", "three-binaries", "| the three binaries"} {
			if len(names) != 3 && strings.Contains(string(data), stale) {
				t.Errorf("%s still says %q", page, stale)
			}
		}
	}
}
