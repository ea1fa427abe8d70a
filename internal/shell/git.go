package shell

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// git analyses the git subcommands that change the working tree, throw work away or run
// programs of the command's choosing.
func (w *walker) git(c *call) {
	f, args := c.f, c.args
	for len(args) > 0 && !args[0].literal && isOptionLead(args[0].lead) {
		// --git-dir="$D": a value the text cannot pin down; one that names
		// the programs git runs cannot be judged
		if lead := args[0].lead; strings.HasPrefix(lead, "--exec-path") || strings.HasPrefix(lead, "--config-env") || strings.HasPrefix(lead, "-c") {
			w.opaque("git option is not a literal word: " + args[0].raw)
			return
		}
		args = args[1:]
	}
	for len(args) > 0 && isOption(args[0]) {
		opt := args[0].text
		args = args[1:]
		switch {
		case strings.HasPrefix(opt, "--exec-path="):
			w.opaque(fmt.Sprintf("git --exec-path runs its commands from %s", strings.TrimPrefix(opt, "--exec-path=")))
			continue
		case strings.HasPrefix(opt, "--config-env="):
			w.gitSetting(c, "--config-env", literal(strings.TrimPrefix(opt, "--config-env=")), true)
			continue
		}
		if len(args) == 0 {
			return
		}
		switch {
		case opt == "-C":
			f = f.subshell()
			f.cd(args[0])
			args = args[1:]
		case opt == "-c":
			w.gitSetting(c, "-c", args[0], false)
			args = args[1:]
		case opt == "--config-env":
			w.gitSetting(c, "--config-env", args[0], true)
			args = args[1:]
		case slices.Contains([]string{"--git-dir", "--work-tree", "--namespace"}, opt):
			args = args[1:]
		}
	}
	if len(args) == 0 || !args[0].literal {
		return
	}
	g := gitCall{c: c, f: f, args: args[1:]}
	w.gitRunners(g, args[0].text)
	switch args[0].text {
	case "push":
		w.gitPush(g)
		w.gitSelfTransfer(g)
	case "fetch":
		w.gitSelfTransfer(g)
	case "switch":
		if (options{short: "cCt", long: []string{"create", "force-create", "track", "orphan"}}).parse(g.args).has("f", "force", "discard-changes") {
			w.destructive(c.text()) // local changes thrown away
		}
	case "update-ref":
		// Moves a branch, a tag or a remote-tracking ref by hand: the
		// backstop takes commits on a remote-tracking ref for others' work.
		w.destructive(g.c.text())
	case "reset":
		if (options{}).parse(g.args).has("hard") {
			w.destructive(c.text())
		}
	case "clean":
		w.gitClean(g)
	case "checkout":
		w.gitCheckout(g)
	case "restore":
		w.gitRestore(g)
	case "rm":
		p := options{long: []string{"pathspec-from-file"}}.parse(g.args)
		if !p.has("cached") { // --cached leaves the file on disk
			w.pathspecs(g, deletes, p.operands)
		}
	case "mv":
		p := options{}.parse(g.args)
		sources, dest := w.destinations(f, p)
		w.pathspecs(g, deletes, sources)
		w.pathspecs(g, writes, dest)
	case "apply":
		p := options{}.parse(g.args)
		if !p.has("check", "stat", "numstat", "summary") || p.has("apply") {
			w.opaque("git apply: patch targets unknown")
		}
	case "am":
		w.opaque("git am: patch targets unknown")
	case "branch":
		p := options{short: "tu", long: []string{"track", "set-upstream-to", "contains", "merged", "sort", "format"}}.parse(g.args)
		if p.has("D") || (p.has("d", "delete") && p.has("f", "force")) {
			w.destructive(c.text())
		}
	case "update-index":
		// Hiding a file's changes from git status blinds the backstop and precommit.
		p := options{}.parse(g.args)
		if p.has("skip-worktree", "assume-unchanged") {
			w.destructive(c.text())
		}
	case "config":
		w.gitConfig(g)
	case "worktree":
		if len(g.args) > 0 && g.args[0].text == "add" {
			w.destructive(c.text()) // a second work tree the hooks do not watch
		}
	case "clone":
		w.gitClone(g)
	case "stash":
		if len(g.args) > 0 && (g.args[0].text == "drop" || g.args[0].text == "clear") {
			w.destructive(c.text()) // stashed work, and its records, gone for good
		}
	}
}

// gitConfig asks about setting the keys that make git run a program or hide
// files from it (gitRisky, and core.excludesFile): core.hooksPath,
// core.fsmonitor, sequence.editor, diff.external, filters, aliases,
// includes… A key a person configured is theirs: only this command's
// setting asks.
func (w *walker) gitConfig(g gitCall) {
	for _, a := range g.args {
		if !a.literal {
			w.opaque("git config: a key that is not a literal word")
			return
		}
		if k := strings.ToLower(a.text); k == "core.excludesfile" || gitRisky(k) {
			if !slices.ContainsFunc(g.args, gitConfigReads) {
				w.destructive(g.c.text())
			}
			return
		}
	}
}

// gitClone asks when the clone lands outside the working directory's tree
// (its parent, or an absolute path): a repository beside the workspace is
// a place the hooks do not govern.
func (w *walker) gitClone(g gitCall) {
	p := options{short: "obcju", long: []string{"origin", "branch", "config", "jobs", "upload-pack", "template", "reference", "separate-git-dir", "depth", "shallow-since", "shallow-exclude", "filter", "server-option"}}.parse(g.args)
	if len(p.operands) < 2 {
		return
	}
	dest := p.operands[len(p.operands)-1]
	if !dest.literal || strings.HasPrefix(dest.text, "/") || dest.text == ".." || strings.HasPrefix(dest.text, "../") {
		w.destructive(g.c.text())
		return
	}
	w.target(g.f, "git clone", writes, dest)
}

