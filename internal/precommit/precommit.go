// Package precommit is the git backstop of SPEC §14: it judges the changes a
// commit stages against the rules of HEAD (its catalog and .intentignore:
// a commit cannot widen the rules it is judged by) and the staged ledger, so that what the hooks could not see (a person's edit, an agent
// run without hooks, a hook Claude Code skipped) is caught before it is
// committed. It only reads: the pre-commit framework fails a hook that
// modifies files, and a check must not change what it checks.
package precommit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Finding codes.
const (
	CodeCatalogInvalid = "catalog_invalid"
	CodeLedgerInvalid  = "ledger_invalid"
	CodeOutOfScope     = "out_of_scope"
	CodeUntraced       = "untraced"
	// CodeSelfWidening is a change only the rules the same commit changes
	// allow: a commit may not widen the rules it is judged by.
	CodeSelfWidening = "self_widening"
	// CodeRulesChanged lists a commit that changes the rules.
	CodeRulesChanged = "rules_changed"
	// CodeRulesCommittedByAgent: HEAD holds a governance file as a commit
	// an agent's command made left it.
	CodeRulesCommittedByAgent = "rules_committed_by_agent"
	// CodePersonChange is an untraced change of a person's commit under
	// people.commits: free: listed, not refused; the commit-msg step
	// marks the commit (PersonTrailer) for audit.
	CodePersonChange = "person_change"
)

// RulesFiles are the files whose content decides what a change needs: the
// catalog and the .intentignore. A commit is judged by its parent's.
var RulesFiles = append([]string{intents.File}, workspace.IgnoreFiles...)

// IsRules reports whether rel is one of RulesFiles, or a workspace's
// agent description (.orchestration/agents/NAME.json), which decides which
// of the agent's tools write and where: audit counts any change to one as
// widening.
func IsRules(rel string) bool {
	if name, ok := strings.CutPrefix(rel, ".orchestration/agents/"); ok && strings.HasSuffix(name, ".json") && !strings.Contains(name, "/") {
		return true
	}
	return slices.Contains(RulesFiles, rel)
}

// Rules are the catalog and .intentignore a commit is judged by: its
// parent's (HEAD's, for what is staged).
type Rules struct {
	// None: no rules before the commit: it has no parent (Root), or no
	// commit its parent descends from ever held a catalog. A commit that
	// adds the catalog then adopts the rules: it is their root, and
	// nothing in it is judged.
	None bool
	Root bool
	// Removed is the newest commit that changed the catalog, when the
	// parent has none but descends from one that had: the rules were
	// taken away, which adopts nothing (CodeCatalogRemoved).
	Removed string
	// Catalog is nil when the parent has none or it does not parse (Err).
	Catalog *intents.Catalog
	Err     error
	Ignore  *workspace.Ignore
	// Agents are the rows of the workspace's agent descriptions as the
	// parent holds them: the wiring each names (.acme/hooks.json) is
	// listed and exempt like a built-in agent's, and named by the rules
	// the commit is judged by, not by a description it stages.
	Agents governed.Table
}

// listed says why a change to rel is listed among the commit's governance
// changes, by every agent's rows and the parent's descriptions'.
func (r *Rules) listed(rel string) (string, bool) {
	if reason, ok := Listed(rel); ok {
		return reason, ok
	}
	return workspace.GovernanceChange(r.Agents, rel)
}

// exempt is Exempt under these rules: a described agent's wiring too.
func (r *Rules) exempt(rel string) bool {
	return Exempt(rel, r.Ignore) || r.Agents.Sidecar(rel)
}

// SelfWideningMessage is the finding's text, naming the rules files the
// commit changes.
func SelfWideningMessage(changed []string) string {
	return "allowed only by the rules this commit changes (" + strings.Join(changed, ", ") + "): commit the rules change first"
}

// Severity of a finding: an error fails the commit.
type Severity string

// Severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Finding is one problem with the commit.
type Finding struct {
	Severity Severity
	Code     string
	Path     string // workspace-relative
	Message  string
}

