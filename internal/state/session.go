package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/jsontext"
	"github.com/intenthook/intenthook/internal/osfile"
)

// NoSession names the state of events that carry no session id.
const NoSession = "no-session"

// Session is one agent conversation's state.
type Session struct {
	ID         string    `json:"session_id"`
	Model      string    `json:"model,omitempty"`
	Transcript string    `json:"transcript_path,omitempty"`
	LastSeen   time.Time `json:"last_seen"`
	// Intent is the session's selection; AgentIntents override it per agent.
	Intent       string            `json:"intent,omitempty"`
	AgentIntents map[string]string `json:"agent_intents,omitempty"`
	// Agents are the subagents seen in the session, by id, with their
	// type: a delegation is claimed by an agent on its first sighting.
	Agents map[string]string `json:"agents,omitempty"`
	// Delegations are the intents handed to subagents (package delegation).
	Delegations []Delegation `json:"delegations,omitempty"`
	// MCPTools are the MCP tools intenthook does not classify that named a
	// workspace file in this session (at most MaxMCPTools), for doctor.
	MCPTools []string `json:"mcp_tools,omitempty"`
	// Reverts are the files the session's last violation named that a
	// command may put back, each with how (backstop.PutCheckout or
	// PutRemove): the session may then run exactly that.
	Reverts map[string]string `json:"reverts,omitempty"`
	// EndedAt is when the agent said the session ended (SessionEnd); a
	// resume clears it. EndedDuring names, by session key, the other
	// sessions whose shell command was running then: a program in that
	// command could have sent the end, so it releases nothing (Released).
	EndedAt     time.Time `json:"ended_at,omitzero"`
	EndedDuring []string  `json:"ended_during,omitempty"`
	// Usage is where counting the tokens spent stopped in each transcript
	// of the session (its own, its subagents'), by path: a mark of package
	// transcript, at most MaxUsageMarks.
	Usage map[string]string `json:"usage,omitempty"`
	// BudgetNoted are the intents whose spend the session was told came
	// near their budget: it is told once.
	BudgetNoted []string `json:"budget_noted,omitempty"`
	// Spent is what the session spent, counted only where config.yaml
	// sets a session budget.
	Spent Spent `json:"spent,omitzero"`
}

// Spent is what a session spent: the calls post recorded, their tokens of
// every kind and what those cost, in micro-dollars.
type Spent struct {
	Calls    int64 `json:"calls"`
	Tokens   int64 `json:"tokens"`
	MicroUSD int64 `json:"usd_micros"`
}

// MaxUsageMarks bounds Session.Usage.
const MaxUsageMarks = 32

// SetUsageMark keeps mark for the transcript at path. A new path beyond
// MaxUsageMarks first drops another (the first in path order that is not
// keep, the session's own transcript): a subagent's transcript whose mark
// was dropped counts again from its start when it is seen next.
func (s *Session) SetUsageMark(path, mark, keep string) {
	if s.Usage == nil {
		s.Usage = map[string]string{}
	}
	if _, ok := s.Usage[path]; !ok && len(s.Usage) >= MaxUsageMarks {
		drop := ""
		for p := range s.Usage {
			if p != keep && (drop == "" || p < drop) {
				drop = p
			}
		}
		delete(s.Usage, drop)
	}
	s.Usage[path] = mark
}

// End marks the session ended at at, while the shell commands of the
// sessions during (keys) were running.
func (s *Session) End(at time.Time, during []string) {
	s.EndedAt, s.EndedDuring = at.UTC(), during
}

// Resume forgets the session's end.
func (s *Session) Resume() { s.EndedAt, s.EndedDuring = time.Time{}, nil }

// Ended reports whether the session ended and did nothing since: an end
// followed by its activity (a call after a forged end, a prompt) is no
// end. LastSeen must be the session's last activity (List's).
func (s *Session) Ended() bool {
	return !s.EndedAt.IsZero() && !s.LastSeen.After(s.EndedAt)
}

// Released reports whether the session's end releases what it selected:
// it Ended, and no other session's shell command was running when the end
// came. An end that did not release leaves the session's claim to lapse
// as a vanished session's does.
func (s *Session) Released() bool { return s.Ended() && len(s.EndedDuring) == 0 }

// MaxMCPTools bounds Session.MCPTools.
const MaxMCPTools = 32

