// Package audit judges a range of git history after the fact: for each
// commit, whether every changed path lay in the owned scope of an active
// intent of that commit's own catalog, and whether its content was traced
// by a ledger record. It reads git objects only, never the working tree.
// It does not decide anything live (that is gate) nor print (that is cli).
package audit

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/money"
	"github.com/intenthook/intenthook/internal/precommit"
	"github.com/intenthook/intenthook/internal/safetext"
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
	Code     string `json:"code"`
	Message  string `json:"message"`
}

// Finding codes: one rule each in SARIF.
const (
	OutOfScope        = "out_of_scope"
	Untraced          = "untraced"
	CatalogUnreadable = "catalog_unreadable"
	// CatalogRemoved: the parent has no catalog, but the history it
	// descends from held one: the rules were taken away, which adopts
	// nothing.
	CatalogRemoved = precommit.CodeCatalogRemoved
	// Unruled: a commit made on a history without the rules (forked
	// before they were adopted) that reached one with them: not judged.
	Unruled         = "unruled"
	LedgerShrank    = "ledger_shrank"
	LedgerRewritten = "ledger_rewritten"
	LedgerInvalid   = "ledger_invalid"
	// SelfWidening: a change only the rules the same commit changes allow.
	SelfWidening = "self_widening"
	// RulesCommittedByAgent: a commit an agent's command made that
	// changed the rules (a governance_tampered record names it).
	RulesCommittedByAgent = precommit.CodeRulesCommittedByAgent
	// CompleteUnapproved: an intent that requires review became COMPLETE
	// with no approve record in the ledger.
	CompleteUnapproved = "complete_unapproved"
	// RulesUnsigned: with --strict and an allowed-signers file, a commit
	// widening the rules without a good signature by an allowed key.
	RulesUnsigned = "rules_unsigned"
	// AttributesChanged: a .gitattributes changed what git does with a
	// governance file's bytes (listed; a warning).
	AttributesChanged = precommit.CodeAttributesChanged
	// PersonChange: an untraced change of a commit marked a person's
	// (precommit.PersonTrailer) where the parent's settings say
	// people.commits: free: a warning (an error with strict).
	PersonChange = precommit.CodePersonChange
)

// String is the finding's line; a path or message holding what a terminal
// would act on is quoted, so that it cannot forge a line.
func (f Finding) String() string {
	return fmt.Sprintf("%s %s: %s: %s", short(f.Commit), safetext.Quote(f.Path), f.Severity, safetext.Quote(f.Message))
}

// Result is what an audit found over a range.
type Result struct {
	Range    string      `json:"range"`
	Commits  int         `json:"commits"`
	Findings []Finding   `json:"findings"`
	Head     ledger.Head `json:"ledger_head"` // the range's last commit's ledger (its newest segment's head)
	// Heads are the head of every segment of the last commit's ledger (the
	// legacy file first); Digest is one digest over them.
	Heads  []ledger.FileHead `json:"ledger_heads,omitempty"`
	Digest string            `json:"ledger_digest,omitempty"`
	// Catalog lists the changes each commit made to the catalog, with its
	// author: a scope widened in the branch whose code it covers.
	Catalog []CatalogChange `json:"catalog_changes"`
	// Governance lists the changes each commit made to the other
	// governance files a person changes (agents' wiring, the settings,
	// the ignore files), with its author.
	Governance []GovernanceChange `json:"governance_changes"`
	// Adopted lists what each commit that adopts the rules (the first of
	// its history to add the catalog) holds: nothing in it is judged.
	Adopted []AdoptedPath `json:"adoptions"`
	// BeforeRules lists the commits whose history never held the rules:
	// made before their adoption, not judged.
	BeforeRules []string `json:"before_rules"`
	// Rules lists the commits that change the rules (the catalog or the
	// .intentignore), with their author and signature: an author's name
	// vouches for nothing, since agents commit under the person's.
	Rules []RulesCommit `json:"rules_commits"`
	// Intents sums the range up per intent (and "" for changes no intent
	// owns).
	Intents []IntentSummary `json:"intents"`
	// NewWriters lists the ledger writers (work trees) that first appear
	// in the range, each with the commit that brought it.
	NewWriters []NewWriter `json:"new_writers"`
	// IncrementsChecked is always set now: each commit's ledger increment
	// is checked against its parent whatever the ledger's size. Older
	// versions checked only sizes past 128 MB; readers of their output
	// look here.
	IncrementsChecked bool `json:"increments_checked"`

	// What attest builds its predicate from, commit by commit; --json
	// sums it up per intent instead.
	//
	// IDs are the range's commits, oldest first (as judged).
	IDs []string `json:"-"`
	// Changes are the changed paths each commit was judged on (neither
	// governance nor ignored), in IDs' order.
	Changes []Change `json:"-"`
	// Records are the ledger records the range added (with what a merged
	// branch appended), by timestamp.
	Records []*ledger.Record `json:"-"`
}

// Change is one path a commit changed that the rules judged.
type Change struct {
	Commit string
	Path   string
	// Intent is the active intent of the parent's catalog the change is
	// counted under (its first owner); "" for none.
	Intent string
	// Digest is the sha256 of the path's content at the commit; "" when
	// the commit deletes it.
	Digest string
	// Traced: a ledger record's post_hash is the content (a record of a
	// tool intenthook classifies).
	Traced bool
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
	author  string
	paths   []string
	// person is the commit's precommit.PersonTrailer value, "" for none:
	// what the commit-msg step wrote on a person's commit, or a forgery.
	person string
}