// String is the finding's output line.
func (f Finding) String() string {
	// A path holding a line break could otherwise forge a line.
	return fmt.Sprintf("%s %s %s: %s", f.Severity, f.Code, safetext.Quote(f.Path), safetext.Quote(f.Message))
}

// Staged is one staged path and what the index holds for it.
type Staged struct {
	Path    string // workspace-relative
	Deleted bool   // the index has no entry: the commit deletes it
	Hash    string // digest of the staged content, when not deleted
	// Unreadable says why the staged content could not be read; the path is
	// then judged for scope only, and counts as untraced.
	Unreadable string
}

// Trace is the newest ledger record of a path's content.
type Trace struct {
	Seq      int64
	PostHash string // "" when the record says the file is gone
	Tool     string `json:",omitempty"` // an ATTRIBUTED record's tool
	Stamp    string `json:",omitempty"` // the record's timestamp, for the canonical order
}

// Snapshot is everything the check decides on, loaded beforehand.
type Snapshot struct {
	Staged []Staged
	// Parent holds HEAD's rules: each staged change is judged by them.
	Parent Rules
	// Catalog is the staged catalog, checked for validity and read, with
	// the staged Ignore, to tell a self-widening change from one out of
	// scope; nil when it is not YAML (CatalogErr).
	Catalog    *intents.Catalog
	CatalogErr error
	Ignore     *workspace.Ignore
	// RulesChanged lists the RulesFiles the commit stages, less a catalog
	// whose only change is Transitions.
	RulesChanged []string
	// Transitions are the catalog's changes when they are only what a
	// hook's transitions write (Transitions).
	Transitions []Transition
	Traces      map[string]Trace // by path; absent: no record
	// Attributed holds, by path, the newest ATTRIBUTED record: named when
	// the staged content is otherwise untraced.
	Attributed map[string]Trace
	Ledger     ledger.Report
	// Extends holds the findings of the commit's ledger and attributes: a
	// staged ledger that drops or rewrites lines of HEAD's, one that is not
	// the work tree's, a .gitattributes that changes a governance file's.
	Extends []Finding
	// Author is the commit's author ("Name <email>"), for the governance
	// changes it lists.
	Author string
	// People is HEAD's people.commits (config.Commits…): "free" lets a
	// person's commit through with its untraced changes listed.
	People string
	// Agent is empty for a commit that runs in no agent's process tree;
	// else who and why ("session s1: process … descends from …"). Asked
	// only under people.commits: free.
	Agent string
	// Warnings are HEAD's settings' warnings (a value clamped).
	Warnings []string
}

// Person reports whether the commit is judged as a person's: free, and no
// agent's process tree runs it.
func (s *Snapshot) Person() bool { return s.People == config.CommitsFree && s.Agent == "" }

// GovernanceChange is a staged change to a governance file a person makes
// (agents' wiring, the settings, the ignore files): no intent is needed,
// and the change is listed with its author.
type GovernanceChange struct {
	Path, Reason, Author string
}

// String is the change's output line.
func (c GovernanceChange) String() string {
	return fmt.Sprintf("governance %s: %s (changed by %s)", safetext.Quote(c.Path), c.Reason, safetext.Quote(c.Author))
}

// Result is what the check found.
type Result struct {
	Governed bool // false: no catalog, nothing was checked
	Findings []Finding
	Checked  int // staged paths judged for scope and trace
	Traced   int
	Exempt   int // .intentignore'd, governance files under .orchestration/, or outside the root
	// Governance lists the staged governance changes a person makes.
	Governance []GovernanceChange
	// Adopted lists what the commit that adopts the rules holds.
	Adopted []Adoption
	// Transitions lists the catalog's changes when they are a hook's
	// transitions only (no rules_changed).
	Transitions []Transition
	// Who the commit was judged as, under people.commits: free: "a
	// person's commit", or "an agent's commit (session …): why"; empty
	// under scoped.
	Who    string
	People string // HEAD's people.commits
	// Warnings are the settings' warnings, for stderr.
	Warnings []string
}

