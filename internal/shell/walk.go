package shell

import (
	"fmt"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxDepth bounds `sh -c` strings inside `sh -c` strings. Nobody nests this deep by hand; a
// command that does is hiding something.
const maxDepth = 8

// frame is the state of one shell while the walk goes through it.
type frame struct {
	src   string // the script being walked: messages quote words from it
	depth int    // how many `sh -c` strings deep the walk is
	dir   string // where literal cd commands moved the shell: relative to the caller's cwd, or absolute; "" = not moved
	lost  bool   // a cd went somewhere the text does not name, so relative paths cannot be placed
	// via is the package runner whose command this shell runs (npx, pnpm exec…): it finds
	// programs in node_modules/.bin directories before PATH.
	via *via
}

// subshell returns a copy for commands whose cd cannot move their parent: subshells, pipes,
// substitutions, background jobs.
func (f *frame) subshell() *frame {
	c := *f
	return &c
}

// nested returns the frame for a script string run by a new shell in this one's directory.
func (f *frame) nested(src string) *frame {
	return &frame{src: src, depth: f.depth + 1, dir: f.dir, lost: f.lost, via: f.via}
}

// place returns path p as seen from the caller's cwd, or false when a cd made that unknowable.
func (f *frame) place(p string) (string, bool) {
	if strings.HasPrefix(p, "/") {
		return p, true
	}
	if f.lost {
		return "", false
	}
	return join(f.dir, p), true
}

// cd moves the frame as `cd to` would.
func (f *frame) cd(to arg) {
	switch {
	case to.literal && to.text == "":
		// bash stays where it is
	case !to.literal || to.text == "-":
		f.lost = true
	default:
		p, ok := f.place(to.text)
		switch {
		case !ok:
		case len(p) > maxPath:
			f.lost = true
		default:
			f.dir, f.lost = p, false
		}
	}
}

// maxPath is PATH_MAX: a cd past it fails, and following it would only cost time.
const maxPath = 4096

// join puts p under dir without cleaning either: the caller resolves and cleans.
func join(dir, p string) string {
	switch {
	case dir == "":
		return p
	case strings.HasSuffix(dir, "/"):
		return dir + p
	}
	return dir + "/" + p
}

// script parses the frame's source and walks it. what names a nested script in a parse error.
func (w *walker) script(f *frame, what string) *syntax.File {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(f.src), "")
	if err != nil {
		w.opaque(what + "parse error: " + err.Error())
		return nil
	}
	w.stmts(f, file.Stmts, false)
	return file
}

// stmts walks a list in order: a cd in one statement moves the ones after it. fed says whether
// the list's standard input carries data.
func (w *walker) stmts(f *frame, list []*syntax.Stmt, fed bool) {
	for _, s := range list {
		w.stmt(f, s, fed)
	}
}

func (w *walker) stmt(f *frame, s *syntax.Stmt, fed bool) {
	if s == nil {
		return
	}
	if s.Background || s.Coprocess || s.Disown {
		f = f.subshell()
	}
	in := stdin{fed: fed}
	for _, r := range s.Redirs {
		w.wordSubstitutions(f, r.Word)
		w.wordSubstitutions(f, r.Hdoc)
		in.note(r)
	}
	w.command(f, s.Cmd, in)
	for _, r := range s.Redirs {
		w.redirect(f, r)
	}
}