// Run audits the commits of rng (a rev-list range). Untraced content is a
// warning, an error when strict.
func Run(ctx context.Context, g *git.Repo, rng string, strict bool) (*Result, error) {
	commits, err := list(ctx, g, rng)
	if err != nil {
		return nil, err
	}
	res := &Result{Range: rng, Commits: len(commits), Findings: []Finding{}, Catalog: []CatalogChange{}, Governance: []GovernanceChange{}, Adopted: []AdoptedPath{}, BeforeRules: []string{}, Rules: []RulesCommit{}, Intents: []IntentSummary{}, NewWriters: []NewWriter{}}
	if len(commits) == 0 {
		return res, nil
	}
	// A commit that split the legacy file is judged by its own check:
	// its legacy file is gone, its lines moved.
	split, err := splits(ctx, g, commits)
	if err != nil {
		return nil, err
	}
	hasSplit := false
	legacyView := make([]commit, len(commits))
	for i, c := range commits {
		legacyView[i] = c
		if splitCommit(c) {
			hasSplit = true
			legacyView[i].paths = slices.DeleteFunc(slices.Clone(c.paths), func(p string) bool { return p == ledger.FileName })
		}
	}
	grows, since, err := ledgerGrows(ctx, g, legacyView, hasSplit)
	if err != nil {
		return nil, err
	}
	grows = append(grows, split...)
	res.IncrementsChecked = true
	segs, err := segmentGrowth(ctx, g, commits)
	if err != nil {
		return nil, err
	}
	grows = append(grows, segs...)
	lg, err := readLedger(ctx, g, commits[len(commits)-1].id, firstBase(commits), since)
	if err != nil {
		return nil, err
	}
	res.Head, res.Digest = lg.head, lg.report.Digest
	unrooted, writers, err := lineage(ctx, g, commits, lg.report)
	if err != nil {
		return nil, err
	}
	grows = append(grows, unrooted...)
	res.NewWriters = append(res.NewWriters, writers...)
	if res.Digest != "" {
		if lg.report.Size > 0 || lg.legacyHead.Hash != "" {
			res.Heads = append(res.Heads, lg.legacyHead)
		}
		res.Heads = append(res.Heads, lg.report.Segments...)
	}
	untraced := Warning
	if strict {
		untraced = Error
	}
	sum := newSummary()
	all, err := judgeAll(ctx, g, commits, lg.traced, untraced)
	if err != nil {
		return nil, err
	}
	res.Findings = append(res.Findings, unruled(commits, all, untraced)...)
	for k, c := range commits {
		j := all[k]
		res.Findings = append(res.Findings, j.findings...)
		sum.commit(c, j)
		res.IDs = append(res.IDs, c.id)
		for _, p := range j.paths {
			ch := Change{Commit: c.id, Path: p.path, Digest: p.digest, Traced: p.traced}
			if len(p.owners) > 0 {
				ch.Intent = p.owners[0]
			}
			res.Changes = append(res.Changes, ch)
		}
		for _, a := range j.adopted {
			res.Adopted = append(res.Adopted, AdoptedPath{Commit: c.id, Adoption: a})
		}
		if j.before {
			res.BeforeRules = append(res.BeforeRules, c.id)
			continue
		}
		for _, p := range c.paths {
			if reason, ok := precommit.Listed(p); ok && len(j.adopted) == 0 { // else listed as adopted
				res.Governance = append(res.Governance, GovernanceChange{Commit: c.id, Author: c.author, Path: p, Reason: reason})
			}
		}
		if slices.Contains(c.paths, intents.File) {
			res.Catalog = append(res.Catalog, diffCatalogs(c.id, c.author, j.rules.parent.Catalog, j.rules.own.Catalog)...)
		}
	}
	attrs, err := attributeChanges(ctx, g, commits, all)
	if err != nil {
		return nil, err
	}
	res.Findings = append(res.Findings, attrs...)
	rules, err := rulesCommits(ctx, g, commits, all, res.Catalog)
	if err != nil {
		return nil, err
	}
	res.Rules = rules
	if strict {
		fs, err := unsignedRules(ctx, g, rules)
		if err != nil {
			return nil, err
		}
		res.Findings = append(res.Findings, fs...)
	}
	res.Findings = append(res.Findings, lg.acts.agentCommits(commits)...)
	unapproved, err := lg.acts.unapproved(ctx, g, commits, all, res.Catalog)
	if err != nil {
		return nil, err
	}
	res.Findings = append(res.Findings, unapproved...)
	res.Findings = append(res.Findings, grows...)
	res.Findings = append(res.Findings, lg.findings(commits[len(commits)-1].id)...)
	gaps, err := traceGaps(ctx, g, commits, lg.records)
	if err != nil {
		return nil, err
	}
	res.Findings = append(res.Findings, gaps...)
	res.Intents = sum.intents(lg.records, res.Catalog, res.Findings)
	res.Records = lg.records
	return res, nil
}

