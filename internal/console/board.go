package console

import (
	"cmp"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"

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
	// Lines are the lines of the files listed in AgentText as they are
	// now, by whom: absent for an intent the window names no file of.
	Lines *Lines `json:"lines,omitempty"`
}

// maxLineFiles bounds the files the board reads for its lines, all
// intents' together; each is read up to maxBlameBytes.
const maxLineFiles = 50

// Lines is an intent's lines in the work tree now, in the files the board
// lists for it, attributed as GET /api/blame attributes them from the
// window's records: a line goes to the newest successful write whose range
// over it still hashes the same.
type Lines struct {
	// Agents: lines a write under this intent backs.
	Agents int `json:"agents"`
	// People: lines no write in the window backs (a person's, a program
	// the hooks did not see, changed since, or written before the window).
	People int `json:"people"`
	// OtherIntents: lines a write under another intent (or none) backs.
	OtherIntents int `json:"other_intents"`
	// Files is how many of the listed files were read.
	Files int `json:"files"`
	// Cut: a listed file was not read for a bound (maxLineFiles in all,
	// maxBlameBytes each), or the intent changed more files than listed.
	Cut bool `json:"cut"`
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
		newest  int // the index of its newest record
		files   map[string]bool
		order   []string
		spend   *ledger.Spend
	}
	by := map[string]*tally{}
	for i, r := range recs {
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
		t.last, t.newest = r.Timestamp, i
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
	var worked []lister // the intents with files, worked on last first
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
			if len(t.order) > 0 {
				worked = append(worked, lister{in.ID, t.newest, row.AgentText.Files, len(t.order)})
			}
		}
		b.Intents = append(b.Intents, row)
	}
	slices.SortStableFunc(worked, func(a, b lister) int { return cmp.Compare(b.newest, a.newest) })
	lines := boardLines(s.repo.Root, recs, worked)
	for i := range b.Intents {
		b.Intents[i].Lines = lines[b.Intents[i].ID]
	}
	return b, nil
}

// lister is an intent the board lists files of: its newest record's index
// in the window, the files listed, and how many it changed.
type lister struct {
	id      string
	newest  int
	files   []string
	changed int
}

// boardLines counts each intent's lines in the files the board lists for
// it (intents in the order given, the first ones' files read first), from
// the window's records: maxLineFiles files at most in all, each read once
// through os.Root (none out of the work tree or under .git, no link out of
// it) and maxBlameBytes at most, and the records read once for all of them.
func boardLines(root string, recs []ledger.Record, intents []lister) map[string]*Lines {
	out := make(map[string]*Lines, len(intents))
	read := map[string]bool{} // the files to read
	var order []string
	for _, in := range intents {
		l := &Lines{Cut: in.changed > len(in.files)}
		out[in.id] = l
		for _, f := range in.files {
			p, err := blamePath(f)
			if err != nil || read[p] {
				continue
			}
			if len(order) == maxLineFiles {
				l.Cut = true
				continue
			}
			read[p] = true
			order = append(order, p)
		}
	}
	if len(order) == 0 {
		return out
	}
	// The records that changed each file, newest first.
	changed := map[string][]ledger.Record{}
	for i := len(recs) - 1; i >= 0; i-- {
		for _, f := range recs[i].Files {
			if read[f.Path] {
				changed[f.Path] = append(changed[f.Path], recs[i])
			}
		}
	}
	type counted struct {
		lines    int
		byIntent map[string]int // lines each intent's writes back ("": none named)
	}
	files := map[string]*counted{}
	tooLarge := map[string]bool{}
	r, err := os.OpenRoot(root)
	if err != nil {
		return out
	}
	defer r.Close()
	for _, p := range order {
		content, err := readIn(r, p)
		if errors.Is(err, errTooLarge) {
			tooLarge[p] = true
		}
		if err != nil {
			continue // gone, not a regular file, a link out of the work tree
		}
		b := attribute(p, content, changed[p])
		c := &counted{lines: b.Lines, byIntent: map[string]int{}}
		for _, run := range b.Runs {
			if run.Record >= 0 {
				c.byIntent[b.Records[run.Record].Intent] += run.End - run.Start + 1
			}
		}
		files[p] = c
	}
	for _, in := range intents {
		l := out[in.id]
		seen := map[string]bool{}
		for _, f := range in.files {
			p, err := blamePath(f)
			if err != nil || seen[p] {
				continue
			}
			seen[p] = true
			l.Cut = l.Cut || tooLarge[p]
			c := files[p]
			if c == nil {
				continue
			}
			backed := 0
			for _, n := range c.byIntent {
				backed += n
			}
			l.Files++
			l.Agents += c.byIntent[in.id]
			l.OtherIntents += backed - c.byIntent[in.id]
			l.People += c.lines - backed
		}
	}
	return out
}

func (s site) serveIntents(w http.ResponseWriter) {
	b, err := s.board()
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, b)
}