// Delegation is an intent handed to a subagent: pending until a spawning
// call (Task, Agent) takes it, then claimed by the first new agent of its
// type to appear.
type Delegation struct {
	Seq       int       `json:"seq"`
	Intent    string    `json:"intent"`
	AgentType string    `json:"agent_type"`
	By        string    `json:"by,omitempty"` // the coordinator's agent id; "" for the top-level agent
	At        time.Time `json:"at"`
	// Spawn is the tool_use_id of the spawning call that took it, and
	// SpawnSeq that call's place in the session's spawn order.
	Spawn    string `json:"spawn,omitempty"`
	SpawnSeq int    `json:"spawn_seq,omitempty"`
	// Agent is the agent id that claimed it.
	Agent     string    `json:"agent,omitempty"`
	ClaimedAt time.Time `json:"claimed_at,omitzero"`
	// Depth is the delegation's level below the top-level agent: 1 for
	// one the top-level agent (or a person) made.
	Depth int `json:"depth,omitempty"`
}

// ActiveIntent returns the intent selected for agent (falling back to the
// session's) and whether it came from the agent's own selection.
func (s *Session) ActiveIntent(agent string) string {
	if id := s.AgentIntents[agent]; agent != "" && id != "" {
		return id
	}
	return s.Intent
}

// Select binds id (or unbinds, with "") for agent, or for the session.
func (s *Session) Select(agent, id string) {
	if agent == "" {
		s.Intent = id
		return
	}
	if s.AgentIntents == nil {
		s.AgentIntents = map[string]string{}
	}
	if id == "" {
		delete(s.AgentIntents, agent)
		return
	}
	s.AgentIntents[agent] = id
}

// Sessions is the state of every session of one workspace.
type Sessions struct {
	Root    string
	Timeout time.Duration
	// By names the hook call writing through this store (guard.By), ""
	// for a person's command. A session's selection and denial log loosen
	// decisions, and the guard of an agent's shell command running
	// meanwhile excuses only the writes a hook journaled under its call.
	By string
}

// SessionFile is the root-relative path of a session's state (its
// selection): the guard of the session's shell commands watches it.
func SessionFile(id string) string {
	return StateDir + "/sessions/" + SessionKey(id) + ".json"
}

// DenialsFile is the root-relative path of a session's denial log, which
// loop detection counts: the guard of the session's shell commands watches
// it.
func DenialsFile(id string) string {
	return StateDir + "/denials/" + SessionKey(id) + ".jsonl"
}

// journal notes a hook's write of content to rel for the guard; a person's
// command journals nothing.
func (ss Sessions) journal(rel string, content []byte) {
	if ss.By != "" {
		guard.JournalBy(ss.Root, rel, content, ss.By)
	}
}

// SessionKey names a session's files: Key(id), or "no-session" for events without one.
func SessionKey(id string) string {
	if k := Key(id); k != "" {
		return k
	}
	return NoSession
}

func (ss Sessions) path(id string) string {
	return Path(ss.Root, "sessions", SessionKey(id)+".json")
}

// Read returns the session's state without locking: rewrites are atomic, so a
// reader sees a whole file. A session never seen reads as empty.
func (ss Sessions) Read(id string) (*Session, error) {
	s := &Session{ID: id}
	data, err := osfile.ReadFile(ss.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read session state: %w", err)
	}
	if err := decodeSession(data, s); err != nil {
		// State can be rebuilt; a damaged file must not wedge the agent.
		return &Session{ID: id}, nil
	}
	return s, nil
}

