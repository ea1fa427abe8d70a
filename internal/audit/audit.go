// Package audit judges a range of git history after the fact: for each
// commit, whether every changed path lay in the owned scope of an active
// intent of that commit's own catalog, and whether its content was traced
// by a ledger record. It reads git objects only, never the working tree.
// It does not decide anything live (that is gate) nor print (that is cli).
package audit

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/precommit"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Severity of a finding: errors fail the audit, warnings only with strict.
const (
	Error   = "error"
	Warning = "warning"
)

// Finding is one thing a commit did that the governance does not explain.
type Finding struct {
	Commit   string `json:"commit"`
	Path     string `json:"path"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

func (f Finding) String() string {
	return fmt.Sprintf("%s %s: %s: %s", short(f.Commit), f.Path, f.Severity, f.Message)
}

// Result is what an audit found over a range.
type Result struct {
	Range    string      `json:"range"`
	Commits  int         `json:"commits"`
	Findings []Finding   `json:"findings"`
	Head     ledger.Head `json:"ledger_head"` // the range's last commit's ledger
}

// Failed reports whether any finding is an error.
func (r *Result) Failed() bool {
	for _, f := range r.Findings {
		if f.Severity == Error {
			return true
		}
	}
	return false
}

type commit struct {
	id      string
	parents []string
	paths   []string
}

// Run audits the commits of rng (a rev-list range). Untraced content is a
// warning, an error when strict.
func Run(ctx context.Context, g *git.Repo, rng string, strict bool) (*Result, error) {
	out, err := g.Output(ctx, "rev-list", "--reverse", "--topo-order", "--parents", rng)
	if err != nil {
		return nil, fmt.Errorf("rev-list %s: %w", rng, err)
	}
	res := &Result{Range: rng, Findings: []Finding{}}
	var commits []commit
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		id := f[0]
		// -c: a merge is judged by its combined diff only, so merging the
		// default branch in brings nothing already judged.
		names, err := g.Output(ctx, "diff-tree", "-r", "-c", "--root", "--no-commit-id", "--name-only", "-z", id)
		if err != nil {
			return nil, fmt.Errorf("diff-tree %s: %w", id, err)
		}
		commits = append(commits, commit{id: id, parents: f[1:], paths: git.NulList(names)})
	}
	res.Commits = len(commits)
	if len(commits) == 0 {
		return res, nil
	}
	traced, head, err := readTraces(ctx, g, commits[len(commits)-1].id)
	if err != nil {
		return nil, err
	}
	res.Head = head
	untraced := Warning
	if strict {
		untraced = Error
	}
	for _, c := range commits {
		fs, err := judge(ctx, g, c, traced, untraced)
		if err != nil {
			return nil, err
		}
		res.Findings = append(res.Findings, fs...)
	}
	fs, err := ledgerGrows(ctx, g, commits)
	if err != nil {
		return nil, err
	}
	res.Findings = append(res.Findings, fs...)
	return res, nil
}

// ledgerGrows checks that the ledger only grows across the range, without
// reading every commit's ledger (each is the whole history): every commit
// that changes it must leave it at least as long as each parent's (object
// sizes, from one git process), and the last commit's must keep every line
// of the ledger each commit outside the range left (one diff per such
// base). A line rewritten and restored between the two is not seen; its
// end result is.
func ledgerGrows(ctx context.Context, g *git.Repo, commits []commit) ([]Finding, error) {
	inRange := map[string]bool{}
	for _, c := range commits {
		inRange[c.id] = true
	}
	var names []string
	index := map[string]int{}
	add := func(id string) {
		if _, ok := index[id]; !ok {
			index[id] = len(names)
			names = append(names, id+":"+ledger.FileName)
		}
	}
	var bases []string
	for _, c := range commits {
		add(c.id)
		for _, p := range c.parents {
			add(p)
			if !inRange[p] && !slices.Contains(bases, p) {
				bases = append(bases, p)
			}
		}
	}
	sizes := make([]int64, len(names))
	if err := g.ObjectSizes(ctx, names, sizes); err != nil {
		return nil, err
	}
	var fs []Finding
	for _, c := range commits {
		mine := sizes[index[c.id]]
		for _, p := range c.parents {
			if theirs := sizes[index[p]]; mine < theirs {
				fs = append(fs, Finding{c.id, ledger.FileName, Error, fmt.Sprintf("the ledger shrank from %d to %d bytes against the parent %s: the ledger must only grow", theirs, mine, short(p))})
			}
		}
	}
	last := commits[len(commits)-1]
	for _, b := range bases {
		f, err := appendOnly(ctx, g, last.id, b)
		if err != nil {
			return nil, err
		}
		fs = append(fs, f...)
	}
	return fs, nil
}

// readTraces reads the last commit's ledger once: it holds every earlier
// commit's lines (append-only), so a digest recorded there traces content of
// any commit in the range.
func readTraces(ctx context.Context, g *git.Repo, last string) (map[string]map[string]bool, ledger.Head, error) {
	traced := map[string]map[string]bool{}
	var head ledger.Head
	err := g.ReadObjects(ctx, []string{last + ":" + ledger.FileName}, func(_ int, obj *git.Object) error {
		if obj == nil {
			return nil
		}
		sc := bufio.NewScanner(obj.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if len(line) == 0 {
				continue
			}
			if path, t, ok := precommit.TraceOf(line); ok {
				if traced[path] == nil {
					traced[path] = map[string]bool{}
				}
				traced[path][t.PostHash] = true
			}
			if rec, err := ledger.ParseLine(line); err == nil {
				head = ledger.Head{Seq: rec.Metadata.Intenthook.Seq, Hash: digest.Bytes(line)}
			}
		}
		return sc.Err()
	})
	return traced, head, err
}

// judge checks one commit's changed paths against its own catalog and
// .intentignore.
func judge(ctx context.Context, g *git.Repo, c commit, traced map[string]map[string]bool, untraced string) ([]Finding, error) {
	names := []string{c.id + ":" + intents.File, c.id + ":" + workspace.IgnoreFile}
	for _, p := range c.paths {
		if workspace.Sidecar(p, "") {
			p = "" // governance files are not judged, nor read (the ledger is large)
		}
		names = append(names, c.id+":"+p)
	}
	var catalog *intents.Catalog
	var catalogErr error
	ignore := workspace.ParseIgnore(nil)
	hashes := make([]string, len(c.paths))
	present := make([]bool, len(c.paths))
	err := g.ReadObjects(ctx, names, func(i int, obj *git.Object) error {
		if obj == nil {
			if i == 0 {
				catalogErr = fmt.Errorf("no %s", intents.File)
			}
			return nil
		}
		data, err := io.ReadAll(obj.Body)
		if err != nil {
			return err
		}
		switch i {
		case 0:
			catalog, catalogErr = intents.Parse(data)
		case 1:
			ignore = workspace.ParseIgnore(data)
		default:
			hashes[i-2], present[i-2] = digest.Bytes(data), true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var fs []Finding
	for i, p := range c.paths {
		if precommit.Exempt(p, ignore) {
			continue
		}
		switch {
		case catalogErr != nil || catalog == nil:
			fs = append(fs, Finding{c.id, p, Error, fmt.Sprintf("the commit's catalog cannot be read: %v", catalogErr)})
		case !precommit.InScope(catalog, p):
			fs = append(fs, Finding{c.id, p, Error, "outside the owned_scope of every IN_PROGRESS or COMPLETE intent of the commit's catalog"})
		}
		want := ""
		if present[i] {
			want = hashes[i]
		}
		if !traced[p][want] {
			what := "content not traced: no ledger record ends in it"
			if !present[i] {
				what = "deletion not traced: no ledger record deletes it"
			}
			fs = append(fs, Finding{c.id, p, untraced, what})
		}
	}
	return fs, nil
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// Text writes the findings and a summary line.
func (r *Result) Text(w io.Writer) {
	var b bytes.Buffer
	errs, warns := 0, 0
	for _, f := range r.Findings {
		fmt.Fprintln(&b, f)
		if f.Severity == Error {
			errs++
		} else {
			warns++
		}
	}
	fmt.Fprintf(&b, "audit %s: %d commit(s), %d error(s), %d warning(s); ledger head %d:%s\n", r.Range, r.Commits, errs, warns, r.Head.Seq, r.Head.Hash)
	w.Write(b.Bytes())
}

// DefaultRange is the merge base with the default branch (origin's HEAD,
// else main, else master) up to HEAD: what a pull request adds.
func DefaultRange(ctx context.Context, g *git.Repo) (string, error) {
	candidates := []string{"main", "master"}
	if ref, err := g.Line(ctx, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil && ref != "" {
		candidates = append([]string{ref}, candidates...)
	}
	for _, b := range candidates {
		if base, err := g.Line(ctx, "merge-base", b, "HEAD"); err == nil && base != "" {
			return base + "..HEAD", nil
		}
	}
	return "", fmt.Errorf("no default branch (origin/HEAD, main, master) to start the range from: give a REVISION-RANGE")
}

// appendOnly checks that commit id's ledger keeps every line of base's:
// lines may be added anywhere (a union merge interleaves two branches'
// appends) but none removed or rewritten. git compares the two blobs (in
// C, its output only what changed).
func appendOnly(ctx context.Context, g *git.Repo, id, base string) ([]Finding, error) {
	out, err := g.Output(ctx, "diff-tree", "-p", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", base, id, "--", ledger.FileName)
	if err != nil {
		return nil, fmt.Errorf("diff-tree %s %s: %w", short(base), short(id), err)
	}
	if n, removed := git.FirstRemoved(out); removed {
		return []Finding{{id, ledger.FileName, Error, fmt.Sprintf("line %d of %s's ledger was removed or rewritten: the ledger must only grow", n, short(base))}}, nil
	}
	return nil, nil
}

// Markdown writes a pull-request summary: the counts, the ledger head and
// a table of the findings.
func (r *Result) Markdown(w io.Writer) {
	var b bytes.Buffer
	errs, warns := r.counts()
	verdict := "passed"
	if errs > 0 {
		verdict = "failed"
	}
	fmt.Fprintf(&b, "### intenthook audit %s\n\n", verdict)
	fmt.Fprintf(&b, "`%s`: %d commit(s), %d error(s), %d warning(s). Ledger head `%d:%s`.\n", r.Range, r.Commits, errs, warns, r.Head.Seq, r.Head.Hash)
	if len(r.Findings) > 0 {
		b.WriteString("\n| commit | path | severity | finding |\n| --- | --- | --- | --- |\n")
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", short(f.Commit), cell(f.Path), f.Severity, cell(f.Message))
		}
	}
	w.Write(b.Bytes())
}

func (r *Result) counts() (errs, warns int) {
	for _, f := range r.Findings {
		if f.Severity == Error {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
}

// cell keeps a value inside one table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "`", "'").Replace(s)
}
