package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// self records a call of intenthook and says what kind it is (SPEC §8): selecting an intent,
// reading, or pulling one of the human's levers. Every name intenthook is installed under is
// intenthook: the full binary takes the same command lines; the MCP server and anything else
// named intenthook* is a lever whatever its arguments.
//
// Which file runs is left to the caller, which alone can look: a call by a path, or under a
// package runner, carries what it needs (Path, Runner, Dir, Fetches, Unplaced).
func (w *walker) self(c *call) {
	sc := SelfCall{Kind: selfKind(c.args), Args: words(c.args)}
	if c.name != "intenthook" {
		sc.Program = c.name
		if !cliName(c.name) {
			sc.Kind = SelfLever
		}
	}
	switch {
	case !c.prog.literal:
		sc.Unplaced = true // "$HOME"/bin/intenthook
	case strings.Contains(c.prog.text, "/"):
		p, ok := c.f.place(c.prog.text)
		sc.Path, sc.Unplaced = p, !ok
	}
	if v := c.f.via; v != nil {
		sc.Runner, sc.Dir = v.runner, v.dir
		sc.Unplaced = sc.Unplaced || v.lost
		sc.Fetches = v.fetches && v.word != nil && v.word == c.prog.word
	}
	w.found.Self = append(w.found.Self, sc)
}

// via is a package runner whose command a frame runs (npx, npm exec, pnpm exec, yarn exec,
// bunx): it puts node_modules/.bin directories, from the one it starts its search in up, in
// front of PATH, so a program named intenthook there is the first such directory's.
type via struct {
	runner string // as written: npx, npm exec, pnpm dlx
	dir    string // where its search starts, placed as targets are
	lost   bool   // the text cannot say where that is
	// fetches: the runner may download the package its command word names (word).
	fetches bool
	word    *syntax.Word
}

// runUnder returns a frame for the command a package runner runs, which starts its search for
// programs in dir (f's own directory when dir is nil: npm's --prefix moves only the search).
func runUnder(f *frame, runner string, dir *arg, fetches bool) *frame {
	in := f.subshell()
	at := f
	if dir != nil {
		at = f.subshell()
		at.cd(*dir)
	}
	v := &via{runner: runner, fetches: fetches}
	v.dir, v.lost = at.place(".")
	v.lost = !v.lost
	in.via = v
	return in
}

// mayFetch reports whether a package runner may download the package its command names rather
// than run an installed one. npx, npm exec and bunx look in the project first and download
// what they do not find unless told not to (--no-install, npm's --no or --yes=false); pnpm dlx
// and yarn dlx always download; pnpm exec and yarn exec never do. --package names a package
// to install, whatever the command is.
func mayFetch(runner string, opts ...parsed) bool {
	switch runner {
	case "pnpx", "pnpm dlx", "yarn dlx":
		return true
	case "pnpm exec", "yarn exec", "bun exec":
		return false
	}
	never := false
	for _, p := range opts {
		if p.has("p", "package") {
			return true
		}
		if p.has("no-install") {
			never = true
		}
		if runner == "bunx" || runner == "bun x" {
			continue
		}
		if p.has("no", "no-yes") {
			never = true
		}
		if yes, ok := p.value("yes"); ok && yes.literal && yes.text == "false" {
			never = true
		}
	}
	return !never
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
	case "budget":
		// Alone, it prints what an intent spent: an agent may ask that.
		if len(args) == 2 && args[1].literal && args[1].text != "" && !strings.HasPrefix(args[1].text, "-") {
			return SelfReadOnly
		}
	case "claims":
		// Alone, it lists the claims on the remote: an agent may ask who
		// holds an intent; clear is a person's.
		if len(args) == 1 {
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