// list returns the commits of rng, oldest first, each with its parents,
// author and changed paths, from two git processes. A merge's paths are its
// combined diff: merging the default branch in brings nothing already
// judged.
func list(ctx context.Context, g *git.Repo, rng string) ([]commit, error) {
	out, err := logRange(ctx, g, rng, "%H%x00%P%x00%an <%ae>%x00%(trailers:key="+precommit.PersonTrailer+",valueonly,unfold,separator=%x01)")
	if err != nil {
		return nil, err
	}
	var commits []commit
	index := map[string]int{}
	var ids strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\x00")
		if len(f) != 4 || f[0] == "" {
			continue
		}
		index[f[0]] = len(commits)
		person, _, _ := strings.Cut(f[3], "\x01")
		commits = append(commits, commit{id: f[0], parents: strings.Fields(f[1]), author: f[2], person: strings.TrimSpace(person)})
		ids.WriteString(f[0] + "\n")
	}
	if len(commits) == 0 {
		return nil, nil
	}
	// diff-tree --stdin names each commit, then its paths.
	names, err := git.OutputFed(ctx, g.Dir, g.Env, []byte(ids.String()), "diff-tree", "--stdin", "-r", "-c", "--root", "--name-only", "-z")
	if err != nil {
		return nil, err
	}
	cur := -1
	for _, name := range git.NulList(names) {
		if k, ok := index[strings.TrimSpace(name)]; ok {
			cur = k
			continue
		}
		if cur >= 0 {
			commits[cur].paths = append(commits[cur].paths, name)
		}
	}
	return commits, nil
}

// logRange is git log over rng in the order the commits are judged:
// oldest first, a parent before its children.
func logRange(ctx context.Context, g *git.Repo, rng, format string) ([]byte, error) {
	out, err := g.Output(ctx, "-c", "log.showSignature=false", "log", "--reverse", "--topo-order", "--format="+format, rng, "--")
	if err != nil {
		return nil, fmt.Errorf("log %s: %w", rng, err)
	}
	return out, nil
}

// Commits lists the commits of rng in the order Run judges them (Result's
// IDs), without judging them: one git process.
func Commits(ctx context.Context, g *git.Repo, rng string) ([]string, error) {
	out, err := logRange(ctx, g, rng, "%H")
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// ledgerGrows checks that the ledger only grows across the range, without
// diffing any commit's ledger whole. Each commit that is not a merge has its
// increment checked against its parent (increments: a byte prefix, and
// what it appended verified); every merge by size: its ledger must be at
// least as long as each parent's (object sizes, from one git process). The
// last commit's ledger must keep every line of the ledger each commit
// outside the range left (one diff per such base), unless a commit of the
// range was already found rewriting it (the same lines, named once, by the
// commit that changed them).
//
// since is the size of the smallest ledger a commit outside the range left
// (0 when the range starts at the root): what the last ledger holds past it
// was appended in the range (with what a merged branch appended).
func ledgerGrows(ctx context.Context, g *git.Repo, commits []commit, hasSplit bool) (fs []Finding, since int64, err error) {
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
		return nil, 0, err
	}
	for i, b := range bases {
		if size := sizes[index[b]]; i == 0 || size < since {
			since = size
		}
	}
	incs, err := increments(ctx, g, commits)
	if err != nil {
		return nil, 0, err
	}
	fs = append(fs, incs...)
	rewritten := rewrote(fs)
	for _, c := range commits {
		if len(c.parents) < 2 || hasSplit && !slices.Contains(c.paths, ledger.FileName) {
			continue
		}
		mine := sizes[index[c.id]]
		for _, p := range c.parents {
			if theirs := sizes[index[p]]; mine < theirs {
				fs = append(fs, Finding{c.id, ledger.FileName, Error, LedgerShrank, fmt.Sprintf("the ledger shrank from %d to %d bytes against the parent %s: the ledger must only grow", theirs, mine, short(p))})
			}
		}
	}
	last := commits[len(commits)-1]
	for _, b := range bases {
		if rewritten {
			break
		}
		var f []Finding
		var err error
		if hasSplit {
			f, err = keptBytes(ctx, g, last.id, b)
		} else {
			f, err = appendOnly(ctx, g, last.id, b)
		}
		if err != nil {
			return nil, 0, err
		}
		fs = append(fs, f...)
	}
	return fs, since, nil
}

// rewrote reports whether fs holds a rewritten ledger.
func rewrote(fs []Finding) bool {
	return slices.ContainsFunc(fs, func(f Finding) bool { return f.Code == LedgerRewritten })
}

// ledgerView is what the range's last ledger says: the digests it traces
// per path, its verified head, what its verification found, and the
// records appended in the range.
type ledgerView struct {
	traced     map[string]map[string]bool
	head       ledger.Head
	legacyHead ledger.FileHead
	report     ledger.Report
	records    []*ledger.Record
	acts       acts
}

// firstBase is the first parent outside the range of the range's commits,
// "" when the range starts at the root.
func firstBase(commits []commit) string {
	in := map[string]bool{}
	for _, c := range commits {
		in[c.id] = true
	}
	for _, c := range commits {
		for _, p := range c.parents {
			if !in[p] {
				return p
			}
		}
	}
	return ""
}

