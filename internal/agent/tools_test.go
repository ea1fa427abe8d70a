package agent

import (
	"testing"
)

// TestToolTablesNameEachToolOnce: a tool table is a list (a map would be
// built on every hook's start), so a name given twice is not a compile
// error; the first entry would win, silently.
func TestToolTablesNameEachToolOnce(t *testing.T) {
	for _, a := range All() {
		if a.Tools == nil && a.Name != "windsurf" {
			t.Errorf("%s: no tool table", a.Name)
		}
		seen := map[string]bool{}
		for _, tool := range a.Tools {
			if tool.Name == "" || seen[tool.Name] {
				t.Errorf("%s: tool %q named twice (or empty)", a.Name, tool.Name)
			}
			seen[tool.Name] = true
		}
	}
}