// Hints are what to do about a refusal for scope: the three ways on, and,
// under scoped, the setting that lets a person's own commits through.
func (r *Result) Hints() []string {
	scope := false
	for _, f := range r.Findings {
		scope = scope || f.Severity == Error && (f.Code == CodeOutOfScope || f.Code == CodeSelfWidening)
	}
	if !scope {
		return nil
	}
	out := []string{WaysOn}
	if r.People != config.CommitsFree {
		out = append(out, "people.commits: free in "+config.File+" lets a person's own commits through, marked "+PersonTrailer+" for audit; a commit an agent's process makes is judged as now")
	}
	return out
}

// WaysOn is the hint of a commit refused for scope.
const WaysOn = "three ways on: an intent that owns the path (a person adds or widens one in " + intents.File + ", in a commit of its own); a line in " + workspace.IgnoreFile + " for files no intent governs; or git commit --no-verify, which skips this check: audit then reports the commit's changes as out_of_scope errors"

// Failed reports whether any finding is an error.
func (r *Result) Failed() bool {
	for _, f := range r.Findings {
		if f.Severity == Error {
			return true
		}
	}
	return false
}

// Summary is the line printed after the findings.
func (r *Result) Summary() string {
	var errs, warns int
	for _, f := range r.Findings {
		if f.Severity == Error {
			errs++
		} else {
			warns++
		}
	}
	verdict := "ok"
	if errs > 0 {
		verdict = "commit refused"
	}
	if r.Who != "" {
		verdict += ": " + r.Who
	}
	if len(r.Adopted) > 0 {
		gov := 0
		for _, a := range r.Adopted {
			if a.Reason != "" {
				gov++
			}
		}
		return fmt.Sprintf("precommit: %s: the commit adopts the rules: %d governance file(s) and %d other path(s) listed, not judged; %d error(s), %d warning(s)",
			verdict, gov, len(r.Adopted)-gov, errs, warns)
	}
	return fmt.Sprintf("precommit: %s: %d staged path(s) checked, %d traced, %d exempt; %d error(s), %d warning(s)",
		verdict, r.Checked, r.Traced, r.Exempt, errs, warns)
}

// maxLedgerFindings bounds the ledger errors listed: a damaged ledger can
// have one per line.
const maxLedgerFindings = 10

// Check judges a snapshot. With strict, an untraced path is an error.
func Check(s *Snapshot, strict bool) *Result {
	r := &Result{Governed: true, People: s.People, Warnings: s.Warnings, Transitions: s.Transitions}
	switch {
	case s.Person():
		r.Who = "a person's commit"
	case s.People == config.CommitsFree:
		r.Who = "an agent's commit (" + s.Agent + ")"
	}
	r.Findings = append(r.Findings, catalogFindings(s)...)
	r.Findings = append(r.Findings, ledgerFindings(&s.Ledger)...)
	r.Findings = append(r.Findings, s.Extends...)
	if s.Parent.None {
		return adopt(s, r)
	}
	untraced := Warning
	if strict {
		untraced = Error
	}
	for _, f := range s.RulesChanged {
		r.Findings = append(r.Findings, Finding{Warning, CodeRulesChanged, f,
			"the commit changes the rules the next commits are judged by; audit lists it with its author and signature"})
	}
	switch {
	case s.Parent.Removed != "":
		r.Findings = append(r.Findings, Finding{Error, CodeCatalogRemoved, intents.File, RemovedMessage("HEAD", s.Parent.Removed) + " (scope not checked)"})
	case s.Parent.Catalog == nil:
		msg := "HEAD's catalog, which this commit is judged by, cannot be read (scope not checked)"
		if s.Parent.Err != nil {
			msg = "HEAD's catalog, which this commit is judged by, cannot be read: " + s.Parent.Err.Error() + " (scope not checked)"
		}
		r.Findings = append(r.Findings, Finding{Error, CodeCatalogInvalid, intents.File, msg})
	}
	for _, st := range s.Staged {
		if reason, ok := s.Parent.listed(st.Path); ok {
			r.Governance = append(r.Governance, GovernanceChange{Path: st.Path, Reason: reason, Author: s.Author})
		}
		if s.Parent.exempt(st.Path) {
			r.Exempt++
			continue
		}
		r.Checked++
		if s.Person() && s.Parent.Catalog != nil {
			if msg := personProblem(st, s.Traces, len(Owners(s.Parent.Catalog, s.Catalog, st.Path)) == 0); msg != "" {
				r.Findings = append(r.Findings, Finding{untraced, CodePersonChange, st.Path, msg})
				continue
			}
		}
		if s.Parent.Catalog != nil && len(Owners(s.Parent.Catalog, s.Catalog, st.Path)) == 0 {
			if len(s.RulesChanged) > 0 && widenedFor(s, st.Path) {
				r.Findings = append(r.Findings, Finding{Error, CodeSelfWidening, st.Path, SelfWideningMessage(s.RulesChanged)})
			} else {
				r.Findings = append(r.Findings, Finding{Error, CodeOutOfScope, st.Path,
					"not inside the owned_scope of any IN_PROGRESS or COMPLETE intent"})
			}
		}
		if msg := traceProblem(st, s.Traces); msg != "" {
			msg += attribution(st, s.Traces, s.Attributed)
			r.Findings = append(r.Findings, Finding{untraced, CodeUntraced, st.Path, msg})
		} else {
			r.Traced++
		}
	}
	return r
}

