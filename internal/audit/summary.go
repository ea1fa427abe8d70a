package audit

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/safetext"
)

// CatalogChange is one change a commit made to the catalog.
type CatalogChange struct {
	Commit string `json:"commit"`
	Author string `json:"author"`
	Intent string `json:"intent"`
	// Change is added, removed, status, scope_widened or scope_narrowed.
	Change string `json:"change"`
	Detail string `json:"detail"`
}

// GovernanceChange is one change a commit made to a governance file a
// person changes (an agent's wiring, the settings, an ignore file).
type GovernanceChange struct {
	Commit string `json:"commit"`
	Author string `json:"author"`
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

func (c GovernanceChange) String() string {
	return fmt.Sprintf("%s governance %s: %s (by %s)", short(c.Commit), safetext.Quote(c.Path), c.Reason, safetext.Quote(c.Author))
}

// Catalog change kinds.
const (
	IntentAdded   = "added"
	IntentRemoved = "removed"
	StatusChanged = "status"
	ScopeWidened  = "scope_widened"
	ScopeNarrowed = "scope_narrowed"
)

func (c CatalogChange) String() string {
	return fmt.Sprintf("%s catalog: %s %s: %s (by %s)", short(c.Commit), safetext.Quote(c.Intent), strings.ReplaceAll(c.Change, "_", " "), safetext.Quote(c.Detail), safetext.Quote(c.Author))
}

// diffCatalogs lists what changed from before to now, intent by intent in
// now's order (removed ones last). A nil catalog has no intents.
func diffCatalogs(id, author string, before, now *intents.Catalog) []CatalogChange {
	old := map[string]*intents.Intent{}
	var oldOrder []string
	if before != nil {
		for _, in := range before.All() {
			if _, dup := old[in.ID]; !dup {
				old[in.ID], oldOrder = in, append(oldOrder, in.ID)
			}
		}
	}
	var out []CatalogChange
	add := func(intent, change, detail string) {
		out = append(out, CatalogChange{Commit: id, Author: author, Intent: intent, Change: change, Detail: detail})
	}
	seen := map[string]bool{}
	if now != nil {
		for _, in := range now.All() {
			if seen[in.ID] {
				continue
			}
			seen[in.ID] = true
			was, ok := old[in.ID]
			if !ok {
				add(in.ID, IntentAdded, fmt.Sprintf("%s, owns %s", in.Status, scopeText(in.OwnedScope)))
				continue
			}
			if was.Status != in.Status {
				add(in.ID, StatusChanged, fmt.Sprintf("%s → %s", was.Status, in.Status))
			}
			// A pattern the old scope already covered (src/a.go under
			// src/**) is no widening: it comes with a narrowing.
			var wider, within []string
			for _, p := range missing(in.OwnedScope, was.OwnedScope) {
				if covered(was, p) {
					within = append(within, p)
				} else {
					wider = append(wider, p)
				}
			}
			if len(wider) > 0 {
				add(in.ID, ScopeWidened, "+"+strings.Join(wider, " +"))
			}
			if lost := missing(was.OwnedScope, in.OwnedScope); len(lost) > 0 || len(within) > 0 {
				detail := make([]string, 0, len(lost)+len(within))
				for _, p := range lost {
					detail = append(detail, "-"+p)
				}
				for _, p := range within {
					detail = append(detail, "+"+p+" (within the old scope)")
				}
				add(in.ID, ScopeNarrowed, strings.Join(detail, " "))
			}
		}
	}
	for _, id := range oldOrder {
		if !seen[id] {
			add(id, IntentRemoved, fmt.Sprintf("was %s, owned %s", old[id].Status, scopeText(old[id].OwnedScope)))
		}
	}
	return out
}

// covered reports whether every path pattern p can match is one in's
// scope owns: a literal path its scope matches, or a pattern below a
// "dir/**" of its scope. Anything else counts as new ground.
func covered(in *intents.Intent, p string) bool {
	if !strings.ContainsAny(p, "*?[{") {
		_, ok := in.Match(p)
		return ok
	}
	for _, own := range in.OwnedScope {
		if own == "**" {
			return true
		}
		if dir, ok := strings.CutSuffix(own, "/**"); ok && !strings.ContainsAny(dir, "*?[{") && strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}

// missing returns the patterns of a that b lacks, in a's order.
func missing(a, b []string) []string {
	var out []string
	for _, p := range a {
		if !slices.Contains(b, p) {
			out = append(out, p)
		}
	}
	return out
}

func scopeText(scope []string) string {
	if len(scope) == 0 {
		return "nothing"
	}
	return strings.Join(scope, ", ")
}

// IntentSummary is the range seen from one intent: the files changed under
// it, how many changes the ledger traces, and what the records appended in
// the range say of it.
type IntentSummary struct {
	Intent     string         `json:"intent"` // "" for changes no intent owns
	Name       string         `json:"name,omitempty"`
	Files      []string       `json:"files"`
	Changes    int            `json:"changes"` // (commit, path) pairs
	Traced     int            `json:"traced"`
	Sessions   []string       `json:"sessions"`
	Models     []string       `json:"models"`
	Denials    map[string]int `json:"denials"`    // by code
	Violations map[string]int `json:"violations"` // by code
	Catalog    []string       `json:"catalog_changes"`
	Findings   int            `json:"findings"`
	// Answers are the asks a person answered under the intent, in the
	// range's records (ask_answer): who, what, how long the call waited.
	Answers []Answered `json:"answers,omitempty"`
	// Spend is what the range's records under the intent spent (their
	// usage: calls, tokens, dollars), in all and per model; absent when
	// none carries usage.
	Spend *ledger.Spend `json:"spend,omitempty"`
}

// Answered is one ask_answer record, as audit shows it.
type Answered struct {
	Ask      string `json:"ask"`
	Decision string `json:"decision"` // allow, deny
	By       string `json:"by"`       // git's identity, else the OS user: an attribution
	Session  string `json:"session"`
	Tool     string `json:"tool,omitempty"`
	WaitedMS int64  `json:"waited_ms"`
	Code     string `json:"code,omitempty"` // a standing answer's ask code
	Reason   string `json:"reason,omitempty"`
}

// summary gathers IntentSummary values as the commits are judged.
type summary struct {
	by    map[string]*IntentSummary
	owner map[[2]string]string // (commit, path) -> the intent it was counted under
}

func newSummary() *summary {
	return &summary{by: map[string]*IntentSummary{}, owner: map[[2]string]string{}}
}

func (s *summary) get(id string) *IntentSummary {
	if x, ok := s.by[id]; ok {
		return x
	}
	x := &IntentSummary{Intent: id, Files: []string{}, Sessions: []string{}, Models: []string{}, Denials: map[string]int{}, Violations: map[string]int{}, Catalog: []string{}}
	s.by[id] = x
	return x
}

// commit counts one judged commit's paths under their first owner.
func (s *summary) commit(c commit, j judged) {
	for _, p := range j.paths {
		id := ""
		if len(p.owners) > 0 {
			id = p.owners[0]
		}
		x := s.get(id)
		if id != "" && j.rules.parent.Catalog != nil {
			if in := j.rules.parent.Catalog.Find(id); in != nil {
				x.Name = in.Name
			}
		}
		if !slices.Contains(x.Files, p.path) {
			x.Files = append(x.Files, p.path)
		}
		x.Changes++
		if p.traced {
			x.Traced++
		}
		s.owner[[2]string{c.id, p.path}] = id
	}
}

// intents finishes the summaries with the range's records, catalog
// changes and findings; intents first by id, the unowned changes last.
func (s *summary) intents(records []*ledger.Record, catalog []CatalogChange, findings []Finding) []IntentSummary {
	for _, r := range records {
		m := &r.Metadata.Intenthook
		id := string(m.IntentID)
		if id == "" {
			continue
		}
		x := s.get(id)
		if m.SessionID != "" && !slices.Contains(x.Sessions, m.SessionID) {
			x.Sessions = append(x.Sessions, m.SessionID)
		}
		for _, f := range r.Files {
			for _, cv := range f.Conversations {
				if cv.Contributor != nil && cv.Contributor.ModelID != "" && !slices.Contains(x.Models, cv.Contributor.ModelID) {
					x.Models = append(x.Models, cv.Contributor.ModelID)
				}
			}
		}
		if m.Usage != nil {
			if x.Spend == nil {
				x.Spend = &ledger.Spend{}
			}
			x.Spend.AddRecord(r)
		}
		switch {
		case m.Event == ledger.EventAskAnswer:
			x.Answers = append(x.Answers, answered(m))
		case m.Event == ledger.EventViolation:
			x.Violations[orNone(string(m.Code))]++
		case m.Decision == "deny":
			x.Denials[orNone(string(m.Code))]++
		}
	}
	for _, c := range catalog {
		x := s.get(c.Intent)
		x.Catalog = append(x.Catalog, strings.ReplaceAll(c.Change, "_", " ")+" "+c.Detail)
	}
	for _, f := range findings {
		if id, ok := s.owner[[2]string{f.Commit, f.Path}]; ok {
			s.get(id).Findings++
		}
	}
	out := make([]IntentSummary, 0, len(s.by))
	for _, x := range s.by {
		out = append(out, *x)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].Intent == "") != (out[j].Intent == "") {
			return out[j].Intent == ""
		}
		return out[i].Intent < out[j].Intent
	})
	return out
}

// answered reads an ask_answer record's answer.
func answered(m *ledger.Meta) Answered {
	var r asks.Record
	_ = json.Unmarshal(m.Answer, &r)
	return Answered{Ask: r.Ask, Decision: m.Decision, By: cmp.Or(r.By, r.User), Session: m.SessionID, Tool: m.ToolName,
		WaitedMS: r.WaitedMS, Code: r.Code, Reason: m.Reason}
}

func orNone(code string) string {
	if code == "" {
		return "none"
	}
	return code
}
