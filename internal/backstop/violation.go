package backstop

import (
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/hook"
)

// CodeOutOfScopeChange is the backstop's violation code.
const CodeOutOfScopeChange = "out_of_scope_change"

// Violation is the answer to a command that changed the outside files:
// what it changed, why that breaks the rules, and what to do. intentID
// and scope (the intent's scope summary) are "" when no intent is
// selected; budget caps the list of files.
func Violation(intentID, scope string, outside []string, budget int) hook.Decision {
	var b strings.Builder
	if intentID != "" {
		fmt.Fprintf(&b, "intenthook: violation [%s] %d file(s) changed outside %s's scope\n", CodeOutOfScopeChange, len(outside), intentID)
	} else {
		fmt.Fprintf(&b, "intenthook: violation [%s] %d file(s) changed with no intent selected\n", CodeOutOfScopeChange, len(outside))
	}
	items := make([]string, len(outside))
	for i, rel := range outside {
		items[i] = "  " + rel
	}
	fmt.Fprintf(&b, "files:\n%s\n", hook.List(items, budget))
	if intentID != "" {
		fmt.Fprintf(&b, "why: the command changed files that intent does not own (it owns %s)\n", scope)
	} else {
		b.WriteString("why: every change must belong to a selected intent, and this session has none\n")
	}
	b.WriteString("instead: revert those files now (git checkout -- <file>, or delete files you created), then change only files in scope; ask the user if the change is needed")
	return hook.Decision{Violation: true, Code: CodeOutOfScopeChange, Message: b.String()}
}