// decodeSession reads a session file by its members (jsontext), not through
// the Session type: every hook reads one, and json.Unmarshal's first call
// costs a new process more than the rest of the read. Keys are matched as
// written, and a value of another type reads as absent (a map's member too),
// which for files intenthook wrote is json.Unmarshal's reading
// (TestSessionDecodesAsJSON); only the delegations, which only sessions that
// delegated have, go through json.
func decodeSession(data []byte, s *Session) error {
	m := map[string][]byte{}
	if !jsontext.Members(data, func(key string, value []byte) { m[key] = value }) {
		return errors.New("session state: not a JSON object")
	}
	str := func(key string) string {
		v, _ := jsontext.Unquote(m[key])
		return v
	}
	s.ID, s.Model, s.Transcript, s.Intent = str("session_id"), str("model"), str("transcript_path"), str("intent")
	if t, err := time.Parse(time.RFC3339Nano, str("last_seen")); err == nil {
		s.LastSeen = t
	}
	s.AgentIntents = strMap(m["agent_intents"])
	s.Agents = strMap(m["agents"])
	s.Reverts = strMap(m["reverts"])
	s.Usage = strMap(m["usage"])
	s.Spent = decodeSpent(m["spent"])
	s.BudgetNoted = strList(m["budget_noted"])
	s.MCPTools = strList(m["mcp_tools"])
	if t, err := time.Parse(time.RFC3339Nano, str("ended_at")); err == nil {
		s.EndedAt = t
	}
	s.EndedDuring = strList(m["ended_during"])
	if raw := m["delegations"]; len(raw) > 0 {
		_ = json.Unmarshal(raw, &s.Delegations)
	}
	return nil
}

// strMap decodes a JSON object of strings as json.Unmarshal into a
// map[string]string does, but for a member that is not a string, which is
// left out: nil when raw is not an object.
func strMap(raw []byte) map[string]string {
	out := map[string]string{}
	if !jsontext.Members(raw, func(key string, value []byte) {
		if s, ok := jsontext.Unquote(value); ok {
			out[key] = s
		}
	}) {
		return nil
	}
	return out
}

