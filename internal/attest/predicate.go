// Package attest writes and checks a signed statement of a range's agent
// work: an in-toto Statement v1 whose subjects are the range's commits and
// whose predicate (PredicateType) is what audit found there, commit by
// commit, with the ledger's heads; signed as a DSSE envelope (an ECDSA
// P-256 or Ed25519 PEM key, or an SSH key through ssh-keygen), or as a
// Sigstore bundle. It judges nothing itself: the predicate is built from
// audit's Result, and verification reads git objects only. It lives in
// intenthook-attest, a binary of its own: Sigstore's libraries must stay out
// of every binary a hook starts.
package attest

import (
	"maps"
	"slices"
	"sort"

	"github.com/intenthook/intenthook/internal/audit"
	"github.com/intenthook/intenthook/internal/ledger"
)

// The in-toto names.
const (
	// PredicateType names the predicate: what intenthook's audit knows
	// of a range.
	PredicateType = "https://intenthook.dev/attestation/agent-work/v1"
	// StatementType is in-toto's Statement, version 1.
	StatementType = "https://in-toto.io/Statement/v1"
	// PayloadType is a DSSE envelope's payload type for a Statement.
	PayloadType = "application/vnd.in-toto+json"
)

// Predicate is what an attestation says of a range: the audit's verdict,
// the ledger's heads at the range's last commit, and each commit's agent
// work. Its JSON Schema is agent-work.v1.schema.json.
type Predicate struct {
	Intenthook Tool    `json:"intenthook"`
	Range      Range   `json:"range"`
	Audit      Outcome `json:"audit"`
	Ledger     Ledger  `json:"ledger"`
	// Commits are the range's commits, oldest first, as subjects are.
	Commits  []Commit `json:"commits"`
	Findings Findings `json:"findings"`
	// Rules are the commits that changed the rules (the catalog, an
	// .intentignore), with their author and git's verdict on their
	// signature.
	Rules      []audit.RulesCommit      `json:"rules_changes"`
	Catalog    []audit.CatalogChange    `json:"catalog_changes"`
	Governance []audit.GovernanceChange `json:"governance_changes"`
	Intents    []audit.IntentSummary    `json:"intents"`
}

// Tool names the intenthook that made the predicate.
type Tool struct {
	Version string `json:"version"`
}

// Range is the revision range as it was given, and how many commits it held.
type Range struct {
	Spec    string `json:"spec"`
	Commits int    `json:"commits"`
}

// Outcome is the audit's verdict on the range.
type Outcome struct {
	Passed   bool `json:"passed"`
	Strict   bool `json:"strict"`
	Errors   int  `json:"errors"`
	Warnings int  `json:"warnings"`
}

// Ledger is the ledger at the range's last commit: each file's newest line
// (the legacy file first, then the segments by name) and one digest over
// them (audit's "segment heads"). attest verify checks that each head is
// still a line of the ledger.
type Ledger struct {
	Digest string            `json:"digest"`
	Heads  []ledger.FileHead `json:"heads"`
}

// Findings are audit's findings, counted by code and listed.
type Findings struct {
	ByCode map[string]int  `json:"by_code"`
	Items  []audit.Finding `json:"items"`
}

// How a commit was judged.
const (
	JudgedByRules = "rules"        // by its first parent's rules
	AdoptsRules   = "adopts_rules" // the first of its history to hold the catalog: listed, not judged
	BeforeRules   = "before_rules" // its history never held the rules
)

// Commit is one commit's agent work.
type Commit struct {
	Commit string `json:"commit"`
	Judged string `json:"judged"`
	// Intents, Sessions, Agents and Models are what the writes behind
	// its changes name (and the intents its changes are counted under).
	// Agents are subagent ids: a session's own agent is named by the
	// session.
	Intents  []string `json:"intents"`
	Sessions []string `json:"sessions"`
	Agents   []string `json:"agents"`
	Models   []string `json:"models"`
	Paths    Counts   `json:"paths"`
	Files    []File   `json:"files"`
}

// Counts are a commit's judged paths by how the ledger accounts for them.
type Counts struct {
	Traced     int `json:"traced"`
	Attributed int `json:"attributed"`
	Untraced   int `json:"untraced"`
}

// How a path's content is accounted for.
const (
	// Traced: a record of a tool intenthook classifies ends in it.
	Traced = "traced"
	// Attributed: only a record of a tool intenthook does not classify
	// (an MCP tool) ends in it: nothing checked its scope.
	Attributed = "attributed"
	// Untraced: no record ends in it.
	Untraced = "untraced"
)

