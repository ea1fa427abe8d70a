package ledger

import (
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/money"
)

// Spend sums the usage of records (an intent's, a range's): the calls,
// the tokens of every kind together and what the priced ones cost, in all,
// per model, per session and per agent. Reports and audits build it from
// the ledger; the hooks never do (they read counters).
type Spend struct {
	Share
	// Models splits the same by the model each usage names, by name; ""
	// gathers the calls whose usage names none.
	Models []ModelSpend `json:"models,omitempty"`
	// Sessions splits it by the records' session, Agents by the agent
	// that made the call (AgentOf), each by name.
	Sessions []SessionSpend `json:"sessions,omitempty"`
	Agents   []AgentSpend   `json:"agents,omitempty"`
}

// Share is what was spent: calls, tokens of every kind, dollars.
type Share struct {
	Calls  int64        `json:"calls"`
	Tokens int64        `json:"tokens"`
	USD    money.Amount `json:"usd"`
}

func (s *Share) add(o Share) {
	s.Calls, s.Tokens, s.USD = s.Calls+o.Calls, s.Tokens+o.Tokens, s.USD+o.USD
}

// ModelSpend is what was spent on one model.
type ModelSpend struct {
	Model string `json:"model"`
	Share
}

// SessionSpend is what one session spent.
type SessionSpend struct {
	Session string `json:"session"`
	Share
}

// AgentSpend is what one agent spent: "main" for the session's top-level
// agent, else a subagent's id.
type AgentSpend struct {
	Agent string `json:"agent"`
	Share
}

// MainAgent names the top-level agent of a session, whose records carry no
// agent id.
const MainAgent = "main"

// AgentOf is the agent whose call m records: its agent id, MainAgent for
// none.
func AgentOf(m *Meta) string {
	if m.AgentID == "" {
		return MainAgent
	}
	return string(m.AgentID)
}

// AddRecord adds the usage rec carries under its session and agent; a
// record without usage adds nothing.
func (s *Spend) AddRecord(rec *Record) {
	m := &rec.Metadata.Intenthook
	s.Add(m.Usage, m.SessionID, AgentOf(m))
}

// Add adds one record's usage, spent in session by agent; nil adds nothing.
func (s *Spend) Add(u *Usage, session, agent string) {
	if u == nil {
		return
	}
	sh := Share{Calls: u.Calls, Tokens: u.Tokens(), USD: u.USD}
	s.Share.add(sh)
	s.Models = addShare(s.Models, u.Model, sh, modelFields)
	s.Sessions = addShare(s.Sessions, session, sh, sessionFields)
	s.Agents = addShare(s.Agents, agent, sh, agentFields)
}

// Merge adds what o spent.
func (s *Spend) Merge(o *Spend) {
	if o == nil {
		return
	}
	s.Share.add(o.Share)
	for _, m := range o.Models {
		s.Models = addShare(s.Models, m.Model, m.Share, modelFields)
	}
	for _, x := range o.Sessions {
		s.Sessions = addShare(s.Sessions, x.Session, x.Share, sessionFields)
	}
	for _, x := range o.Agents {
		s.Agents = addShare(s.Agents, x.Agent, x.Share, agentFields)
	}
}

// The names and shares of the parts, for addShare.
func modelFields(m *ModelSpend) (*string, *Share)     { return &m.Model, &m.Share }
func sessionFields(x *SessionSpend) (*string, *Share) { return &x.Session, &x.Share }
func agentFields(x *AgentSpend) (*string, *Share)     { return &x.Agent, &x.Share }

// addShare adds sh to the part of parts (kept in name order) named name,
// adding the part when there is none; fields gives a part's name and share.
func addShare[T any](parts []T, name string, sh Share, fields func(*T) (*string, *Share)) []T {
	i, found := slices.BinarySearchFunc(parts, name, func(p T, name string) int {
		n, _ := fields(&p)
		return strings.Compare(*n, name)
	})
	if !found {
		var p T
		n, _ := fields(&p)
		*n = name
		parts = slices.Insert(parts, i, p)
	}
	_, share := fields(&parts[i])
	share.add(sh)
	return parts
}
