package gate

import (
	"fmt"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
)

// selectable lists the intents an agent could select, one per line.
func selectable(c *intents.Catalog, budget int) string {
	var items []string
	for _, in := range c.All() {
		if in.ID == "" || in.Status == intents.Complete || in.Status == intents.Archived {
			continue
		}
		mark := ""
		if !in.Valid() {
			mark = " (invalid)"
		}
		items = append(items, fmt.Sprintf("  %s %s [%s]%s: %s", in.ID, in.Name, in.Status, mark, in.ScopeSummary()))
	}
	if len(items) == 0 {
		return "  (none: ask the user to add or start an intent in .orchestration/active_intents.yaml)"
	}
	return hook.List(items, budget)
}