// readLedger reads the last commit's ledger once (the legacy file, then
// every segment, each blob through one cat-file process), verifying it as
// it goes: it holds every earlier commit's lines (append-only), so a digest
// recorded there traces content of any commit in the range. Only the lines
// appended in the range (past since in the legacy file, past each segment's
// size in base) are decoded.
func readLedger(ctx context.Context, g *git.Repo, last, base string, since int64) (*ledgerView, error) {
	lv := &ledgerView{traced: map[string]map[string]bool{}}
	record := func(line []byte, inRange bool) {
		lv.acts.line(line)
		if path, t, ok := precommit.TraceOf(line); ok {
			if lv.traced[path] == nil {
				lv.traced[path] = map[string]bool{}
			}
			lv.traced[path][t.PostHash] = true
		}
		if inRange {
			if rec, err := ledger.ParseLine(line); err == nil {
				lv.records = append(lv.records, rec)
			}
		}
	}
	tv := ledger.NewTreeVerifier()
	parts, err := g.Output(ctx, "ls-tree", "--name-only", last, "--", ledger.LegacyDir)
	if err != nil {
		return nil, fmt.Errorf("ls-tree %s: %w", short(last), err)
	}
	if len(parts) > 0 {
		// A split legacy file: its parts and file read as one.
		data, found, err := legacyBytes(ctx, g, last)
		if err != nil {
			return nil, err
		}
		if found {
			tv.Legacy(bytes.NewReader(data), func(line []byte, at int64) { record(line, at >= since) })
		}
	} else if err := g.ReadObjects(ctx, []string{last + ":" + ledger.FileName}, func(_ int, obj *git.Object) error {
		if obj != nil {
			tv.Legacy(obj.Body, func(line []byte, at int64) { record(line, at >= since) })
		}
		return nil
	}); err != nil {
		return nil, err
	}
	legacy := tv.Report()
	lv.legacyHead = ledger.FileHead{File: ledger.FileName, Records: legacy.Records, Seq: legacy.Head.Seq, Hash: legacy.Head.Hash}
	if err := readSegments(ctx, g, tv, last, base, record); err != nil {
		return nil, err
	}
	lv.report = tv.Report()
	lv.head = lv.report.Head
	slices.SortStableFunc(lv.records, func(a, b *ledger.Record) int {
		return strings.Compare(a.Timestamp, b.Timestamp)
	})
	return lv, err
}

// maxLedgerProblems bounds the verification problems reported one by one.
const maxLedgerProblems = 5

// findings turns what verifying the last ledger found into findings of
// the last commit.
func (lv *ledgerView) findings(last string) []Finding {
	var fs []Finding
	for i, p := range lv.report.Errors {
		if i == maxLedgerProblems {
			fs = append(fs, Finding{last, ledger.FileName, Error, LedgerInvalid, fmt.Sprintf("and %d more problem(s): run intenthook ledger verify on that commit", len(lv.report.Errors)-i)})
			break
		}
		file := ledger.FileName
		if p.File != "" {
			file = p.File
		}
		code := LedgerInvalid
		switch p.Code {
		case LedgerSealed:
			code = LedgerSealed
		case LedgerUnrooted:
			code = LedgerUnrooted
		}
		fs = append(fs, Finding{last, file, Error, code, "the ledger does not verify: " + p.String()})
	}
	return fs
}