// adopt judges a commit with no rules before it. One that adds the catalog
// adopts the rules: everything it stages is listed, nothing judged. A root
// commit without the catalog is exempt, as a history's first commit always
// was; any later one is refused until the catalog is staged with it.
func adopt(s *Snapshot, r *Result) *Result {
	r.Exempt = len(s.Staged)
	if addsCatalog(s.Staged) {
		paths := make([]string, len(s.Staged))
		for i, st := range s.Staged {
			paths[i] = st.Path
		}
		r.Adopted = Adopted(paths, s.Author)
		return r
	}
	if !s.Parent.Root {
		r.Findings = append(r.Findings, Finding{Error, CodeNotAdopted, intents.File, NotAdoptedMessage})
		return r
	}
	for _, st := range s.Staged {
		if reason, ok := Listed(st.Path); ok {
			r.Governance = append(r.Governance, GovernanceChange{Path: st.Path, Reason: reason, Author: s.Author})
		}
	}
	return r
}

// addsCatalog reports whether the commit stages a catalog.
func addsCatalog(staged []Staged) bool {
	for _, st := range staged {
		if st.Path == intents.File && !st.Deleted {
			return true
		}
	}
	return false
}

// widenedFor reports whether the staged rules allow rel, which HEAD's do
// not.
func widenedFor(s *Snapshot, rel string) bool {
	return s.Ignore.Match(rel, false) || s.Catalog != nil && InScope(s.Catalog, rel)
}

func catalogFindings(s *Snapshot) []Finding {
	if s.CatalogErr != nil {
		return []Finding{{Error, CodeCatalogInvalid, intents.File, s.CatalogErr.Error()}}
	}
	var out []Finding
	for _, p := range s.Catalog.Problems {
		if p.Severity != intents.Error {
			continue
		}
		id := p.ID
		if id == "" {
			id = "-"
		}
		out = append(out, Finding{Error, CodeCatalogInvalid, intents.File, fmt.Sprintf("line %d: %s: %s", p.Line, id, p.Message)})
	}
	return out
}

func ledgerFindings(rep *ledger.Report) []Finding {
	var out []Finding
	for i, p := range rep.Errors {
		if i == maxLedgerFindings {
			out = append(out, Finding{Error, CodeLedgerInvalid, ledger.FileName,
				fmt.Sprintf("… and %d more (intenthook ledger verify lists them)", len(rep.Errors)-i)})
			break
		}
		file := ledger.FileName
		if p.File != "" {
			file = p.File
		}
		out = append(out, Finding{Error, ledgerCode(p), file, p.String()})
	}
	return out
}

// Exempt reports whether a path needs no intent: the governance files under
// .orchestration/ (the catalog and ledger have checks of their own) and
// .intentignore'd paths. Any other file under .orchestration/ is judged like
// every file.
func Exempt(rel string, ig *workspace.Ignore) bool {
	return Sidecar(rel) || ig.Match(rel, false)
}

