package ledger

import (
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/money"
)

// Spend sums the usage of records (an intent's, a range's): the calls,
// the tokens of every kind together and what the priced ones cost, in all
// and per model. Reports and audits build it from the ledger; the hooks
// never do (they read counters).
type Spend struct {
	Calls  int64        `json:"calls"`
	Tokens int64        `json:"tokens"`
	USD    money.Amount `json:"usd"`
	// Models splits the same by the model each usage names, by name; ""
	// gathers the calls whose usage names none.
	Models []ModelSpend `json:"models,omitempty"`
}

// ModelSpend is what was spent on one model.
type ModelSpend struct {
	Model  string       `json:"model"`
	Calls  int64        `json:"calls"`
	Tokens int64        `json:"tokens"`
	USD    money.Amount `json:"usd"`
}

// Add adds one record's usage; nil adds nothing.
func (s *Spend) Add(u *Usage) {
	if u == nil {
		return
	}
	t := u.Tokens()
	s.Calls, s.Tokens, s.USD = s.Calls+u.Calls, s.Tokens+t, s.USD+u.USD
	i, found := slices.BinarySearchFunc(s.Models, u.Model, func(m ModelSpend, name string) int { return strings.Compare(m.Model, name) })
	if !found {
		s.Models = slices.Insert(s.Models, i, ModelSpend{Model: u.Model})
	}
	m := &s.Models[i]
	m.Calls, m.Tokens, m.USD = m.Calls+u.Calls, m.Tokens+t, m.USD+u.USD
}

// Merge adds what o spent.
func (s *Spend) Merge(o *Spend) {
	if o == nil {
		return
	}
	for _, m := range o.Models {
		s.Add(&Usage{Model: m.Model, Calls: m.Calls, InputTokens: m.Tokens, USD: m.USD})
	}
}
