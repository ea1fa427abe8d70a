package shell

import (
	"slices"
	"strings"
)

// self records a call of intenthook and says what kind it is (SPEC §8): selecting an intent,
// reading, or pulling one of the human's levers. Every name intenthook is installed under is
// intenthook: the full binary takes the same command lines; the MCP server and anything else
// named intenthook* is a lever whatever its arguments.
func (w *walker) self(c *call) {
	sc := SelfCall{Kind: selfKind(c.args), Args: words(c.args)}
	if c.name != "intenthook" {
		sc.Program = c.name
		if !cliName(c.name) {
			sc.Kind = SelfLever
		}
	}
	w.found.Self = append(w.found.Self, sc)
}

// selfName reports whether a program's name is one of intenthook's: intenthook, intenthook-full,
// intenthook-mcp, intenthook.exe, or any other intenthook* a person installed.
func selfName(name string) bool {
	return strings.HasPrefix(strings.ToLower(name), "intenthook")
}

// cliName reports whether name takes intenthook's command lines.
func cliName(name string) bool {
	switch strings.TrimSuffix(strings.ToLower(name), ".exe") {
	case "intenthook", "intenthook-full":
		return true
	}
	return false
}

// byPath records a program run by a path, for the caller to identify: a link or a copy of
// intenthook under another name is intenthook.
func (w *walker) byPath(c *call) {
	if !c.prog.literal || !strings.Contains(c.prog.text, "/") || selfName(c.name) {
		return
	}
	p, ok := c.f.place(c.prog.text)
	if !ok {
		p = c.prog.text
	}
	w.found.ByPath = append(w.found.ByPath, SelfCall{Kind: selfKind(c.args), Args: words(c.args), Program: p})
}

func selfKind(args []arg) SelfKind {
	rooted := false
	for len(args) > 0 && args[0].literal && (args[0].text == "--root" || strings.HasPrefix(args[0].text, "--root=")) {
		if args[0].text == "--root" && len(args) > 1 {
			args = args[1:]
		}
		args, rooted = args[1:], true
	}
	if len(args) == 0 {
		return SelfReadOnly // prints the help
	}
	if !args[0].literal {
		return SelfLever
	}
	switch args[0].text {
	case "select":
		if !rooted && len(args) == 2 && args[1].literal && args[1].text != "" && !strings.HasPrefix(args[1].text, "-") {
			return SelfSelect
		}
		if _, _, ok := delegateArgs(args[1:], rooted); ok {
			return SelfDelegate
		}
	case "submit":
		if !rooted && len(args) == 2 && args[1].literal && args[1].text != "" && !strings.HasPrefix(args[1].text, "-") {
			return SelfSubmit
		}
	case "intents":
		if secondIs(args, "validate") && fixes(args[2:]) {
			return SelfLever // validate --fix rewrites the catalog
		}
		if secondIs(args, "list", "show", "validate", "tree") {
			return SelfReadOnly
		}
	case "ledger":
		if secondIs(args, "query", "verify") {
			return SelfReadOnly
		}
	case "blame", "status", "doctor", "version", "lesson", "anchor", "help", "--help", "-h", "--version":
		return SelfReadOnly
	}
	return SelfLever
}

// secondIs reports whether the word after a command group is one of subs.
func secondIs(args []arg, subs ...string) bool {
	return len(args) > 1 && args[1].literal && slices.Contains(subs, args[1].text)
}

// fixes reports whether validate's arguments may ask for --fix: the flag
// itself, or a word the shell expands at run time, which could be it.
func fixes(args []arg) bool {
	for _, a := range args {
		if !a.literal || a.text == "--fix" || strings.HasPrefix(a.text, "--fix=") {
			return true
		}
	}
	return false
}

// delegateArgs reads `select <ID> --for <TYPE>` (or --for=TYPE, either
// order): a delegation, which agents may make like a selection. Anything
// more, or a word the shell expands, is not one.
func delegateArgs(args []arg, rooted bool) (id, agentType string, ok bool) {
	if rooted {
		return "", "", false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.literal {
			return "", "", false
		}
		switch {
		case a.text == "--for" && i+1 < len(args) && args[i+1].literal && agentType == "":
			agentType = args[i+1].text
			i++
		case strings.HasPrefix(a.text, "--for=") && agentType == "":
			agentType = strings.TrimPrefix(a.text, "--for=")
		case a.text != "" && !strings.HasPrefix(a.text, "-") && id == "":
			id = a.text
		default:
			return "", "", false
		}
	}
	return id, agentType, id != "" && agentType != "" && !strings.HasPrefix(agentType, "-")
}
