// Package report builds the self-contained HTML report of a workspace: the
// intents as a board by status with their dependency graph, and per intent
// its timeline of changes, denials and violations, its files, sessions and
// models, and the audit's findings. One file, no network: html/template,
// inline CSS and SVG, a few lines of JavaScript for the filters.
package report

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/audit"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/money"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/summary"
)

// Options say what goes into a report.
type Options struct {
	Root    string
	Catalog *intents.Catalog
	// Since, when set, keeps only the ledger's records from then on (the
	// range of a pull request).
	Since time.Time
	Range string // the revision range shown, "" for the whole ledger
	// Findings are the audit's, when a range was audited.
	Findings []audit.Finding
	Now      time.Time
	// MaxEvents bounds each intent's timeline (the newest are kept); the
	// counts cover every record.
	MaxEvents int
}

// Statuses are the board's columns, in order.
var Statuses = []intents.Status{intents.Pending, intents.InProgress, intents.InReview, intents.Blocked, intents.Complete, intents.Archived}

// Report is what the template shows.
type Report struct {
	Generated string
	Range     string
	Head      ledger.Head
	Records   int
	Columns   []Column
	Intents   []*Intent // catalog order, then intents only the ledger names
	Graph     Graph
	Findings  []audit.Finding
	Dates     []string // every day with an event, for the date filter's bounds
}

// IntentCount is the number of intents shown: the records under no intent
// have a card of their own, but are not an intent.
func (r *Report) IntentCount() int {
	n := 0
	for _, in := range r.Intents {
		if in.ID != "" {
			n++
		}
	}
	return n
}

// Column is one status of the board.
type Column struct {
	Status  string
	Intents []*Intent
}

// Intent is one intent's part of the report.
type Intent struct {
	ID, Name, Status string
	Scope            []string
	DependsOn        []string
	Parent           string
	Known            bool // in the catalog (else only the ledger names it)
	Changes          int
	Denials          int
	Violations       int
	Transitions      int
	Answers          int // asks a person answered
	Files            []FileCount
	Sessions         []string
	Models           []string
	Events           []Event // newest first
	More             int     // events left out of the timeline
	First, Last      string  // dates of the first and last event
	// Result is what was done, from the newest submission or completion
	// record that carries one.
	Result *summary.Result
	// Spend is what the intent's records in the report spent (their
	// usage), in all and per model, session and agent; nil when none
	// carries usage.
	Spend *ledger.Spend
}

// SpendLine is the intent's spend in words: "3 call(s), 2226 token(s),
// $0.001668".
func (in *Intent) SpendLine() string {
	if in.Spend == nil {
		return ""
	}
	return shareText(in.Spend.Share)
}

// SpendByModel is the intent's spend per model, one phrase each.
func (in *Intent) SpendByModel() []string {
	if in.Spend == nil {
		return nil
	}
	return sharePhrases(in.Spend.Models, func(m ledger.ModelSpend) (string, ledger.Share) {
		if m.Model == "" {
			return "no model named", m.Share
		}
		return safetext.Quote(m.Model), m.Share
	})
}

// SpendBySession is the intent's spend per session, one phrase each.
func (in *Intent) SpendBySession() []string {
	if in.Spend == nil {
		return nil
	}
	return sharePhrases(in.Spend.Sessions, func(x ledger.SessionSpend) (string, ledger.Share) { return safetext.Quote(x.Session), x.Share })
}

// SpendByAgent is the intent's spend per agent ("main" for the sessions'
// top-level agents), one phrase each.
func (in *Intent) SpendByAgent() []string {
	if in.Spend == nil {
		return nil
	}
	return sharePhrases(in.Spend.Agents, func(x ledger.AgentSpend) (string, ledger.Share) { return safetext.Quote(x.Agent), x.Share })
}

// sharePhrases is "name: spend" for each part, the name and share part
// gives.
func sharePhrases[T any](parts []T, part func(T) (string, ledger.Share)) []string {
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		name, sh := part(p)
		out = append(out, name+": "+shareText(sh))
	}
	return out
}

