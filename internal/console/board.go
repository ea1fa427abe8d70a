package console

import (
	"errors"
	"io/fs"
	"net/http"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/budget"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/money"
)

// boardBytes bounds the records the intents board counts: the last
// boardBytes of the ledger's newest few files (ledger.ReadTail), however
// long the ledger.
const boardBytes = 1 << 20

// maxBoardFiles is how many of an intent's changed files the board names;
// files_changed counts them all.
const maxBoardFiles = 50

// Board is GET /api/intents: the catalog's intents, each with what the
// recent records say of it, and which records those are.
type Board struct {
	Intents []BoardIntent `json:"intents"`
	// Window is the records counted: the newest ones only.
	Window Window `json:"window"`
}

// Window is the run of recent records a board counts.
type Window struct {
	Records int    `json:"records"`         // how many records
	Since   string `json:"since,omitempty"` // the oldest one's time
}

// BoardIntent is one intent of the board: the catalog's id, name, status
// and scope (a person's), and, over the window, how many records name it,
// how many files its agents' writes changed and when it was last worked
// on. The files, as the agents named them, are apart and labelled.
type BoardIntent struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Status       string   `json:"status"`
	OwnedScope   []string `json:"owned_scope"`
	Records      int      `json:"records"`
	FilesChanged int      `json:"files_changed"`
	Last         string   `json:"last,omitempty"`
	// AgentText holds the changed files (the first maxBoardFiles).
	AgentText AgentText `json:"agent_text"`
	// Spend is what the intent's counters hold (every call since it
	// began, not the window's), the hooks' own figures: absent for an
	// intent without counters or a budget.
	Spend *Spend `json:"spend,omitempty"`
	// WindowSpend is what the window's records under the intent spent
	// (their usage), in all and per model, session and agent: absent
	// when none carries usage. Model names come from the agents'
	// transcripts.
	WindowSpend *ledger.Spend `json:"window_spend,omitempty"`
}

// Spend is an intent's spend and its budget, as intenthook status --json
// gives them.
type Spend struct {
	Calls  int64        `json:"calls"`
	Tokens int64        `json:"tokens"`
	USD    money.Amount `json:"usd"`
	// Budget lists each kind the catalog's budget limits: spent, limit
	// (raises included) and what is left.
	Budget   []budget.Use `json:"budget,omitempty"`
	Exceeded bool         `json:"exceeded,omitempty"`
	Error    string       `json:"error,omitempty"`
}

// spendOf reads in's counters (the last line of the guard's copy, as pre
// does): nil for an intent that has neither counters nor a budget.
func spendOf(root string, in *intents.Intent) *Spend {
	if !in.Budget.Set() && !budget.Exists(root, in.ID) {
		return nil
	}
	s, err := budget.Read(root, in.ID)
	out := &Spend{Calls: s.Calls, Tokens: s.Tokens, USD: money.Amount(s.MicroUSD), Budget: budget.Uses(in.Budget, s)}
	if err != nil {
		out.Error = err.Error()
	}
	_, out.Exceeded = budget.Exceeded(in.Budget, s)
	return out
}

// board builds the intents board from the catalog and the recent records.
func (s site) board() (Board, error) {
	b := Board{Intents: []BoardIntent{}}
	cat, err := intents.Load(filepath.Join(s.repo.Root, filepath.FromSlash(intents.File)))
	if errors.Is(err, fs.ErrNotExist) {
		return b, nil
	}
	if err != nil {
		return b, err
	}
	recs, _ := ledger.ReadTail(s.repo.Root, boardBytes)
	b.Window.Records = len(recs)
	if len(recs) > 0 {
		b.Window.Since = recs[0].Timestamp
	}
	type tally struct {
		records int
		last    string
		files   map[string]bool
		order   []string
		spend   *ledger.Spend
	}
	by := map[string]*tally{}
	for _, r := range recs {
		id := r.Intent()
		if id == "" {
			continue
		}
		t := by[id]
		if t == nil {
			t = &tally{files: map[string]bool{}}
			by[id] = t
		}
		t.records++
		t.last = r.Timestamp
		m := r.Metadata.Intenthook
		if m.Usage != nil {
			if t.spend == nil {
				t.spend = &ledger.Spend{}
			}
			t.spend.AddRecord(&r)
		}
		if m.Event != ledger.EventPostToolUse || !m.Success {
			continue
		}
		for _, f := range r.Files {
			if !t.files[f.Path] {
				t.files[f.Path] = true
				t.order = append(t.order, f.Path)
			}
		}
	}
	for _, in := range cat.All() {
		row := BoardIntent{ID: in.ID, Name: in.Name, Status: string(in.Status), OwnedScope: in.OwnedScope,
			AgentText: AgentText{WrittenBy: "agent"}}
		if row.OwnedScope == nil {
			row.OwnedScope = []string{}
		}
		row.Spend = spendOf(s.repo.Root, in)
		if t := by[in.ID]; t != nil {
			row.Records, row.Last, row.FilesChanged, row.WindowSpend = t.records, t.last, len(t.order), t.spend
			row.AgentText.Files = t.order[:min(len(t.order), maxBoardFiles)]
		}
		b.Intents = append(b.Intents, row)
	}
	return b, nil
}

func (s site) serveIntents(w http.ResponseWriter) {
	b, err := s.board()
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, b)
}
