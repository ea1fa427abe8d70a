package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Revert is what a command that only puts files back does: the files it
// checks out of git (Checkout) or removes (Remove), never both.
type Revert struct {
	Checkout, Remove []string
}

// Reverts recognises a command that only puts files back: the whole line
// is one simple command, run as plain `git` or `rm` (no wrapper, no path,
// no option but these), and every file is a literal word:
//
//	git checkout [HEAD] -- FILE…
//	git restore [--worktree|-W] [--staged|-S] [--source=HEAD|-s HEAD] [--] FILE…
//	rm [-f] [--] FILE…
//
// ok is false for anything else: the caller judges it as any command.
func Reverts(cmd string) (r Revert, ok bool) {
	defer func() {
		if recover() != nil {
			r, ok = Revert{}, false
		}
	}()
	var calls []*call
	w := &walker{onCall: func(c *call) { calls = append(calls, c) }}
	file := w.script(&frame{src: cmd}, "")
	if file == nil || !isSimple(file) || len(calls) != 1 {
		return Revert{}, false
	}
	c := calls[0]
	// The line's first word is the program itself: no wrapper (sudo, env,
	// sh -c) and no path stands in front of it.
	first := file.Stmts[0].Cmd.(*syntax.CallExpr).Args[0].Lit()
	if !c.prog.literal || c.prog.text != c.name || first != c.name {
		return Revert{}, false
	}
	words := make([]string, len(c.args))
	for i, a := range c.args {
		if !a.literal || a.feed != "" || a.proc {
			return Revert{}, false
		}
		words[i] = a.text
	}
	var files []string
	switch {
	case c.name == "git" && len(words) > 0 && words[0] == "checkout":
		files, ok = checkoutFiles(words[1:])
		r.Checkout = files
	case c.name == "git" && len(words) > 0 && words[0] == "restore":
		files, ok = restoreFiles(words[1:])
		r.Checkout = files
	case c.name == "rm":
		files, ok = rmFiles(words)
		r.Remove = files
	}
	if !ok || len(files) == 0 {
		return Revert{}, false
	}
	return r, true
}

// checkoutFiles reads `[HEAD] -- FILE…`: without the `--`, a word may name
// a branch.
func checkoutFiles(words []string) ([]string, bool) {
	if len(words) > 0 && words[0] == "HEAD" {
		words = words[1:]
	}
	if len(words) < 2 || words[0] != "--" {
		return nil, false
	}
	return words[1:], true
}

// restoreFiles reads git restore's options that keep the source HEAD's or
// the index's, then the files.
func restoreFiles(words []string) ([]string, bool) {
	for i := 0; i < len(words); i++ {
		switch w := words[i]; {
		case w == "--":
			return words[i+1:], true
		case w == "--worktree" || w == "-W" || w == "--staged" || w == "-S" || w == "--source=HEAD":
		case w == "-s" || w == "--source":
			if i+1 == len(words) || words[i+1] != "HEAD" {
				return nil, false
			}
			i++
		case strings.HasPrefix(w, "-"):
			return nil, false
		default:
			return words[i:], true
		}
	}
	return nil, false
}

// rmFiles reads `[-f] [--] FILE…`: no recursion, no directory.
func rmFiles(words []string) ([]string, bool) {
	for i, w := range words {
		switch {
		case w == "--":
			return words[i+1:], true
		case w == "-f":
		case strings.HasPrefix(w, "-"):
			return nil, false
		default:
			for _, f := range words[i+1:] {
				if strings.HasPrefix(f, "-") {
					return nil, false // an option after a file: rm reads it as one
				}
			}
			return words[i:], true
		}
	}
	return nil, false
}