func (w *walker) command(f *frame, cmd syntax.Command, in stdin) {
	switch c := cmd.(type) {
	case nil:
		// a statement made of redirections only, like `> file`
	case *syntax.CallExpr:
		w.callExpr(f, c, in)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			w.stmt(f.subshell(), c.X, in.fed)
			w.stmt(f.subshell(), c.Y, true)
			return
		}
		w.stmt(f, c.X, in.fed)
		w.stmt(f, c.Y, in.fed)
	case *syntax.Subshell:
		w.stmts(f.subshell(), c.Stmts, in.fed)
	case *syntax.Block:
		w.stmts(f, c.Stmts, in.fed)
	case *syntax.IfClause:
		w.unproven = true
		for clause := c; clause != nil; clause = clause.Else {
			w.stmts(f, clause.Cond, in.fed)
			w.stmts(f, clause.Then, in.fed)
		}
	case *syntax.WhileClause:
		w.unproven = true
		w.stmts(f, c.Cond, in.fed)
		w.stmts(f, c.Do, in.fed)
	case *syntax.ForClause:
		w.unproven = true
		w.substitutions(f, c.Loop)
		w.stmts(f, c.Do, in.fed)
	case *syntax.CaseClause:
		w.unproven = true
		w.wordSubstitutions(f, c.Word)
		for _, item := range c.Items {
			for _, pattern := range item.Patterns {
				w.wordSubstitutions(f, pattern)
			}
			w.stmts(f, item.Stmts, in.fed)
		}
	case *syntax.FuncDecl:
		w.unproven = true
		if w.onDefine != nil {
			w.onDefine("")
		}
		// The body runs whenever the function is called, from wherever the shell is then.
		w.stmt(f.subshell(), c.Body, false)
	case *syntax.TimeClause:
		w.stmt(f, c.Stmt, in.fed)
	case *syntax.CoprocClause:
		w.unproven = true
		w.wordSubstitutions(f, c.Name)
		w.stmt(f.subshell(), c.Stmt, false)
	case *syntax.TestDecl:
		w.unproven = true
		w.wordSubstitutions(f, c.Description)
		w.stmt(f.subshell(), c.Body, false)
	case *syntax.DeclClause:
		// export GIT_SSH_COMMAND=…: the rest of the line runs with it
		w.unproven = true
		for _, as := range c.Args {
			w.assign(f, as)
		}
		w.substitutions(f, c)
	default:
		// Arithmetic, [[ ]], declare and let run commands only through their substitutions.
		w.unproven = true
		w.substitutions(f, c)
	}
}

func (w *walker) callExpr(f *frame, c *syntax.CallExpr, in stdin) {
	for _, as := range c.Assigns {
		w.substitutions(f, as)
		w.assign(f, as)
	}
	words := make([]arg, 0, len(c.Args))
	for _, word := range c.Args {
		w.wordSubstitutions(f, word)
		words = append(words, f.word(word))
	}
	// A leading VAR=value can make a reader a writer (GIT_EXTERNAL_DIFF=…).
	if len(c.Assigns) > 0 || len(words) == 0 || !provesReadOnly(words[0].name, words[1:]) {
		w.unproven = true
	}
	w.run(f, words, in)
}

// assign judges a VAR=value: the variables that make git run a program.
func (w *walker) assign(f *frame, as *syntax.Assign) {
	if as != nil && as.Name != nil && w.onDefine != nil {
		w.onDefine(as.Name.Value)
	}
	if as == nil || as.Name == nil || !gitEnv(as.Name.Value) {
		return
	}
	value := literal("")
	if as.Value != nil {
		value = f.word(as.Value)
	}
	w.assignment(as.Name.Value, value)
}

// substitutions walks the commands that $( ), backticks and <( ) inside n run, each in a
// subshell of f.
func (w *walker) substitutions(f *frame, n syntax.Node) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.stmts(f.subshell(), n.Stmts, false)
			return false
		case *syntax.ProcSubst:
			w.stmts(f.subshell(), n.Stmts, false)
			return false
		}
		return true
	})
}

// wordSubstitutions is substitutions for a word that may be absent.
func (w *walker) wordSubstitutions(f *frame, word *syntax.Word) {
	if word != nil {
		w.substitutions(f, word)
	}
}

// redirect reports the file an output redirection writes.
func (w *walker) redirect(f *frame, r *syntax.Redirect) {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrInOut,
		syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
	case syntax.DplOut:
		if isDescriptor(r.Word) {
			return // 2>&1, >&2, >&-: no file
		}
		// `>&file` is bash for `&>file`
	default:
		return
	}
	w.target(f, "", writes, f.word(r.Word))
}

// isDescriptor reports whether the word of a >& redirection names a file descriptor: 2, 3-, -.
func isDescriptor(word *syntax.Word) bool {
	text, ok := unquote(word)
	if !ok {
		return false
	}
	text = strings.TrimSuffix(text, "-")
	return strings.Trim(text, "0123456789") == ""
}