// judgeAll checks each commit's changed paths against the rules of its
// first parent (catalog and .intentignore; a root commit has none), and
// reads the commit's own rules to tell a self-widening change from one out
// of scope, every object from one git process. Most commits of a range
// share their catalog: each distinct one is parsed once.
func judgeAll(ctx context.Context, g *git.Repo, commits []commit, traced map[string]map[string]bool, untraced string) ([]judged, error) {
	// Per commit, rulesItems objects: the parent's catalog and ignore
	// files, then the commit's own; then its paths.
	type slot struct{ commit, item int }
	nIgnore := len(workspace.IgnoreFiles)
	perSide := 1 + nIgnore
	rulesItems := 2 * perSide
	var names []string
	var slots []slot
	for k, c := range commits {
		parent := ""
		if len(c.parents) > 0 {
			parent = c.parents[0]
		}
		for side, id := range []string{parent, c.id} {
			for j, file := range append([]string{intents.File}, workspace.IgnoreFiles...) {
				if id == "" {
					file = "" // a root commit: no parent, no rules
				}
				names = append(names, id+":"+file)
				slots = append(slots, slot{k, side*perSide + j})
			}
		}
		for i, p := range c.paths {
			if precommit.Sidecar(p) {
				p = "" // governance files are not judged, nor read (the ledger is large)
			}
			names = append(names, c.id+":"+p)
			slots = append(slots, slot{k, rulesItems + i})
		}
	}
	reads := make([]commitRules, len(commits))
	ignores := make([][2][][]byte, len(commits)) // parent's, own
	for k, c := range commits {
		reads[k] = commitRules{hashes: make([]string, len(c.paths)), present: make([]bool, len(c.paths))}
		reads[k].parent.None = len(c.parents) == 0
		reads[k].parent.Root = reads[k].parent.None
		ignores[k] = [2][][]byte{make([][]byte, nIgnore), make([][]byte, nIgnore)}
	}
	type parse struct {
		catalog *intents.Catalog
		err     error
		data    []byte
	}
	parsed := map[string]parse{} // catalogs by object id
	err := g.ReadObjects(ctx, names, func(i int, obj *git.Object) error {
		s, r := slots[i], &reads[slots[i].commit]
		side, j := s.item/perSide, s.item%perSide
		rules := &r.parent
		if side == 1 {
			rules = &r.own
		}
		catalog := s.item < rulesItems && j == 0
		if catalog {
			r.catalogs[side] = obj != nil
		}
		if obj == nil {
			if catalog {
				rules.Err = fmt.Errorf("no %s", intents.File)
			}
			return nil
		}
		if catalog {
			if p, ok := parsed[obj.ID]; ok {
				rules.Catalog, rules.Err, r.catalogData[side] = p.catalog, p.err, p.data
				return nil
			}
		}
		data, err := io.ReadAll(obj.Body)
		if err != nil {
			return err
		}
		switch {
		case catalog:
			rules.Catalog, rules.Err = intents.Parse(data)
			if rules.Err != nil {
				rules.Catalog = nil
			}
			parsed[obj.ID] = parse{rules.Catalog, rules.Err, data}
			r.catalogData[side] = data
		case s.item < rulesItems:
			ignores[s.commit][side][j-1] = data
		default:
			r.hashes[s.item-rulesItems], r.present[s.item-rulesItems] = digest.Bytes(data), true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := historyRules(ctx, g, commits, reads); err != nil {
		return nil, err
	}
	free, err := peopleFree(ctx, g, commits)
	if err != nil {
		return nil, err
	}
	out := make([]judged, len(commits))
	for k, c := range commits {
		reads[k].parent.Ignore = workspace.ParseIgnore(ignores[k][0]...)
		reads[k].own.Ignore = workspace.ParseIgnore(ignores[k][1]...)
		if !free[k] {
			c.person = "" // the mark means nothing where the parent's settings say scoped
		}
		out[k] = judge(c, reads[k], traced, untraced)
	}
	return out, nil
}

// peopleFree tells, for each commit marked a person's, whether its first
// parent's settings say people.commits: free (a commit cannot loosen the
// rule it is judged by): one git process, only when the range has a
// marked commit.
func peopleFree(ctx context.Context, g *git.Repo, commits []commit) ([]bool, error) {
	free := make([]bool, len(commits))
	var names []string
	var which []int
	for k, c := range commits {
		if c.person != "" && len(c.parents) > 0 {
			names = append(names, c.parents[0]+":"+config.File)
			which = append(which, k)
		}
	}
	if len(names) == 0 {
		return free, nil
	}
	seen := map[string]bool{} // by the settings' object id
	err := g.ReadObjects(ctx, names, func(i int, obj *git.Object) error {
		if obj == nil {
			return nil
		}
		if f, ok := seen[obj.ID]; ok {
			free[which[i]] = f
			return nil
		}
		data, err := io.ReadAll(obj.Body)
		if err != nil {
			return err
		}
		c, err := config.Parse(data)
		f := err == nil && c.People.Commits == config.CommitsFree
		seen[obj.ID], free[which[i]] = f, f
		return nil
	})
	return free, err
}

// commitRules is what judgeAll read for one commit: the rules it is judged
// by (its first parent's), its own, and the digest of each changed path's
// content (when present).
type commitRules struct {
	parent, own precommit.Rules
	catalogs    [2]bool // whether the parent, and the commit, hold a catalog
	catalogData [2][]byte
	hashes      []string
	present     []bool
}

// adopts reports whether the commit adopts the rules: none before it, and
// it holds the catalog.
func (r *commitRules) adopts() bool { return r.parent.None && r.catalogs[1] }

// historyRules tells, for each commit whose first parent has no catalog,
// whether the history it descends from ever held one (git walks it once
// per distinct set of parents): never, and the commit is before the rules
// or adopts them; else they were removed.
func historyRules(ctx context.Context, g *git.Repo, commits []commit, reads []commitRules) error {
	last := map[string]string{}
	// never holds the commits of the range whose history, themselves
	// included, never held the catalog: a child of such commits alone needs
	// no walk of its own (commits come oldest first, parents before
	// children), so a long range before the adoption costs one walk, from
	// its base.
	never := map[string]bool{}
	for k, c := range commits {
		r := &reads[k]
		if len(c.parents) == 0 {
			never[c.id] = !r.catalogs[1]
			continue
		}
		if r.catalogs[0] {
			continue
		}
		id, known := "", true
		for _, p := range c.parents {
			known = known && never[p]
		}
		if !known {
			key := strings.Join(c.parents, " ")
			var ok bool
			if id, ok = last[key]; !ok {
				var err error
				if id, err = precommit.LastCatalogCommit(ctx, g, intents.File, c.parents...); err != nil {
					return err
				}
				last[key] = id
			}
		}
		if id == "" {
			r.parent = precommit.Rules{None: true}
			never[c.id] = !r.catalogs[1]
		} else {
			r.parent.Removed = id
		}
	}
	return nil
}

// judged is what judge found in one commit.
type judged struct {
	findings []Finding
	rules    commitRules
	changed  []string // the RulesFiles the commit changes, less a catalog changed by transitions only
	// transitions: the catalog's change is only what hooks' transitions
	// write (precommit.Transitions).
	transitions []precommit.Transition
	paths       []judgedPath
	adopted     []precommit.Adoption // the commit adopts the rules
	before      bool                 // no rules before the commit, and it adopts none
}

// judgedPath is one changed path that is neither governance nor ignored.
type judgedPath struct {
	path   string
	owners []string // active intents of the parent's catalog that own it
	digest string   // its content's sha256; "" for a deletion
	traced bool
}

// judge checks one commit's changed paths (their content's digest, when
// present) against its parent's rules: a path only the commit's own,
// changed rules allow is self-widening.
func judge(c commit, r commitRules, traced map[string]map[string]bool, untraced string) judged {
	j := judged{rules: r}
	for _, p := range c.paths {
		if precommit.IsRules(p) {
			j.changed = append(j.changed, p)
		}
	}
	if slices.Contains(j.changed, intents.File) {
		if tr, ok := precommit.Transitions(r.catalogData[0], r.catalogData[1], r.parent.Catalog, r.own.Catalog); ok {
			j.transitions = tr
			j.changed = slices.DeleteFunc(j.changed, func(f string) bool { return f == intents.File })
		}
	}
	switch {
	case r.adopts():
		j.adopted = precommit.Adopted(c.paths, c.author)
		return j
	case r.parent.None:
		j.before = !r.parent.Root
		return j
	}
	for i, p := range c.paths {
		if precommit.Exempt(p, r.parent.Ignore) {
			continue
		}
		jp := judgedPath{path: p}
		switch {
		case r.parent.Removed != "":
			j.findings = append(j.findings, Finding{c.id, p, Error, CatalogRemoved, precommit.RemovedMessage("the parent "+short(c.parents[0]), r.parent.Removed)})
		case r.parent.Catalog == nil:
			j.findings = append(j.findings, Finding{c.id, p, Error, CatalogUnreadable, fmt.Sprintf("the parent's catalog, which the commit is judged by, cannot be read: %v", r.parent.Err)})
		default:
			jp.owners = precommit.Owners(r.parent.Catalog, r.own.Catalog, p)
			if len(jp.owners) > 0 {
				break
			}
			if len(j.changed) > 0 && (r.own.Ignore.Match(p, false) || r.own.Catalog != nil && len(owners(r.own.Catalog, p)) > 0) {
				j.findings = append(j.findings, Finding{c.id, p, Error, SelfWidening, precommit.SelfWideningMessage(j.changed)})
			} else {
				j.findings = append(j.findings, Finding{c.id, p, Error, OutOfScope, "outside the owned_scope of every IN_PROGRESS or COMPLETE intent of the parent's catalog"})
			}
		}
		if r.present[i] {
			jp.digest = r.hashes[i]
		}
		jp.traced = traced[p][jp.digest]
		if !jp.traced && c.person != "" && r.parent.Removed == "" && r.parent.Catalog != nil {
			// A person's change: what was said of its scope above was
			// said of an agent's.
			if n := len(j.findings); n > 0 && j.findings[n-1].Path == p && (j.findings[n-1].Code == OutOfScope || j.findings[n-1].Code == SelfWidening) {
				j.findings = j.findings[:n-1]
			}
			what := "no ledger record"
			if len(jp.owners) == 0 {
				what = "outside every intent, " + what
			}
			j.findings = append(j.findings, Finding{c.id, p, untraced, PersonChange, "a person's change (marked " + precommit.PersonTrailer + ": " + c.person + "): " + what})
		} else if !jp.traced {
			what := "content not traced: no ledger record ends in it"
			if !r.present[i] {
				what = "deletion not traced: no ledger record deletes it"
			}
			j.findings = append(j.findings, Finding{c.id, p, untraced, Untraced, what})
		}
		j.paths = append(j.paths, jp)
	}
	return j
}

// AdoptedPath is a path of a commit that adopts the rules.
type AdoptedPath struct {
	Commit string `json:"commit"`
	precommit.Adoption
}

// String is the path's output line.
func (a AdoptedPath) String() string { return short(a.Commit) + " " + a.Adoption.String() }

// unruled finds the commits made on a history without the rules that are
// not the history an adoption of the range was made on: a branch forked
// before the adoption and merged into a history with the rules. Nothing
// judged them; each is a finding of severity sev. A range without rules
// anywhere is history before the adoption, and has none.
func unruled(commits []commit, all []judged, sev string) []Finding {
	index := map[string]int{}
	ruled := false
	var stack []int
	for k, c := range commits {
		index[c.id] = k
		switch {
		case len(all[k].adopted) > 0:
			ruled = true
			stack = append(stack, k)
		case !all[k].before && !all[k].rules.parent.None:
			ruled = true
		}
	}
	if !ruled {
		return nil
	}
	under := make([]bool, len(commits)) // the history an adoption was made on
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range commits[k].parents {
			if i, ok := index[p]; ok && !under[i] {
				under[i] = true
				stack = append(stack, i)
			}
		}
	}
	var fs []Finding
	for k, c := range commits {
		if !all[k].before || under[k] {
			continue
		}
		for _, p := range c.paths {
			fs = append(fs, Finding{c.id, p, sev, Unruled, "made on a history without the rules (forked before they were adopted) and merged into one with them: not judged"})
		}
	}
	return fs
}

// owners returns the valid IN_PROGRESS, IN_REVIEW or COMPLETE intents of c that own
// rel (precommit's rule).
func owners(c *intents.Catalog, rel string) []string {
	var ids []string
	for _, in := range c.All() {
		if in.Status != intents.InProgress && in.Status != intents.InReview && in.Status != intents.Complete || !in.Valid() {
			continue
		}
		if _, ok := in.Match(rel); ok {
			ids = append(ids, in.ID)
		}
	}
	return ids
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
	for _, c := range r.Catalog {
		fmt.Fprintln(&b, c)
	}
	for _, c := range r.Governance {
		fmt.Fprintln(&b, c)
	}
	for _, a := range r.Adopted {
		fmt.Fprintln(&b, a)
	}
	for _, c := range r.Rules {
		fmt.Fprintln(&b, c)
	}
	for _, n := range r.NewWriters {
		fmt.Fprintln(&b, n)
	}
	before := ""
	if n := len(r.BeforeRules); n > 0 {
		before = fmt.Sprintf(" (%d before the rules were adopted, not judged)", n)
	}
	fmt.Fprintf(&b, "audit %s: %d commit(s)%s, %d error(s), %d warning(s); %s\n", r.Range, r.Commits, before, errs, warns, r.ledgerHead("", ""))
	w.Write(b.Bytes())
}

// appendOnly checks that commit id's ledger keeps every line of base's:
// lines may be added anywhere (a union merge interleaves two branches'
// appends) but none removed or rewritten. git compares the two blobs (in
// C, its output only what changed).
func appendOnly(ctx context.Context, g *git.Repo, id, base string) ([]Finding, error) {
	out, err := g.Output(ctx, git.ByteDiff("diff-tree", "-p", "-U0", base, id, "--", ledger.FileName)...)
	if err != nil {
		return nil, fmt.Errorf("diff-tree %s %s: %w", short(base), short(id), err)
	}
	if n, removed := git.FirstRemoved(out); removed {
		return []Finding{{id, ledger.FileName, Error, LedgerRewritten, fmt.Sprintf("line %d of %s's ledger was removed or rewritten: the ledger must only grow", n, short(base))}}, nil
	}
	return nil, nil
}

// keptBytes is appendOnly for a range that split the legacy file: the last
// commit's legacy ledger (parts, then file) begins with base's.
func keptBytes(ctx context.Context, g *git.Repo, id, base string) ([]Finding, error) {
	mine, _, err := legacyBytes(ctx, g, id)
	if err != nil {
		return nil, err
	}
	theirs, _, err := legacyBytes(ctx, g, base)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(mine, theirs) {
		n := 1 + bytes.Count(theirs[:commonPrefix(mine, theirs)], []byte("\n"))
		return []Finding{{id, ledger.FileName, Error, LedgerRewritten, fmt.Sprintf("line %d of %s's ledger was removed or rewritten: the ledger must only grow", n, short(base))}}, nil
	}
	return nil, nil
}

// Markdown writes a pull-request summary: the verdict and counts, the
// ledger head, a table per intent, the catalog's changes with their
// authors, and the findings.
func (r *Result) Markdown(w io.Writer) {
	var b bytes.Buffer
	errs, warns := r.counts()
	verdict := "passed"
	if errs > 0 {
		verdict = "failed"
	}
	fmt.Fprintf(&b, "### intenthook audit %s\n\n", verdict)
	fmt.Fprintf(&b, "`%s`: %d commit(s), %d error(s), %d warning(s). %s.\n", r.Range, r.Commits, errs, warns, r.ledgerHead("Ledger", "`"))
	if len(r.Intents) > 0 {
		b.WriteString("\n| intent | files | traced | sessions | models | denials | violations | scope changes | findings |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
		for _, x := range r.Intents {
			name := "no intent"
			if x.Intent != "" {
				name = "`" + cell(x.Intent) + "`"
				if x.Name != "" {
					name += " " + cell(x.Name)
				}
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s | %s | %d |\n", name, len(x.Files), tracedText(x.Traced, x.Changes),
				countText(len(x.Sessions)), listText(x.Models), codesText(x.Denials), codesText(x.Violations), listText(x.Catalog), x.Findings)
		}
	}
	r.answersMarkdown(&b)
	r.spendMarkdown(&b)
	if len(r.Catalog) > 0 {
		b.WriteString("\n**Catalog changes**\n\n| commit | author | intent | change |\n| --- | --- | --- | --- |\n")
		for _, c := range r.Catalog {
			fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s %s |\n", short(c.Commit), cell(c.Author), cell(c.Intent), strings.ReplaceAll(c.Change, "_", " "), cell(c.Detail))
		}
	}
	if len(r.Governance) > 0 {
		b.WriteString("\n**Governance changes**\n\n| commit | author | file | what it is |\n| --- | --- | --- | --- |\n")
		for _, c := range r.Governance {
			fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s |\n", short(c.Commit), cell(c.Author), cell(c.Path), cell(c.Reason))
		}
	}
	if len(r.Adopted) > 0 {
		b.WriteString("\n**Rules adopted** (the first commit of its history to hold the catalog: nothing in it is judged)\n\n| commit | author | file | what it is |\n| --- | --- | --- | --- |\n")
		for _, a := range r.Adopted {
			what := "changed in the commit that adopts the rules, not judged"
			if a.Reason != "" {
				what = "governance adopted: " + a.Reason
			}
			fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s |\n", short(a.Commit), cell(a.Author), cell(a.Path), cell(what))
		}
	}
	if len(r.BeforeRules) > 0 {
		fmt.Fprintf(&b, "\n%d commit(s) of the range came before the rules were adopted: not judged.\n", len(r.BeforeRules))
	}
	if len(r.Rules) > 0 {
		b.WriteString("\n**Rules changes** (a commit is judged by its parent's rules)\n\n| commit | author | signature | files | |\n| --- | --- | --- | --- | --- |\n")
		for _, c := range r.Rules {
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", short(c.Commit), cell(c.Author), c.Signature, cell(strings.Join(c.Files, ", ")), c.what())
		}
	}
	if len(r.NewWriters) > 0 {
		b.WriteString("\n**New ledger writers** (work trees whose records first appear in the range)\n\n| commit | author | writer | records | first segment |\n| --- | --- | --- | --- | --- |\n")
		for _, n := range r.NewWriters {
			fmt.Fprintf(&b, "| `%s` | %s | `%s` | %d in %d segment(s) | `%s` |\n", short(n.Commit), cell(n.Author), n.Writer, n.Records, n.Segments, cell(n.Segment))
		}
	}
	if len(r.Findings) > 0 {
		b.WriteString("\n**Findings**\n\n| commit | path | severity | finding |\n| --- | --- | --- | --- |\n")
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", short(f.Commit), cell(f.Path), f.Severity, cell(f.Message))
		}
	}
	w.Write(b.Bytes())
}

func tracedText(traced, changes int) string {
	if changes == 0 {
		return "—"
	}
	return fmt.Sprintf("%d%% (%d/%d)", traced*100/changes, traced, changes)
}

func countText(n int) string {
	if n == 0 {
		return "—"
	}
	return fmt.Sprint(n)
}

func listText(xs []string) string {
	if len(xs) == 0 {
		return "—"
	}
	return cell(strings.Join(xs, ", "))
}

// codesText renders counts by code, most frequent first.
func codesText(m map[string]int) string {
	if len(m) == 0 {
		return "—"
	}
	codes := make([]string, 0, len(m))
	for c := range m {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		if m[codes[i]] != m[codes[j]] {
			return m[codes[i]] > m[codes[j]]
		}
		return codes[i] < codes[j]
	})
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%s ×%d", cell(c), m[c])
	}
	return strings.Join(parts, ", ")
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

// cell keeps a value inside one table cell: quoted when it holds what a
// terminal or a renderer would act on, then its Markdown escaped.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "`", "'", "<", "&lt;", ">", "&gt;").Replace(safetext.Quote(s))
}

