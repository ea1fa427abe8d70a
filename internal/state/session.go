package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// NoSession names the state of events that carry no session id.
const NoSession = "no-session"

// PendingTTL is how long a pre-hash waits for its PostToolUse.
const PendingTTL = 24 * time.Hour

// Pending is what PreToolUse leaves for the PostToolUse of the same tool_use_id.
type Pending struct {
	IntentID string            `json:"intent_id,omitempty"`
	AgentID  string            `json:"agent_id,omitempty"`
	Tool     string            `json:"tool,omitempty"`
	PreHash  map[string]string `json:"pre_hash,omitempty"` // rel path -> digest ("" = absent)
	Scope    string            `json:"scope,omitempty"`    // PASS, EXEMPT, IGNORED
	At       time.Time         `json:"at"`
	// Backstop marks a shell call whose work tree was snapshotted: Snapshot
	// holds the digest of each path git status reported before the call
	// ("" for a deleted one).
	Backstop bool              `json:"backstop,omitempty"`
	Snapshot map[string]string `json:"snapshot,omitempty"`
}

// Session is one agent conversation's state.
type Session struct {
	ID         string    `json:"session_id"`
	Model      string    `json:"model,omitempty"`
	Transcript string    `json:"transcript_path,omitempty"`
	LastSeen   time.Time `json:"last_seen"`
	// Intent is the session's selection; AgentIntents override it per agent.
	Intent       string             `json:"intent,omitempty"`
	AgentIntents map[string]string  `json:"agent_intents,omitempty"`
	Pending      map[string]Pending `json:"pending,omitempty"`
	// Hashes are the file digests this session saw, per agent ("" = the main
	// agent) and root-relative path: on read and on its own writes.
	Hashes map[string]map[string]string `json:"hashes,omitempty"`
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

// RecordedHash returns the digest agent last saw for rel.
func (s *Session) RecordedHash(agent, rel string) (string, bool) {
	h, ok := s.Hashes[agent][rel]
	return h, ok
}

// Record remembers the digest agent saw for rel.
func (s *Session) Record(agent, rel, hash string) {
	if s.Hashes == nil {
		s.Hashes = map[string]map[string]string{}
	}
	if s.Hashes[agent] == nil {
		s.Hashes[agent] = map[string]string{}
	}
	s.Hashes[agent][rel] = hash
}

// A tool call's pending entry is a file of its own,
// state/pending/<session key>.<tool_use_id key>.json: PreToolUse writes it
// with one write and no lock (the id is unique to the call), PostToolUse
// reads and removes it. Rewriting the whole session file under its lock on
// every PreToolUse would cost a lock, a temporary file and a rename on every
// tool call.

func (ss Sessions) pendingPath(session, toolUseID string) string {
	return Path(ss.Root, "pending", SessionKey(session)+"."+Key(toolUseID)+".json")
}

// PutPending stores what PreToolUse leaves for the PostToolUse of the same
// tool_use_id.
func (ss Sessions) PutPending(session, toolUseID string, p Pending) error {
	if toolUseID == "" {
		return nil
	}
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	path := ss.pendingPath(session, toolUseID)
	if err := os.WriteFile(path, data, 0o644); errors.Is(err, fs.ErrNotExist) {
		if err := Ensure(ss.Root, "pending"); err != nil {
			return err
		}
		err = os.WriteFile(path, data, 0o644)
		if err != nil {
			return fmt.Errorf("store pending call: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("store pending call: %w", err)
	}
	return nil
}

// GetPending returns the entry PreToolUse left for toolUseID, if any.
func (ss Sessions) GetPending(session, toolUseID string) (Pending, bool) {
	var p Pending
	if toolUseID == "" {
		return p, false
	}
	data, err := os.ReadFile(ss.pendingPath(session, toolUseID))
	if err != nil || json.Unmarshal(data, &p) != nil {
		return Pending{}, false
	}
	return p, true
}

// DropPending removes the entry of a call that PostToolUse has recorded.
func (ss Sessions) DropPending(session, toolUseID string) {
	if toolUseID != "" {
		_ = os.Remove(ss.pendingPath(session, toolUseID))
	}
}

// PrunePending removes entries older than PendingTTL (calls whose
// PostToolUse never came) and returns how many are left per session key.
func (ss Sessions) PrunePending(now time.Time) map[string]int {
	left := map[string]int{}
	dir := Path(ss.Root, "pending")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return left
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue
		}
		if now.Sub(info.ModTime()) > PendingTTL {
			_ = os.Remove(filepath.Join(dir, e.Name()))
			continue
		}
		if key, _, ok := strings.Cut(e.Name(), "."); ok {
			left[key]++
		}
	}
	return left
}

// Sessions is the state of every session of one workspace.
type Sessions struct {
	Root    string
	Timeout time.Duration
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
	data, err := os.ReadFile(ss.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read session state: %w", err)
	}
	if err := json.Unmarshal(data, s); err != nil {
		// State can be rebuilt; a damaged file must not wedge the agent.
		return &Session{ID: id}, nil
	}
	return s, nil
}

// Update runs fn on the session's state under its lock and writes the result.
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
	if err := fn(s); err != nil {
		return err
	}
	s.LastSeen = now.UTC()
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return WriteFile(ss.path(id), data, 0o644, false)
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
		data, err := os.ReadFile(filepath.Join(Path(ss.Root, "sessions"), e.Name()))
		if err != nil {
			continue
		}
		var s Session
		if json.Unmarshal(data, &s) == nil {
			out = append(out, &s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastSeen.After(out[j].LastSeen) })
	return out, nil
}

// Default is the workspace default selection, state/default.json.
type Default struct {
	IntentID string    `json:"intent_id"`
	SetAt    time.Time `json:"set_at"`
}

// ReadDefault returns the workspace default intent id, or "".
func ReadDefault(root string) string {
	data, err := os.ReadFile(Path(root, "default.json"))
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