// File is one path a commit changed that the rules judged.
type File struct {
	Path   string `json:"path"`
	Intent string `json:"intent"` // the intent it is counted under; "" for none
	// Digest is its content's, sha256:<hex>, at the commit; "" for a
	// deletion.
	Digest string `json:"digest"`
	Trace  string `json:"trace"`
	// Writes are the records whose chain (each one's pre_hash the one
	// before's post_hash, for this path) ends in the content, oldest first.
	Writes []Write `json:"writes"`
}

// Write is one ledger record that wrote a file.
type Write struct {
	Seq     int64  `json:"seq"`
	Session string `json:"session"`
	Agent   string `json:"agent"`
	Model   string `json:"model"`
	Intent  string `json:"intent"`
	Tool    string `json:"tool"`
	// Lines are the ranges the record attributes to the agent, numbered
	// in the file as that record left it: the last write's are the
	// committed file's.
	Lines []Lines `json:"lines"`
}

// Lines is a span of lines, 1-based and inclusive, and the digest of its
// bytes as the ledger recorded it.
type Lines struct {
	Start       int    `json:"start"`
	End         int    `json:"end"`
	ContentHash string `json:"content_hash"`
}

// NewPredicate builds the predicate from what audit found over a range.
func NewPredicate(res *audit.Result, strict bool, version string) *Predicate {
	p := &Predicate{
		Intenthook: Tool{Version: version},
		Range:      Range{Spec: res.Range, Commits: res.Commits},
		Audit:      Outcome{Passed: !res.Failed(), Strict: strict},
		Ledger:     ledgerOf(res),
		Commits:    []Commit{},
		Findings:   Findings{ByCode: map[string]int{}, Items: nonNil(res.Findings)},
		Rules:      nonNil(res.Rules),
		Catalog:    nonNil(res.Catalog),
		Governance: nonNil(res.Governance),
		Intents:    nonNil(res.Intents),
	}
	for _, f := range res.Findings {
		p.Findings.ByCode[f.Code]++
		if f.Severity == audit.Error {
			p.Audit.Errors++
		} else {
			p.Audit.Warnings++
		}
	}
	w := newWrites(res.Records)
	adopted := map[string]bool{}
	for _, a := range res.Adopted {
		adopted[a.Commit] = true
	}
	for _, id := range res.IDs {
		c := Commit{Commit: id, Judged: JudgedByRules, Files: []File{}}
		switch {
		case adopted[id]:
			c.Judged = AdoptsRules
		case slices.Contains(res.BeforeRules, id):
			c.Judged = BeforeRules
		}
		p.Commits = append(p.Commits, c)
	}
	at := map[string]int{}
	for i, id := range res.IDs {
		at[id] = i
	}
	for _, ch := range res.Changes {
		i, ok := at[ch.Commit]
		if !ok {
			continue
		}
		p.Commits[i].Files = append(p.Commits[i].Files, w.file(ch))
	}
	for i := range p.Commits {
		p.Commits[i].sum()
	}
	return p
}

// ledgerOf is the heads audit read. A ledger that is only the legacy file
// has no segment heads: its one head stands for it.
func ledgerOf(res *audit.Result) Ledger {
	l := Ledger{Digest: res.Digest, Heads: nonNil(res.Heads)}
	if len(l.Heads) == 0 && res.Head.Hash != "" {
		l.Heads = []ledger.FileHead{{File: ledger.FileName, Seq: res.Head.Seq, Hash: res.Head.Hash}}
		l.Digest = ledger.HeadsDigest(l.Heads)
	}
	return l
}

// sum fills a commit's lists and counts from its files.
func (c *Commit) sum() {
	intents, sessions, agents, models := set{}, set{}, set{}, set{}
	for _, f := range c.Files {
		intents.add(f.Intent)
		switch f.Trace {
		case Traced:
			c.Paths.Traced++
		case Attributed:
			c.Paths.Attributed++
		default:
			c.Paths.Untraced++
		}
		for _, w := range f.Writes {
			intents.add(w.Intent)
			sessions.add(w.Session)
			agents.add(w.Agent)
			models.add(w.Model)
		}
	}
	c.Intents, c.Sessions, c.Agents, c.Models = intents.list(), sessions.list(), agents.list(), models.list()
}

type set map[string]bool

func (s set) add(v string) {
	if v != "" {
		s[v] = true
	}
}

func (s set) list() []string {
	out := slices.Collect(maps.Keys(s))
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