// gitCall is a git subcommand: the whole call, for reasons, the frame after -C, and the words
// after the subcommand.
type gitCall struct {
	c    *call
	f    *frame
	args []arg
}

// gitPush asks about a push that rewrites or deletes the remote's branches: --force in any
// spelling, a +refspec, --delete, a :branch refspec, --mirror, --prune.
func (w *walker) gitPush(g gitCall) {
	p := options{short: "o", long: []string{"repo", "receive-pack", "exec", "push-option"}}.parse(g.args)
	rewrites := p.has("f", "force", "force-with-lease", "force-if-includes", "d", "delete", "mirror", "prune")
	if len(p.operands) > 1 {
		// a refspec with a leading + forces that ref; one with nothing before the colon deletes it
		rewrites = rewrites || slices.ContainsFunc(p.operands[1:], func(a arg) bool {
			text := cmp.Or(a.text, a.lead)
			return strings.HasPrefix(text, "+") || strings.HasPrefix(text, ":")
		})
	}
	if len(p.operands) == 0 {
		if rewrites {
			w.destructive(g.c.text())
		}
		return
	}
	// intenthook's claims on the remote (refs/intenthook/claims/*, the
	// branch intenthook/claims) are written by its hooks alone: a push
	// that may name them, spelt or through a pattern or a word the shell
	// expands, is a person's to allow.
	toSelf := p.operands[0].literal && (p.operands[0].text == "." || p.operands[0].text == "./") // gitSelfTransfer's
	if len(p.operands) > 1 && !toSelf && slices.ContainsFunc(p.operands[1:], func(a arg) bool {
		text := cmp.Or(a.text, a.lead)
		return !a.literal || strings.Contains(text, "intenthook") || strings.Contains(text, "*")
	}) {
		w.destructive("git push that may write intenthook's claims on the remote (only its hooks write them): " + g.c.text())
		return
	}
	if rewrites {
		w.destructive(g.c.text())
	}
}

// gitSelfTransfer asks about a fetch or push whose repository is this one
// ("."): it sets refs, remote-tracking ones included, to commits made here,
// which the backstop would then take for others' work.
func (w *walker) gitSelfTransfer(g gitCall) {
	p := options{short: "o", long: []string{"repo", "receive-pack", "exec", "upload-pack", "push-option", "depth", "deepen", "shallow-since", "shallow-exclude", "refmap", "recurse-submodules-default", "negotiation-tip", "server-option", "jobs", "filter"}}.parse(g.args)
	if len(p.operands) > 0 && p.operands[0].literal && (p.operands[0].text == "." || p.operands[0].text == "./") && len(p.operands) > 1 {
		w.destructive(g.c.text())
	}
}

func (w *walker) gitClean(g gitCall) {
	p := options{short: "e", long: []string{"exclude"}}.parse(g.args)
	if p.has("n", "dry-run") || !p.has("f", "force") {
		return // without -f git clean refuses to delete anything
	}
	w.destructive(g.c.text())
	w.pathspecs(g, deletes, p.operands)
}

// gitCheckout: the paths after `--` are overwritten from the index or a commit. Without `--` a
// word may be a branch or a path; only "." is surely a path.
func (w *walker) gitCheckout(g gitCall) {
	before, after, dashes := cutWord(g.args, "--")
	paths := after
	p := options{short: "bB", long: []string{"orphan", "pathspec-from-file"}}.parse(before)
	if !dashes {
		paths = slices.DeleteFunc(p.operands, func(a arg) bool { return !isWholeTree(a) })
	}
	if p.has("f", "force") && !slices.ContainsFunc(paths, isWholeTree) {
		w.destructive(g.c.text()) // local changes thrown away
	}
	w.discardChanges(g, paths)
}

func (w *walker) gitRestore(g gitCall) {
	p := options{short: "s", long: []string{"source", "pathspec-from-file"}}.parse(g.args)
	if p.has("S", "staged") && !p.has("W", "worktree") {
		return // only the index changes
	}
	w.discardChanges(g, p.operands)
}

// discardChanges reports paths overwritten from git; overwriting the whole tree is destructive.
func (w *walker) discardChanges(g gitCall, paths []arg) {
	if slices.ContainsFunc(paths, isWholeTree) {
		w.destructive(g.c.text())
	}
	w.pathspecs(g, writes, paths)
}

func isWholeTree(a arg) bool {
	return a.literal && (a.text == "." || a.text == "./")
}

// pathspecs reports git path operands. Git expands patterns itself, so a quoted '*.go' is a
// pattern too, and so is pathspec magic like :(glob) or :/.
func (w *walker) pathspecs(g gitCall, e effect, list []arg) {
	for _, a := range list {
		if a.literal && (strings.ContainsAny(a.text, "*?[") || strings.HasPrefix(a.text, ":")) {
			w.opaque(fmt.Sprintf("git pathspec is a pattern: %s", a.raw))
			continue
		}
		w.target(g.f, "git", e, a)
	}
}

// cutWord splits words at the first literal sep.
func cutWord(words []arg, sep string) (before, after []arg, found bool) {
	for i, a := range words {
		if a.literal && a.text == sep {
			return words[:i], words[i+1:], true
		}
	}
	return words, nil, false
}
