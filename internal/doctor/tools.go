package doctor

import (
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
)

// checkUnclassifiedTools lists the MCP tools intenthook does not classify
// that named a workspace file in some session (kept in session state):
// their changes are attributed, never judged, until config.yaml's tools:
// map gives them a class.
func checkUnclassifiedTools(root string, getenv func(string) string) []Check {
	sessions, err := state.Sessions{Root: root}.List()
	if err != nil || len(sessions) == 0 {
		return nil
	}
	mapped := map[string]string{}
	if cfg, err := config.Load(root, getenv); err == nil && cfg != nil {
		mapped = cfg.Tools
	}
	var seen []string
	for _, s := range sessions {
		for _, t := range s.MCPTools {
			if _, ok := mapped[t]; !ok && !slices.Contains(seen, t) {
				seen = append(seen, t)
			}
		}
	}
	if len(seen) == 0 {
		return nil
	}
	slices.Sort(seen)
	shown := make([]string, len(seen))
	lines := make([]string, len(seen))
	for i, t := range seen {
		shown[i] = safetext.Quote(t)
		lines[i] = "  " + shown[i] + ": write"
	}
	return []Check{{
		Status: Warn, Name: "mcp tools",
		Detail: "unclassified MCP tools seen: " + strings.Join(shown, ", ") + " (their changes to workspace files are recorded as ATTRIBUTED, never checked against a scope)",
		Hint:   "give each the class it has (write, delete, read, exempt) in .orchestration/config.yaml:\n    tools:\n  " + strings.Join(lines, "\n  "),
	}}
}
