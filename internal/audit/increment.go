package audit

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
)

// hunk is one hunk of a commit's diff of the ledger against its parent,
// with one line of context: the line before what was added is what the
// added lines chain from.
type hunk struct {
	before     []byte // the parent's line before the added ones; nil at the start
	beforeLine int    // its line number
	added      [][]byte
	removed    int  // the parent's line number of the first line removed, 0 when none
	insertedAt int  // the parent's line number that follows added lines, 0 when they end the file
	tornFixed  bool // the parent's last line had no newline (a torn tail)
	addedTorn  bool // the last line added has no newline
}

// parseIncrements reads the output of diff-tree --stdin -p -U1 over the
// ledger into each commit's hunks; ids are the commits fed, each named on a
// line of its own before its diff (inside a hunk every line starts with a
// marker, so a bare id cannot be content).
func parseIncrements(out []byte, ids map[string]bool) map[string][]hunk {
	res := map[string][]hunk{}
	cur := ""
	var h *hunk
	inHunk := false
	oldN, newN := 0, 0
	var last byte // the marker of the hunk's previous line
	flush := func() {
		if h != nil && cur != "" {
			res[cur] = append(res[cur], *h)
		}
		h = nil
	}
	for _, l := range bytes.Split(out, []byte("\n")) {
		switch {
		case ids[string(l)]:
			flush()
			cur, inHunk = string(l), false
		case bytes.HasPrefix(l, []byte("diff --git ")):
			flush()
			inHunk = false
		case bytes.HasPrefix(l, []byte("@@ -")):
			flush()
			inHunk = true
			f := strings.Fields(string(l))
			if len(f) > 2 {
				oldN = hunkStart(f[1])
				newN = hunkStart(f[2])
			}
			h = &hunk{}
		case !inHunk || len(l) == 0:
		case l[0] == '\\':
			h.tornFixed = h.tornFixed || last == '-'
			h.addedTorn = last == '+'
		case l[0] == ' ':
			if len(h.added) > 0 {
				if h.insertedAt == 0 {
					h.insertedAt = oldN
				}
			} else {
				h.before, h.beforeLine = l[1:], newN
			}
			oldN++
			newN++
		case l[0] == '-':
			if h.removed == 0 {
				h.removed = oldN
			}
			oldN++
		case l[0] == '+':
			h.added = append(h.added, l[1:])
			newN++
		}
		if inHunk && len(l) > 0 {
			last = l[0]
		}
	}
	flush()
	return res
}

// hunkStart reads the start of "-a,b" or "+c,d".
func hunkStart(s string) int {
	s, _, _ = strings.Cut(s[1:], ",")
	n, _ := strconv.Atoi(s)
	return n
}