// Owners returns the intents that own rel under the rules a commit is
// judged by: the valid IN_PROGRESS, IN_REVIEW or COMPLETE intents of its parent's
// catalog, and those the parent has PENDING that the commit's catalog (now,
// nil when unreadable) starts with the same owned_scope. Selecting a
// pending intent starts it, which agents may do through the hooks: the
// start is no widening to commit on its own.
func Owners(parent, now *intents.Catalog, rel string) []string {
	var ids []string
	for _, in := range parent.All() {
		if !in.Valid() {
			continue
		}
		switch in.Status {
		case intents.InProgress, intents.InReview, intents.Complete:
		case intents.Pending:
			if !started(in, now) {
				continue
			}
		default:
			continue
		}
		if _, ok := in.Match(rel); ok {
			ids = append(ids, in.ID)
		}
	}
	return ids
}

// started reports whether now has the pending intent in IN_PROGRESS with
// the same owned_scope.
func started(in *intents.Intent, now *intents.Catalog) bool {
	if now == nil {
		return false
	}
	n := now.Find(in.ID)
	return n != nil && n.Status == intents.InProgress && slices.Equal(n.OwnedScope, in.OwnedScope)
}

// InScope reports whether a valid IN_PROGRESS, IN_REVIEW or COMPLETE intent
// owns rel: work under review was written while in progress.
func InScope(c *intents.Catalog, rel string) bool {
	for _, in := range c.All() {
		if in.Status != intents.InProgress && in.Status != intents.InReview && in.Status != intents.Complete || !in.Valid() {
			continue
		}
		if _, ok := in.Match(rel); ok {
			return true
		}
	}
	return false
}

// attribution names the MCP tool an untraced staged content came from, when
// an ATTRIBUTED record newer than the path's trace left that content.
func attribution(st Staged, traces, attributed map[string]Trace) string {
	a, ok := attributed[st.Path]
	if !ok || st.Deleted || a.PostHash != st.Hash {
		return ""
	}
	if t, traced := traces[st.Path]; traced && t.Seq > a.Seq {
		return ""
	}
	return fmt.Sprintf("; it is what %s left (seq %d), an MCP tool intenthook does not classify: attributed, not traced (give it a class in config.yaml's tools:)", safetext.Quote(a.Tool), a.Seq)
}

// personProblem is the finding's text for a person's untraced change
// (outside every intent or not), or "" when the change is traced: an
// agent's work the person commits is judged as the agent's.
func personProblem(st Staged, traces map[string]Trace, outside bool) string {
	if traceProblem(st, traces) == "" {
		return ""
	}
	what := "no ledger record"
	if t, ok := traces[st.Path]; ok {
		what = fmt.Sprintf("not what the newest ledger record (seq %d) left", t.Seq)
	}
	if outside {
		what = "outside every intent, " + what
	}
	return "a person's change (people.commits: free): " + what + "; the commit is marked " + PersonTrailer
}

// traceProblem says why a staged path is not traced, or "" when the newest
// ledger record of the path ends in exactly the staged content (or, for a
// deletion, in no file).
func traceProblem(st Staged, traces map[string]Trace) string {
	if st.Unreadable != "" {
		return "cannot read the staged content: " + st.Unreadable
	}
	t, ok := traces[st.Path]
	switch {
	case !ok && st.Deleted:
		return "deleted without a ledger record: not done through the hooks"
	case !ok:
		return "no ledger record: changed without the hooks (by hand, or by an agent they did not run for)"
	case st.Deleted && t.PostHash != "":
		return fmt.Sprintf("deleted, but the newest ledger record (seq %d) has the file present", t.Seq)
	case st.Deleted:
		return ""
	case t.PostHash == "":
		return fmt.Sprintf("the newest ledger record (seq %d) has the file deleted, but the commit stages content", t.Seq)
	case t.PostHash != st.Hash:
		return fmt.Sprintf("staged content differs from the newest ledger record (seq %d): changed after the hooks recorded it", t.Seq)
	}
	return ""
}