// ledgerHead names the ledger's state at the range's end: its tip (the
// newest record, SEQ:HASH, what ledger verify --checkpoint takes) when it
// is one file; with segments, the segment heads (one digest over every
// file's newest line) and the tip.
func (r *Result) ledgerHead(word, tick string) string {
	if word == "" {
		word = "ledger"
	}
	if r.Digest == "" && r.Head.Hash == "" {
		return fmt.Sprintf("%s: no records", word)
	}
	if r.Digest == "" {
		return fmt.Sprintf("%s tip %s%d:%s%s", word, tick, r.Head.Seq, r.Head.Hash, tick)
	}
	return fmt.Sprintf("%s segment heads %s%s%s (%d file(s); tip %s%d:%s%s)", word, tick, r.Digest, tick, len(r.Heads), tick, r.Head.Seq, r.Head.Hash, tick)
}

// answersMarkdown writes the asks a person answered in the range, each
// with who answered (an attribution: git's identity or the OS user) and
// how long the call waited.
func (r *Result) answersMarkdown(b *bytes.Buffer) {
	head := false
	for _, x := range r.Intents {
		for _, a := range x.Answers {
			if !head {
				b.WriteString("\n**Asks a person answered**\n\n| intent | ask | answer | by | waited | reason |\n| --- | --- | --- | --- | --- | --- |\n")
				head = true
			}
			answer := a.Decision
			if a.Code != "" {
				answer += " ahead: " + a.Code
			}
			fmt.Fprintf(b, "| `%s` | `%s` | %s | %s | %s | %s |\n", cell(x.Intent), cell(a.Ask), cell(answer), cell(a.By),
				asks.Record{WaitedMS: a.WaitedMS}.Waited(), cell(a.Reason))
		}
	}
}