// increments checks what each commit of the range that is not a merge
// added to its parent's ledger: no line removed or changed, lines added at
// the end only, and the added lines verify from the parent's last line
// (chain and seq). The ledgers are read through one `git cat-file --batch`,
// each once (a commit's is its child's parent's): the parent's must be a
// byte prefix of the commit's, so the cost is their bytes, never a diff,
// and there is no size past which a commit is judged by size alone (two
// ledgers are held at a time). A commit whose ledger
// does not begin with its parent's is described by git's line diff, for
// it alone (lineIncrements). A merge's ledger is judged by the last
// ledger's verification (forks of the union shape) and by the growth
// checks.
func increments(ctx context.Context, g *git.Repo, commits []commit) ([]Finding, error) {
	var todo []commit
	var names []string
	var of []int // the position in todo each name's reply is the commit's own ledger of; -1 for a parent's
	held := ""   // the commit whose ledger the replies leave at hand
	for _, c := range commits {
		if len(c.parents) > 1 || !slices.Contains(c.paths, ledger.FileName) {
			continue
		}
		switch {
		case len(c.parents) == 0:
			// A root commit's parent ledger is empty: a name under a blob
			// resolves to nothing.
			names, of = append(names, c.id+":"+ledger.FileName+"/-"), append(of, -1)
		case c.parents[0] != held:
			names, of = append(names, c.parents[0]+":"+ledger.FileName), append(of, -1)
		}
		names, of = append(names, c.id+":"+ledger.FileName), append(of, len(todo))
		todo = append(todo, c)
		held = c.id
	}
	if len(todo) == 0 {
		return nil, nil
	}
	hunks := make([][]hunk, len(todo))
	var described []commit
	var parent []byte
	err := g.ReadObjects(ctx, names, func(i int, obj *git.Object) error {
		b, err := git.Blob(obj)
		if err != nil || of[i] < 0 {
			parent = b
			return err
		}
		h, prefix := appended(parent, b)
		switch {
		case !prefix:
			described = append(described, todo[of[i]])
		case h != nil:
			hunks[of[i]] = []hunk{*h}
		}
		parent = b // the next commit's parent, when it is this one
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("the ledger's increments: %w", err)
	}
	var fs []Finding
	for k, c := range todo {
		fs = append(fs, judgeIncrement(c, hunks[k])...)
	}
	more, err := lineIncrements(ctx, g, described)
	return append(fs, more...), err
}

// appended compares a commit's ledger with its parent's: prefix is true
// when it begins with the parent's bytes (and the parent ends its last
// line, or nothing was added), and h is then what it appended, shaped as
// the line diff would give it (nil when nothing was).
func appended(parent, mine []byte) (h *hunk, prefix bool) {
	if !bytes.HasPrefix(mine, parent) {
		return nil, false
	}
	rest := mine[len(parent):]
	if len(rest) == 0 {
		return nil, true
	}
	if len(parent) > 0 && parent[len(parent)-1] != '\n' {
		return nil, false // a torn tail continued: the line diff says so
	}
	// Copies: the hunk outlives both ledgers, which are each as large as
	// the history made them.
	h = &hunk{addedTorn: rest[len(rest)-1] != '\n'}
	if len(parent) > 0 {
		body := parent[:len(parent)-1]
		h.before = bytes.Clone(body[bytes.LastIndexByte(body, '\n')+1:])
		h.beforeLine = bytes.Count(parent, []byte("\n"))
	}
	h.added = bytes.Split(bytes.Clone(bytes.TrimSuffix(rest, []byte("\n"))), []byte("\n"))
	return h, true
}

// lineIncrements judges commits by git's line diff of the ledger against
// their parent's, in one git process: the hunks say which line was removed,
// rewritten or inserted.
func lineIncrements(ctx context.Context, g *git.Repo, commits []commit) ([]Finding, error) {
	ids := map[string]bool{}
	var in strings.Builder
	for _, c := range commits {
		ids[c.id] = true
		in.WriteString(c.id + "\n")
	}
	if len(ids) == 0 {
		return nil, nil
	}
	out, err := git.OutputFed(ctx, g.Dir, g.Env, []byte(in.String()), git.ByteDiff("diff-tree", "--stdin", "--root", "-p", "-U1", "--no-renames", "--", ledger.FileName)...)
	if err != nil {
		return nil, fmt.Errorf("diff-tree of the ledger: %w", err)
	}
	hunks := parseIncrements(out, ids)
	var fs []Finding
	for _, c := range commits {
		if ids[c.id] {
			fs = append(fs, judgeIncrement(c, hunks[c.id])...)
		}
	}
	return fs, nil
}

// judgeIncrement turns one commit's hunks of the ledger into findings.
func judgeIncrement(c commit, hs []hunk) []Finding {
	parent := "the parent"
	if len(c.parents) == 1 {
		parent = short(c.parents[0])
	}
	finding := func(code, msg string) []Finding {
		return []Finding{{c.id, ledger.FileName, Error, code, msg}}
	}
	for i, h := range hs {
		switch {
		case h.removed > 0 && !h.tornFixed:
			return finding(LedgerRewritten, fmt.Sprintf("line %d of the parent %s's ledger was removed or rewritten: the ledger must only grow", h.removed, parent))
		case h.removed > 0:
			return finding(LedgerInvalid, fmt.Sprintf("the parent %s's ledger ended in a torn line (no newline) that this commit changed", parent))
		case len(h.added) > 0 && (h.insertedAt > 0 || i < len(hs)-1):
			return finding(LedgerInvalid, fmt.Sprintf("lines added before line %d of the parent %s's ledger: a commit appends at the end (only a merge interleaves)", h.insertedAt, parent))
		}
	}
	if len(hs) == 0 {
		return nil
	}
	h := hs[len(hs)-1]
	var body bytes.Buffer
	for i, l := range h.added {
		body.Write(l)
		if i < len(h.added)-1 || !h.addedTorn {
			body.WriteByte('\n')
		}
	}
	rep, ok := ledger.VerifyIncrement(h.before, h.beforeLine, &body)
	if !ok {
		return nil // a fork from further back (a rebase over a union merge): the last ledger's verification judges it
	}
	var fs []Finding
	for i, p := range rep.Errors {
		if i == maxLedgerProblems {
			fs = append(fs, Finding{c.id, ledger.FileName, Error, LedgerInvalid, fmt.Sprintf("and %d more problem(s) in the lines it added", len(rep.Errors)-i)})
			break
		}
		fs = append(fs, Finding{c.id, ledger.FileName, Error, LedgerInvalid, "the lines it added do not verify: " + p.String()})
	}
	return fs
}