// strList decodes a JSON list of strings as json.Unmarshal into a []string
// does: nil when raw is not a list, "" for an element that is not a string.
func strList(raw []byte) []string {
	var out []string
	if !jsontext.Elements(raw, func(value []byte) {
		s, _ := jsontext.Unquote(value)
		out = append(out, s)
	}) {
		return nil
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// decodeSpent decodes a session's spend as json.Unmarshal into Spent does:
// its keys matched without regard to case, a value that is not an integer
// left out.
func decodeSpent(raw []byte) Spent {
	var sp Spent
	jsontext.Members(raw, func(key string, value []byte) {
		n, err := strconv.ParseInt(string(value), 10, 64)
		if err != nil || !jsontext.Valid(value) {
			return
		}
		switch {
		case strings.EqualFold(key, "calls"):
			sp.Calls = n
		case strings.EqualFold(key, "tokens"):
			sp.Tokens = n
		case strings.EqualFold(key, "usd_micros"):
			sp.MicroUSD = n
		}
	})
	return sp
}

// encodeSession writes s as json.Marshal would (HTML left unescaped),
// member by member, for the reason decodeSession reads it so: a selection
// writes the session on every call. Only the delegations go through json,
// and a time json cannot write (a year past 9999) sends the whole session
// there, for its error.
func encodeSession(s *Session) ([]byte, error) {
	if !rfc3339(s.LastSeen) || !rfc3339(s.EndedAt) {
		return json.Marshal(s)
	}
	b := make([]byte, 0, 256)
	b = append(b, `{"session_id":`...)
	b = jsontext.AppendString(b, s.ID)
	b = strMember(b, "model", s.Model)
	b = strMember(b, "transcript_path", s.Transcript)
	b = timeMember(b, "last_seen", s.LastSeen)
	b = strMember(b, "intent", s.Intent)
	b = mapMember(b, "agent_intents", s.AgentIntents)
	b = mapMember(b, "agents", s.Agents)
	if len(s.Delegations) > 0 {
		d, err := json.Marshal(s.Delegations)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"delegations":`...), d...)
	}
	b = listMember(b, "mcp_tools", s.MCPTools)
	b = mapMember(b, "reverts", s.Reverts)
	if !s.EndedAt.IsZero() {
		b = timeMember(b, "ended_at", s.EndedAt)
	}
	b = listMember(b, "ended_during", s.EndedDuring)
	b = mapMember(b, "usage", s.Usage)
	b = listMember(b, "budget_noted", s.BudgetNoted)
	if sp := s.Spent; sp != (Spent{}) {
		b = append(b, `,"spent":{"calls":`...)
		b = strconv.AppendInt(b, sp.Calls, 10)
		b = append(b, `,"tokens":`...)
		b = strconv.AppendInt(b, sp.Tokens, 10)
		b = append(b, `,"usd_micros":`...)
		b = strconv.AppendInt(b, sp.MicroUSD, 10)
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// rfc3339 reports whether json can write t (its year is within 0–9999).
func rfc3339(t time.Time) bool { return t.Year() >= 0 && t.Year() <= 9999 }

func jsonKey(b []byte, k string) []byte {
	return append(append(append(b, ',', '"'), k...), '"', ':')
}

// strMember appends an omitempty string member.
func strMember(b []byte, k, v string) []byte {
	if v == "" {
		return b
	}
	return jsontext.AppendString(jsonKey(b, k), v)
}

// timeMember appends a time member as time.Time's MarshalJSON writes it.
func timeMember(b []byte, k string, t time.Time) []byte {
	b = append(jsonKey(b, k), '"')
	return append(t.AppendFormat(b, time.RFC3339Nano), '"')
}

// listMember appends an omitempty list of strings.
func listMember(b []byte, k string, l []string) []byte {
	if len(l) == 0 {
		return b
	}
	b = append(jsonKey(b, k), '[')
	for i, v := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendString(b, v)
	}
	return append(b, ']')
}

// mapMember appends an omitempty map of strings, its keys in order, as
// json writes a map.
func mapMember(b []byte, k string, m map[string]string) []byte {
	if len(m) == 0 {
		return b
	}
	b = append(jsonKey(b, k), '{')
	for i, mk := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(jsontext.AppendString(b, mk), ':')
		b = jsontext.AppendString(b, m[mk])
	}
	return append(b, '}')
}

// Update runs fn on the session's state under its lock and writes the
// result, seen at now.
func (ss Sessions) Update(ctx context.Context, id string, now time.Time, fn func(*Session) error) error {
	if err := Ensure(ss.Root, "sessions"); err != nil {
		return err
	}
	unlock, err := Lock(ctx, ss.Root, LockSession+"-"+SessionKey(id), ss.Timeout)
	if err != nil {
		return err
	}
	defer unlock()
	s, err := ss.Read(id)
	if err != nil {
		return err
	}
	ended := s.EndedAt
	if err := fn(s); err != nil {
		return err
	}
	if !ended.IsZero() && s.EndedAt.Equal(ended) && now.Before(ended) {
		// Activity after the end, on a clock that has stepped back behind
		// the end's stamp: the end no longer counts (Ended), as it would
		// not had the clock gone on.
		s.Resume()
	}
	s.LastSeen = now.UTC()
	data, err := encodeSession(s)
	if err != nil {
		return err
	}
	if err := WriteFile(ss.path(id), data, 0o644, false); err != nil {
		return err
	}
	ss.journal(SessionFile(id), data)
	return nil
}

// List returns every stored session, most recently seen first.
func (ss Sessions) List() ([]*Session, error) {
	entries, err := os.ReadDir(Path(ss.Root, "sessions"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*Session
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		data, err := osfile.ReadFile(filepath.Join(Path(ss.Root, "sessions"), e.Name()))
		if err != nil {
			continue
		}
		var s Session
		if decodeSession(data, &s) == nil {
			s.LastSeen = ss.lastActivity(&s)
			out = append(out, &s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastSeen.After(out[j].LastSeen) })
	return out, nil
}

// lastActivity is the newest of the session file's last_seen and the
// modification times of its logs: tool calls append to the logs without
// rewriting the session file.
func (ss Sessions) lastActivity(s *Session) time.Time {
	last := s.LastSeen
	for _, p := range []string{ss.pendingPath(s.ID), ss.seenPath(s.ID)} {
		if st, err := os.Stat(p); err == nil && st.ModTime().After(last) {
			last = st.ModTime().UTC()
		}
	}
	return last
}

// Default is the workspace default selection, state/default.json.
type Default struct {
	IntentID string    `json:"intent_id"`
	SetAt    time.Time `json:"set_at"`
}

// ReadDefault returns the workspace default intent id, or "".
func ReadDefault(root string) string {
	data, err := osfile.ReadFile(Path(root, "default.json"))
	if err != nil {
		return ""
	}
	var d Default
	_ = json.Unmarshal(data, &d)
	return d.IntentID
}

// WriteDefault sets (or with "" clears) the workspace default.
func WriteDefault(root, id string, now time.Time) error {
	if err := Ensure(root); err != nil {
		return err
	}
	if id == "" {
		err := os.Remove(Path(root, "default.json"))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	data, _ := json.Marshal(Default{IntentID: id, SetAt: now.UTC()})
	return WriteFile(Path(root, "default.json"), data, 0o644, false)
}
