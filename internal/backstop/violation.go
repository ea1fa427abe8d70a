package backstop

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/safetext"
)

// CodeOutOfScopeChange is the backstop's violation code.
const CodeOutOfScopeChange = "out_of_scope_change"

// Violation is the answer to a command that changed the outside files:
// what it changed, why that breaks the rules, and how to put each file
// back: the exact command, which the session is then allowed to run, or,
// for a file that held uncommitted changes before the command, that it is
// the user's to restore. intentID and scope (the intent's scope summary)
// are "" when no intent is selected; budget caps each list.
func Violation(intentID, scope string, outside []Change, budget int) hook.Decision {
	var b strings.Builder
	if intentID != "" {
		fmt.Fprintf(&b, "intenthook: violation [%s] %d file(s) changed outside %s's scope\n", CodeOutOfScopeChange, len(outside), intentID)
	} else {
		fmt.Fprintf(&b, "intenthook: violation [%s] %d file(s) changed with no intent selected\n", CodeOutOfScopeChange, len(outside))
	}
	items := make([]string, len(outside))
	var puts, theirs, byHand []string
	for i, c := range outside {
		items[i] = "  " + safetext.Quote(c.Rel)
		switch cmd := PutCommand(c); {
		case cmd != "":
			puts = append(puts, "  "+cmd)
		case c.Put() == "":
			theirs = append(theirs, "  "+safetext.Quote(c.Rel))
		default:
			byHand = append(byHand, "  "+safetext.Quote(c.Rel))
		}
	}
	fmt.Fprintf(&b, "files:\n%s\n", hook.List(items, budget))
	if intentID != "" {
		fmt.Fprintf(&b, "why: the command changed files that intent does not own (it owns %s)\n", scope)
	} else {
		b.WriteString("why: every change must belong to a selected intent, and this session has none\n")
	}
	b.WriteString("instead: put those files back now, then change only files in scope; ask the user if the change is needed")
	if len(puts) > 0 {
		fmt.Fprintf(&b, "\nput back with (allowed for this session):\n%s", hook.List(puts, budget))
	}
	if len(byHand) > 0 {
		fmt.Fprintf(&b, "\nput back by hand (a name one command line cannot carry):\n%s", hook.List(byHand, budget))
	}
	if len(theirs) > 0 {
		fmt.Fprintf(&b, "\nleave to the user (they held uncommitted changes before the command, which a checkout would destroy):\n%s", hook.List(theirs, budget))
	}
	return hook.Decision{Violation: true, Code: CodeOutOfScopeChange, Message: b.String()}
}

// PutCommand is the command that puts a changed path back as it was
// before the command, "" when none can (Put) or the path cannot be
// written as one shell word on one line.
func PutCommand(c Change) string {
	if strings.ContainsFunc(c.Rel, func(r rune) bool { return r < 0x20 || r == 0x7f }) || !utf8.ValidString(c.Rel) {
		return ""
	}
	word := shellWord(c.Rel)
	switch c.Put() {
	case PutCheckout:
		return "git checkout -- " + word
	case PutRemove:
		return "rm -- " + word
	}
	return ""
}

// shellWord quotes a path for a POSIX shell when it holds anything but
// the characters paths are usually made of.
func shellWord(s string) string {
	plain := s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/-+@%,:=", r))
	})
	if plain && !strings.HasPrefix(s, "-") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
