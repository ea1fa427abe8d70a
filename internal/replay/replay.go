// Package replay re-judges the writes a ledger records against candidate
// rules and says what would have changed: writes that happened and the
// candidate would refuse (newly denied), denials it would have let through
// (newly allowed), the rest (unchanged), and writes under intents the
// candidate no longer has. The baseline is each record's own decision —
// the rules it was judged by were the work tree's, often uncommitted, so
// no revision can stand in for them; only the candidate is judged, by
// judge.Judge, the function `pre` calls. Each intent's status is taken as
// recorded, and nothing that depends on the moment (the stale-file check,
// locks, the path's resolution) is judged again.
package replay

import (
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/backstop"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/judge"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/roles"
)

// Candidate is the rules a replay judges by.
type Candidate struct {
	Rules judge.Rules
	// Tools is the candidate's config.yaml tools: (tool name -> class).
	Tools map[string]string
	// Source says where the rules came from, for the report.
	Source string
}

// Filter selects the records replayed; zero fields select everything.
type Filter struct {
	Since   time.Time
	Session string
	Intent  string
}

// Outcomes of a recorded write under the candidate.
const (
	NewlyDenied  = "newly_denied"
	NewlyAllowed = "newly_allowed"
	Unchanged    = "unchanged"
	Removed      = "removed_intent"
)

// Report is a replay's result.
type Report struct {
	Candidate string `json:"candidate"`
	Range     string `json:"range"`
	// Records is how many records of the range hold a write replayed;
	// Writes, how many writes they hold (a record may hold several).
	Records int `json:"records"`
	Writes  int `json:"writes"`
	// Verdicts is how many distinct writes the candidate was asked about
	// (the rest were remembered).
	Verdicts     int    `json:"verdicts"`
	NewlyDenied  Bucket `json:"newly_denied"`
	NewlyAllowed Bucket `json:"newly_allowed"`
	Unchanged    Bucket `json:"unchanged"`
	// RemovedIntents are writes under intents the candidate's catalog no
	// longer holds: not judged.
	RemovedIntents Bucket  `json:"removed_intents"`
	ByIntent       []Tally `json:"by_intent"`
	ByAgent        []Tally `json:"by_agent"`
	// Budgets, when asked (--budget), says what each budget would have
	// stopped.
	Budgets []*BudgetReport `json:"budgets,omitempty"`
}

// Bucket is one outcome: how many writes, and the groups they fall in
// (by intent, path and both decisions), the largest first, up to the
// replay's limit; More counts the groups left out.
type Bucket struct {
	Count int     `json:"count"`
	Items []*Item `json:"items"`
	More  int     `json:"more,omitempty"`
}

// Item is a group of writes with one outcome.
type Item struct {
	Intent   string `json:"intent"`
	Path     string `json:"path"`
	Writes   int    `json:"writes"`
	Recorded string `json:"recorded"`  // allow, or the recorded deny's or violation's code
	Would    string `json:"candidate"` // allow, or the candidate's deny code
	// Step is the candidate's step that decided ("" for a pass in scope).
	Step     string   `json:"step,omitempty"`
	Sessions []string `json:"sessions"` // up to maxNames, sorted
	Agents   []string `json:"agents"`   // agent ids ("main" for the top-level agent)
	First    string   `json:"first"`    // the earliest record's timestamp
	Last     string   `json:"last"`

	sessions, agents map[string]bool
}

// Tally counts one intent's or agent's writes by outcome.
type Tally struct {
	Name           string `json:"name"`
	NewlyDenied    int    `json:"newly_denied"`
	NewlyAllowed   int    `json:"newly_allowed"`
	Unchanged      int    `json:"unchanged"`
	RemovedIntents int    `json:"removed_intents"`
}

// Changed reports whether the candidate would have decided anything
// differently.
func (r *Report) Changed() bool {
	return r.NewlyDenied.Count+r.NewlyAllowed.Count+r.RemovedIntents.Count > 0
}

// maxNames bounds the sessions and agents an item lists.
const maxNames = 5

// Replayer judges records one at a time; Report gathers the result.
type Replayer struct {
	c      *Candidate
	base   *Candidate // judged for the baseline instead of the records (Against)
	filter Filter
	since  string // filter.Since as records write timestamps
	status map[string]intents.Status
	memo   map[memoKey]judge.Verdict
	groups map[groupKey]*Item
	tally  map[string]map[string]*Tally // "intent"/"agent" -> name -> counts
	report Report
	e      entry
	// budgets are the budgets asked about, by intent (Budgets); limit
	// bounds the refused calls each lists.
	budgets map[string]*BudgetReport
	limit   int
}

type memoKey struct {
	base                     bool
	path, intent, role, tool string
	status                   intents.Status
	delete                   bool
}

type groupKey struct {
	outcome, intent, path, recorded, would string
}