func shareText(sh ledger.Share) string {
	return strconv.FormatInt(sh.Calls, 10) + " call(s), " + strconv.FormatInt(sh.Tokens, 10) + " token(s), " + money.Format(int64(sh.USD))
}

// FileCount is a file and how many records changed it.
type FileCount struct {
	Path  string
	Count int
}

// Event is one line of an intent's timeline.
type Event struct {
	Time, Date string
	Kind       string // change, denial, violation, transition, answer, other
	Tool       string
	What       string
	Session    string
}

// Build reads the ledger once and gathers the report.
func Build(opt Options) (*Report, error) {
	if opt.MaxEvents <= 0 {
		opt.MaxEvents = 200
	}
	r := &Report{Generated: opt.Now.UTC().Format("2006-01-02 15:04 UTC"), Range: safetext.Quote(opt.Range)}
	for _, f := range opt.Findings {
		f.Path, f.Message = safetext.Quote(f.Path), safetext.Quote(f.Message)
		r.Findings = append(r.Findings, f)
	}
	byID := map[string]*Intent{}
	var order []*Intent
	add := func(id string) *Intent {
		if in, ok := byID[id]; ok {
			return in
		}
		in := &Intent{ID: id, Name: "(not in the catalog)", Status: "UNKNOWN"}
		if id == "" {
			in.Name = "records under no intent"
		}
		byID[id] = in
		order = append(order, in)
		return in
	}
	if opt.Catalog != nil {
		for _, c := range opt.Catalog.All() {
			in := add(c.ID)
			in.Name, in.Status, in.Scope, in.DependsOn, in.Parent, in.Known = safetext.Quote(c.Name), safetext.Quote(string(c.Status)), safetext.QuoteAll(c.OwnedScope), c.DependsOn, c.ParentIntent, true
		}
	}
	files := map[*Intent]map[string]int{}
	sessions := map[*Intent]map[string]bool{}
	models := map[*Intent]map[string]bool{}
	dates := map[string]bool{}
	err := ledger.Scan(opt.Root, func(line []byte, rec *ledger.Record, err error) error {
		if err != nil || rec == nil {
			return nil // verify reports damaged lines; the report shows the rest
		}
		m := &rec.Metadata.Intenthook
		r.Records++
		r.Head = ledger.Head{Seq: m.Seq}
		t, _ := time.Parse(time.RFC3339Nano, rec.Timestamp)
		if !opt.Since.IsZero() && t.Before(opt.Since) {
			return nil
		}
		in := add(string(m.IntentID))
		if m.Usage != nil {
			if in.Spend == nil {
				in.Spend = &ledger.Spend{}
			}
			in.Spend.AddRecord(rec)
		}
		ev := Event{Time: t.UTC().Format("2006-01-02 15:04:05"), Date: t.UTC().Format("2006-01-02"), Tool: safetext.Quote(m.ToolName), Session: safetext.Quote(m.SessionID)}
		var paths []string
		for _, f := range rec.Files {
			paths = append(paths, safetext.Quote(f.Path))
			for _, c := range f.Conversations {
				if c.Contributor != nil && c.Contributor.ModelID != "" {
					setAdd(models, in, safetext.Quote(c.Contributor.ModelID))
				}
			}
		}
		switch {
		case m.Event == ledger.EventViolation:
			in.Violations++
			ev.Kind = "violation"
			named := safetext.QuoteAll(m.Paths)
			if len(named) == 0 {
				named = paths
			}
			ev.What = cmp.Or(string(m.Code), "violation") + ": " + strings.Join(named, ", ")
		case m.Event == ledger.EventAskAnswer:
			in.Answers++
			ev.Kind = "answer"
			ev.What = answerText(m)
		case m.Decision == "deny":
			in.Denials++
			ev.Kind = "denial"
			ev.What = safetext.Quote(cmp.Or(safetext.FirstLine(m.Reason), string(m.Code)))
		case len(m.Result) > 0 && m.To != "":
			in.Transitions++
			ev.Kind = "transition"
			ev.What = safetext.Quote(m.From) + " → " + safetext.Quote(m.To)
			var res summary.Result
			if json.Unmarshal(m.Result, &res) == nil {
				in.Result = &res
			}
		case m.Event == ledger.EventSessionSummary:
			ev.Kind = "summary"
			ev.What = "session summary: " + safetext.Quote(m.Reason)
		case m.To != "":
			in.Transitions++
			ev.Kind = "transition"
			ev.What = safetext.Quote(m.From) + " → " + safetext.Quote(m.To)
			if m.Reason != "" {
				ev.What += ": " + safetext.Quote(safetext.FirstLine(m.Reason))
			}
		case len(rec.Files) > 0:
			in.Changes++
			ev.Kind = "change"
			ev.What = m.MutationClass + " " + strings.Join(paths, ", ")
			if files[in] == nil {
				files[in] = map[string]int{}
			}
			for _, p := range paths {
				files[in][p]++
			}
		default:
			ev.Kind = "other"
			ev.What = safetext.Quote(cmp.Or(m.Command, m.Event))
		}
		if m.SessionID != "" {
			setAdd(sessions, in, safetext.Quote(m.SessionID))
		}
		dates[ev.Date] = true
		if in.First == "" {
			in.First = ev.Date
		}
		in.Last = ev.Date
		in.Events = append(in.Events, ev)
		if len(in.Events) > 2*opt.MaxEvents { // keep memory flat on a long ledger
			in.More += len(in.Events) - opt.MaxEvents
			in.Events = slices.Clone(in.Events[len(in.Events)-opt.MaxEvents:])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, in := range order {
		if len(in.Events) > opt.MaxEvents {
			in.More += len(in.Events) - opt.MaxEvents
			in.Events = in.Events[len(in.Events)-opt.MaxEvents:]
		}
		slices.Reverse(in.Events)
		for p, n := range files[in] {
			in.Files = append(in.Files, FileCount{p, n})
		}
		slices.SortFunc(in.Files, func(a, b FileCount) int { return cmp.Or(b.Count-a.Count, strings.Compare(a.Path, b.Path)) })
		in.Sessions = sortedKeys(sessions[in])
		in.Models = sortedKeys(models[in])
	}
	// Intents only the ledger names, and records of no intent, are shown
	// when they have something to show.
	for _, in := range order {
		if in.Known || len(in.Events) > 0 {
			r.Intents = append(r.Intents, in)
		}
	}
	r.Columns = columns(r.Intents)
	r.Dates = sortedKeys(dates)
	r.Graph = layout(r.Intents)
	return r, nil
}

// answerText says who answered an ask, how, and how long the call waited:
// who is an attribution (git's identity, else the OS user).
func answerText(m *ledger.Meta) string {
	var r asks.Record
	_ = json.Unmarshal(m.Answer, &r)
	what := safetext.Quote(m.Decision)
	if r.Code != "" {
		what += " ahead (" + safetext.Quote(r.Code) + ")"
	}
	what += " by " + safetext.Quote(cmp.Or(r.By, r.User, "a person")) + ", ask " + safetext.Quote(r.Ask)
	if r.WaitedMS > 0 {
		what += ", waited " + r.Waited()
	}
	if m.Reason != "" {
		what += ": " + safetext.Quote(safetext.FirstLine(m.Reason))
	}
	return what
}

// columns is the board: a column per status of Statuses, then one per
// other status a catalog intent has (a status this version does not know),
// so that every intent of the catalog is on it. An intent only the ledger
// names (removed from the catalog) keeps its section below the board, as
// records under no intent do, and has no card.
func columns(all []*Intent) []Column {
	var cols []Column
	at := map[string]int{}
	for _, s := range Statuses {
		at[string(s)] = len(cols)
		cols = append(cols, Column{Status: string(s)})
	}
	for _, in := range all {
		if !in.Known {
			continue
		}
		k, ok := at[in.Status]
		if !ok {
			k = len(cols)
			at[in.Status] = k
			cols = append(cols, Column{Status: in.Status})
		}
		cols[k].Intents = append(cols[k].Intents, in)
	}
	return cols
}

func setAdd(m map[*Intent]map[string]bool, in *Intent, v string) {
	if m[in] == nil {
		m[in] = map[string]bool{}
	}
	m[in][v] = true
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
