package gate

import (
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
)

// Deny codes (SPEC §3).
const (
	CodeIntentRequired       = "intent_required"
	CodeIntentNotFound       = "intent_not_found"
	CodeIntentNotInProgress  = "intent_not_in_progress"
	CodeDependencyIncomplete = "dependency_incomplete"
	CodeToolNotAllowed       = "tool_not_allowed"
	CodePathOutsideWorkspace = "path_outside_workspace"
	CodeProtectedPath        = "protected_path"
	CodeScopeViolation       = "scope_violation"
	CodeStaleFile            = "stale_file"
	CodeIntentClaimed        = "intent_claimed"
	CodeShellUnsafe          = "shell_unsafe"
	CodeCatalogInvalid       = "catalog_invalid"
	CodeInternalError        = "internal_error"
)

// denial is the four-part message a model reads to correct itself.
type denial struct {
	code     string
	headline string
	why      string
	instead  string
	evidence []string // key=value pairs
}

func (d denial) decision() hook.Decision {
	var b strings.Builder
	fmt.Fprintf(&b, "intenthook: deny [%s] %s", d.code, oneLine(d.headline))
	if d.why != "" {
		fmt.Fprintf(&b, "\nwhy: %s", d.why)
	}
	if d.instead != "" {
		fmt.Fprintf(&b, "\ninstead: %s", d.instead)
	}
	if len(d.evidence) > 0 {
		fmt.Fprintf(&b, "\nevidence: %s", strings.Join(d.evidence, " "))
	}
	return hook.Decision{Verdict: hook.Deny, Code: d.code, Message: b.String()}
}

// oneLine keeps a value on one line: the first line of a deny message is
// parsed by tools.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == 0 {
			return ' '
		}
		return r
	}, s)
}

func ev(key, value string) string {
	if value == "" {
		value = "-"
	}
	if strings.ContainsAny(value, " \t\n\"") {
		value = fmt.Sprintf("%q", value)
	}
	return key + "=" + value
}

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
