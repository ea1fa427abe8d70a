package agent

import (
	"testing"

	"github.com/intenthook/intenthook/internal/agent/auggie"
	"github.com/intenthook/intenthook/internal/agent/claude"
	"github.com/intenthook/intenthook/internal/agent/cline"
	"github.com/intenthook/intenthook/internal/agent/codex"
	"github.com/intenthook/intenthook/internal/agent/copilot"
	"github.com/intenthook/intenthook/internal/agent/cursor"
	"github.com/intenthook/intenthook/internal/agent/droid"
	"github.com/intenthook/intenthook/internal/agent/gemini"
	"github.com/intenthook/intenthook/internal/agent/opencode"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/agent/qwen"
)

// TestToolTablesNameEachToolOnce: a tool table is a list (a map would be
// built on every hook's start), so a name given twice is not a compile
// error; the first entry would win, silently.
func TestToolTablesNameEachToolOnce(t *testing.T) {
	tables := map[string]protocol.Tools{
		"auggie": auggie.Tools(), "claude": claude.Tools(), "cline": cline.Tools(), "codex": codex.Tools(),
		"copilot": copilot.Tools(), "cursor": cursor.Tools(), "droid": droid.Tools(), "gemini": gemini.Tools(),
		"opencode": opencode.Tools(), "qwen": qwen.Tools(),
	}
	for agent, table := range tables {
		if len(table) == 0 {
			t.Errorf("%s: empty tool table", agent)
		}
		seen := map[string]bool{}
		for _, tool := range table {
			if tool.Name == "" || seen[tool.Name] {
				t.Errorf("%s: tool %q named twice (or empty)", agent, tool.Name)
			}
			seen[tool.Name] = true
		}
	}
}