// New starts a replay against c.
func New(c *Candidate, f Filter) *Replayer {
	r := &Replayer{
		c: c, filter: f,
		status: map[string]intents.Status{},
		memo:   map[memoKey]judge.Verdict{},
		groups: map[groupKey]*Item{},
		tally:  map[string]map[string]*Tally{"intent": {}, "agent": {}},
	}
	if !f.Since.IsZero() {
		r.since = f.Since.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	return r
}

// Against makes the baseline base's verdicts rather than the recorded
// decisions: what a change to the rules in force (base) would flip, the
// writes the rules in force already decide otherwise than recorded left
// aside.
func (r *Replayer) Against(base *Candidate) { r.base = base }

// Line replays one ledger line; lines that hold no write are passed over
// (Source.Each gives only lines of the events a replay reads).
func (r *Replayer) Line(line []byte) {
	if r.budgets != nil {
		r.spend(line)
	}
	if decode(line, &r.e) {
		r.add(&r.e)
	}
}

// ruleCodes are the deny codes the rules' judgement gives: a recorded deny
// with another code (stale_file, a lock, a loop) was decided by the moment
// and stays a deny.
var ruleCodes = map[string]bool{
	hook.CodeRoleNotAllowed: true, hook.CodeProtectedPath: true, hook.CodeIntentRequired: true,
	hook.CodeIntentNotFound: true, hook.CodeCatalogInvalid: true, hook.CodeIntentNotInProgress: true,
	hook.CodeToolNotAllowed: true, hook.CodeScopeViolation: true,
}

func (r *Replayer) add(e *entry) {
	if e.event == ledger.EventTransition {
		if e.intent != "" && e.to != "" {
			r.status[e.intent] = intents.Status(e.to)
		}
		return
	}
	if !r.selected(e) {
		return
	}
	var recorded string
	switch {
	case e.event == ledger.EventPostToolUse && e.decision == "allow" && e.success && (e.scope == ledger.ScopePass || e.scope == ledger.ScopeIgnored) &&
		e.class != ledger.Attributed && e.class != ledger.Revert && e.class != ledger.Configuration:
		recorded = "allow"
	case e.event == ledger.EventPreToolUse && e.decision == "deny" && e.code != "":
		recorded = e.code
	case e.event == ledger.EventViolation && e.code == backstop.CodeOutOfScopeChange:
		recorded = e.code
	default:
		return
	}
	counted := false
	for i, p := range e.paths {
		if !relative(p) || slices.Contains(e.paths[:i], p) {
			continue
		}
		if !counted {
			r.report.Records++
			counted = true
		}
		r.report.Writes++
		r.judgeWrite(e, p, recorded)
	}
}

func (r *Replayer) selected(e *entry) bool {
	f := &r.filter
	if f.Session != "" && e.session != f.Session || f.Intent != "" && e.intent != f.Intent {
		return false
	}
	if r.since != "" && e.when < r.since {
		if t, err := time.Parse(time.RFC3339Nano, e.when); err != nil || t.Before(f.Since) {
			return false
		}
	}
	return true
}

// relative reports whether p is a root-relative path (records name files
// outside the root by their absolute path).
func relative(p string) bool {
	return p != "" && !path.IsAbs(p) && p != ".." && !strings.HasPrefix(p, "../") && !strings.Contains(p, ":")
}

func (r *Replayer) judgeWrite(e *entry, p, recorded string) {
	outcome, would, step := r.candidate(r.c, false, e, p, recorded)
	if r.base != nil && outcome != Removed {
		var baseOutcome string
		baseOutcome, recorded, _ = r.candidate(r.base, true, e, p, recorded)
		if baseOutcome == Removed {
			return
		}
		outcome = ""
	}
	if outcome == "" {
		switch {
		case recorded == "allow" && would != "allow":
			outcome = NewlyDenied
		case recorded != "allow" && would == "allow":
			outcome = NewlyAllowed
		default:
			outcome = Unchanged
		}
	}
	k := groupKey{outcome, e.intent, p, recorded, would}
	it := r.groups[k]
	if it == nil {
		it = &Item{Intent: e.intent, Path: p, Recorded: recorded, Would: would, Step: step, First: e.when, Last: e.when,
			sessions: map[string]bool{}, agents: map[string]bool{}}
		r.groups[k] = it
	}
	it.Writes++
	if e.when < it.First {
		it.First = e.when
	}
	if e.when > it.Last {
		it.Last = e.when
	}
	it.sessions[e.session] = true
	agent := orMain(e.agent)
	it.agents[agent] = true
	r.count(r.tallyOf("intent", orNone(e.intent)), outcome)
	r.count(r.tallyOf("agent", agent), outcome)
}

// candidate is what the candidate says of one recorded write: the outcome
// when it is decided before judging (an intent the candidate removed),
// its verdict (allow or a deny code) and the step that decided.
func (r *Replayer) candidate(c *Candidate, base bool, e *entry, p, recorded string) (outcome, would, step string) {
	if recorded != "allow" && recorded != backstop.CodeOutOfScopeChange && !ruleCodes[recorded] {
		return Unchanged, recorded, "" // decided by the moment, not the rules
	}
	if e.intent != "" && recorded != hook.CodeIntentNotFound && (c.Rules.Catalog == nil || c.Rules.Catalog.Find(e.intent) == nil) {
		return Removed, hook.CodeIntentNotFound, judge.StepStatus
	}
	del := e.class == ledger.FileDeletion
	switch hook.Class(c.Tools[e.tool]) {
	case hook.ClassRead, hook.ClassExempt, hook.ClassUnclassified, hook.ClassSelect:
		return "", "allow", "tools"
	case hook.ClassDelete:
		del = true
	}
	role := ""
	if e.roleKnown {
		role = roles.Name(e.role, e.agent)
	}
	k := memoKey{base: base, path: p, intent: e.intent, role: role, tool: e.tool, status: r.statusOf(e, recorded), delete: del}
	v, ok := r.memo[k]
	if !ok {
		v = judge.Judge(&c.Rules, judge.Write{Path: p, Tool: e.tool, Delete: del, Role: role, Intent: e.intent, Status: k.status})
		r.memo[k] = v
		r.report.Verdicts++
	}
	if v.Denied() {
		return "", v.Code, v.Step
	}
	return "", "allow", v.Step
}

// statusOf is the status the write's intent had when it was recorded: an
// allowed write, a violation (its command was allowed) and a deny past the
// status step were made under an IN_PROGRESS intent; otherwise the status
// the ledger's last transition of the intent set, else IN_PROGRESS (or,
// for a deny for its status, the candidate's status, which is not).
func (r *Replayer) statusOf(e *entry, recorded string) intents.Status {
	switch recorded {
	case "allow", backstop.CodeOutOfScopeChange, hook.CodeScopeViolation, hook.CodeToolNotAllowed:
		return intents.InProgress
	}
	s := r.status[e.intent]
	if recorded == hook.CodeIntentNotInProgress && (s == "" || s == intents.InProgress) {
		return intents.Blocked // not IN_PROGRESS; which status does not change the verdict
	}
	if s == "" {
		return intents.InProgress
	}
	return s
}

func (r *Replayer) tallyOf(kind, name string) *Tally {
	t := r.tally[kind][name]
	if t == nil {
		t = &Tally{Name: name}
		r.tally[kind][name] = t
	}
	return t
}

func (r *Replayer) count(t *Tally, outcome string) {
	switch outcome {
	case NewlyDenied:
		t.NewlyDenied++
	case NewlyAllowed:
		t.NewlyAllowed++
	case Removed:
		t.RemovedIntents++
	default:
		t.Unchanged++
	}
}

// Report returns the replay's result: each outcome's groups, the largest
// first, up to limit of them (0: all).
func (r *Replayer) Report(rangeDesc string, limit int) *Report {
	rep := r.report
	rep.Candidate, rep.Range = r.c.Source, rangeDesc
	buckets := map[string]*Bucket{NewlyDenied: &rep.NewlyDenied, NewlyAllowed: &rep.NewlyAllowed, Unchanged: &rep.Unchanged, Removed: &rep.RemovedIntents}
	for k, it := range r.groups {
		b := buckets[k.outcome]
		b.Count += it.Writes
		it.Sessions, it.Agents = names(it.sessions), names(it.agents)
		b.Items = append(b.Items, it)
	}
	for _, b := range buckets {
		sort.Slice(b.Items, func(i, j int) bool {
			x, y := b.Items[i], b.Items[j]
			if x.Writes != y.Writes {
				return x.Writes > y.Writes
			}
			if x.Intent != y.Intent {
				return x.Intent < y.Intent
			}
			if x.Path != y.Path {
				return x.Path < y.Path
			}
			return x.Recorded+x.Would < y.Recorded+y.Would
		})
		if limit > 0 && len(b.Items) > limit {
			b.More = len(b.Items) - limit
			b.Items = b.Items[:limit]
		}
		if b.Items == nil {
			b.Items = []*Item{}
		}
	}
	rep.ByIntent, rep.ByAgent = tallies(r.tally["intent"]), tallies(r.tally["agent"])
	if r.budgets != nil {
		rep.Budgets = r.budgetReports()
	}
	return &rep
}

func names(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	if len(out) > maxNames {
		out = out[:maxNames]
	}
	return out
}

func tallies(m map[string]*Tally) []Tally {
	out := make([]Tally, 0, len(m))
	for _, t := range m {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func orMain(agent string) string {
	if agent == "" {
		return roles.Main
	}
	return agent
}

func orNone(intent string) string {
	if intent == "" {
		return "(none)"
	}
	return intent
}
