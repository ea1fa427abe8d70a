package hook

import (
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/safetext"
)

// Deny codes (SPEC §3): the stable word in the first line of a deny message.
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
	CodeTargetUnknown        = "target_unknown"
	CodeRoleNotAllowed       = "role_not_allowed"
	CodeDelegationNotAllowed = "delegation_not_allowed"
	CodeInternalError        = "internal_error"
	// CodeStateBusy: the decision needs state intenthook cannot read or
	// store now (a held lock, an unwritable state/); retrying may pass.
	CodeStateBusy = "state_busy"
	// CodeHookReplaced: a program the hooks run (an npm install's binary)
	// was replaced during an agent's command, and is still as it left
	// it: every call that may change anything is denied until a person
	// reinstalls intenthook.
	CodeHookReplaced = "hook_replaced"
	// CodeGovernanceMissing: the work tree is marked governed (init) and
	// its catalog is gone: every call that may change anything is denied,
	// in either fail mode, until a person restores the rules or runs
	// intenthook uninstall.
	CodeGovernanceMissing = "governance_missing"
	// CodeBudgetExceeded: the active intent's spend (calls, tokens, money)
	// reached its budget: calls that may write are denied until the user
	// raises it (intenthook budget); reads stay allowed.
	CodeBudgetExceeded = "budget_exceeded"
)

// Denial is the four-part message a model reads to correct itself: what
// happened, why, what to do instead, and the evidence.
type Denial struct {
	Code     string
	Headline string
	Why      string
	Instead  string
	Evidence []string // key=value pairs, see Ev
}

// Decision renders the denial as a deny.
func (d Denial) Decision() Decision {
	var b strings.Builder
	fmt.Fprintf(&b, "intenthook: deny [%s] %s", d.Code, safetext.OneLine(d.Headline))
	if d.Why != "" {
		fmt.Fprintf(&b, "\nwhy: %s", d.Why)
	}
	if d.Instead != "" {
		fmt.Fprintf(&b, "\ninstead: %s", d.Instead)
	}
	if len(d.Evidence) > 0 {
		fmt.Fprintf(&b, "\nevidence: %s", strings.Join(d.Evidence, " "))
	}
	return Decision{Verdict: Deny, Code: d.Code, Message: b.String()}
}

// Ev formats one key=value pair of evidence, quoting values with spaces.
func Ev(key, value string) string {
	if value == "" {
		value = "-"
	}
	if strings.ContainsAny(value, " \t\n\"") {
		value = fmt.Sprintf("%q", value)
	}
	return key + "=" + value
}