// spendMarkdown writes what the range cost: per intent, each model its
// records' usage names, then the intent's total when it used more than
// one, and the range's total; then the range's cost per session and per
// agent. Nothing when no record carries usage.
func (r *Result) spendMarkdown(b *bytes.Buffer) {
	var all ledger.Spend
	head := false
	for _, x := range r.Intents {
		if x.Spend == nil {
			continue
		}
		if !head {
			head = true
			b.WriteString("\n**Cost** (what the agents' transcripts recorded; dollars where config.yaml prices the model)\n\n| intent | model | calls | tokens | usd |\n| --- | --- | --- | --- | --- |\n")
		}
		for _, m := range x.Spend.Models {
			fmt.Fprintf(b, "| `%s` | %s | %d | %d | %s |\n", cell(x.Intent), modelCell(m.Model), m.Calls, m.Tokens, money.Format(int64(m.USD)))
		}
		if len(x.Spend.Models) > 1 {
			fmt.Fprintf(b, "| `%s` | all | %d | %d | %s |\n", cell(x.Intent), x.Spend.Calls, x.Spend.Tokens, money.Format(int64(x.Spend.USD)))
		}
		all.Merge(x.Spend)
	}
	if !head {
		return
	}
	fmt.Fprintf(b, "| **all** | | %d | %d | %s |\n", all.Calls, all.Tokens, money.Format(int64(all.USD)))
	b.WriteString("\n| session | calls | tokens | usd |\n| --- | --- | --- | --- |\n")
	for _, x := range all.Sessions {
		shareRow(b, "`"+cell(x.Session)+"`", x.Share)
	}
	b.WriteString("\n| agent | calls | tokens | usd |\n| --- | --- | --- | --- |\n")
	for _, x := range all.Agents {
		shareRow(b, "`"+cell(x.Agent)+"`", x.Share)
	}
}

// shareRow writes one row of a spend table: its name cell, then the share.
func shareRow(b *bytes.Buffer, name string, sh ledger.Share) {
	fmt.Fprintf(b, "| %s | %d | %d | %s |\n", name, sh.Calls, sh.Tokens, money.Format(int64(sh.USD)))
}

// modelCell is a model's name in a table cell; "" is usage that named none.
func modelCell(model string) string {
	if model == "" {
		return "no model named"
	}
	return "`" + cell(model) + "`"
}