// stdin says what a command's standard input carries, for programs that read their script there.
type stdin struct {
	fed  bool   // a pipe, a redirection or a here-document gives it data
	text string // the literal text of its here-documents and here-strings
}

func (in *stdin) note(r *syntax.Redirect) {
	if r.N != nil && r.N.Value != "0" {
		return
	}
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut:
		in.fed = true
	case syntax.Hdoc, syntax.DashHdoc:
		in.fed = true
		in.text += literalText(r.Hdoc)
	case syntax.WordHdoc:
		in.fed = true
		in.text += literalText(r.Word)
	}
}

// effect is what a command does to a target path.
type effect int

const (
	writes      effect = iota
	deletes            // the path is removed
	linkSources        // the path gets another name by a hard link, which the link name can write
	makesDir           // the path is written as a directory (mkdir, python -m venv)
)

// String names the path in reasons: "write target", "delete target", "link source".
func (e effect) String() string {
	switch e {
	case deletes:
		return "delete target"
	case linkSources:
		return "link source"
	}
	return "write target"
}

// target reports a path that the program who writes, deletes or hard-links. A word the text
// cannot pin down makes the command opaque rather than being guessed at.
func (w *walker) target(f *frame, who string, e effect, a arg) {
	switch {
	case a.proc:
		// >(cmd) is a pipe into a command the walk has already seen
	case a.feed != "":
		w.opaque(fmt.Sprintf("%s feeds %s its targets at run time", a.feed, who))
	case !a.literal:
		w.opaque(fmt.Sprintf("%s is not a literal word: %s", e, a.raw))
		if h := w.atHome(a); h.literal && filepath.IsAbs(h.text) {
			w.found.AtHome = append(w.found.AtHome, filepath.Clean(h.text))
		}
	case a.text == "" || isDevice(a.text):
		// nothing on disk changes
	default:
		p, ok := f.place(a.text)
		switch {
		case !ok:
			w.opaque(fmt.Sprintf("%s %s follows a cd to an unknown directory", e, a.text))
		case e == deletes:
			w.delete(p)
		case e == linkSources:
			w.linkSource(p)
		case e == makesDir:
			w.write(p)
			w.found.Dirs = append(w.found.Dirs, p)
		default:
			w.write(p)
		}
		if ok {
			w.followLinks(p, e)
		}
	}
}

// viewed reports a file a viewer shows. Words the text cannot pin down are left out: a read
// only refreshes a recorded hash, so missing one costs nothing.
func (w *walker) viewed(f *frame, a arg) {
	if !a.literal || a.text == "" || a.text == "-" || isDevice(a.text) {
		return
	}
	if p, ok := f.place(a.text); ok {
		w.read(p)
	}
}

// isDevice reports the special files whose writes change nothing on disk.
func isDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero", "/dev/full":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/")
}

// isSimple reports whether a parsed line is exactly one simple command with nothing around it.
func isSimple(file *syntax.File) bool {
	if len(file.Stmts) != 1 {
		return false
	}
	s := file.Stmts[0]
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || len(call.Assigns) > 0 || !harmlessRedirs(s.Redirs) ||
		s.Negated || s.Background || s.Coprocess || s.Disown {
		return false
	}
	for _, word := range call.Args {
		if hasSubstitution(word) {
			return false
		}
	}
	return true
}

// harmlessRedirs reports whether a statement's redirections only send
// standard output and error to each other or to /dev/null (`2>&1`, `>&2`,
// `>/dev/null`): a habit of models that leaves a command simple.
func harmlessRedirs(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if r.N != nil && r.N.Value != "1" && r.N.Value != "2" {
			return false
		}
		text, ok := unquote(r.Word)
		switch {
		case !ok:
			return false
		case r.Op == syntax.DplOut && (text == "1" || text == "2"):
		case (r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.RdrAll) && text == "/dev/null":
		default:
			return false
		}
	}
	return true
}

func hasSubstitution(word *syntax.Word) bool {
	found := false
	syntax.Walk(word, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}
