package state

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/backstop"
	"github.com/intenthook/intenthook/internal/codec"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/osfile"
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
	// Scope is how each path passed the chain when not plainly in scope
	// (IGNORED): PASS is left out.
	Scope map[string]string `json:"scope,omitempty"`
	At    time.Time         `json:"at"`
	// Backstop is the work tree pictured before a shell call, nil when
	// the backstop did not run.
	Backstop *backstop.Picture `json:"backstop,omitempty"`
	// Asked marks a call PreToolUse asked the user about: it is recorded
	// even when it changed nothing.
	Asked bool `json:"asked,omitempty"`
	// PluginDeny marks a call the hook file left to the session's plugin
	// to deny: had the plugin asked, the call would not have run, so a
	// post for it says the plugin is not there.
	PluginDeny bool `json:"plugin_deny,omitempty"`
	// Guard is the picture of the governance files taken before a shell
	// call that may write.
	Guard *guard.Snapshot `json:"guard,omitempty"`
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

// Pending entries live in one append-only log per session,
// state/pending/<session key>.log: PreToolUse appends a line, PostToolUse
// finds the newest line for its tool_use_id and appends a "done" line. On
// this path every avoided file creation, truncation or rename counts: an
// append costs microseconds where rewriting the session file under its lock
// costs a temporary file and a rename. Appends and compaction hold the
// session's lock, so compaction never loses an entry.
//
// A line is "p2 <id> <mark> <entry>": the tool_use_id and the entry (in
// package codec's form, in Pending.encode's order) in unpadded base64url, the
// mark + for an entry and - for a done marker. Not JSON: the first JSON
// encoding of a type costs a hook process more than all its file work.

// pendingCompactAt is the log size past which PostToolUse compacts it.
const pendingCompactAt = 64 << 10

// pendingPrefix starts every line; it changes whenever the entry's form
// does, and lines of another form are skipped.
const pendingPrefix = "p2 "

var b64 = base64.RawURLEncoding

// pendingLine is one line of the log: an entry, or a done marker.
type pendingLine struct {
	ID   string
	Done bool
	Pending
}

func (l pendingLine) marshal() []byte {
	out := append([]byte(pendingPrefix), b64.EncodeToString([]byte(l.ID))...)
	if l.Done {
		return append(out, " -\n"...)
	}
	var e codec.Encoder
	l.Pending.encode(&e)
	out = append(out, " + "...)
	return append(b64.AppendEncode(out, e.B), '\n')
}

// parsePendingLine reads one line (without its newline); ok is false for a
// line of another form or a damaged one.
func parsePendingLine(line []byte) (l pendingLine, ok bool) {
	rest, ok := bytes.CutPrefix(line, []byte(pendingPrefix))
	if !ok {
		return l, false
	}
	id, rest, _ := bytes.Cut(rest, []byte(" "))
	raw, err := b64.DecodeString(string(id))
	if err != nil || len(raw) == 0 {
		return l, false
	}
	l.ID = string(raw)
	switch {
	case string(rest) == "-":
		l.Done = true
		return l, true
	case bytes.HasPrefix(rest, []byte("+ ")):
		entry, err := b64.DecodeString(string(rest[2:]))
		if err != nil {
			return l, false
		}
		d := codec.Decoder{B: entry}
		l.Pending.decode(&d)
		return l, d.Err == nil && len(d.B) == 0
	}
	return l, false
}

// encode writes p in the order decode reads it.
func (p *Pending) encode(e *codec.Encoder) {
	e.Str(p.IntentID)
	e.Str(p.AgentID)
	e.Str(p.Tool)
	e.StrMap(p.PreHash)
	e.StrMap(p.Scope)
	e.Bool(p.At.IsZero())
	if !p.At.IsZero() {
		e.Int(p.At.UnixNano())
	}
	backstop.Encode(e, p.Backstop)
	e.Bool(p.Asked)
	guard.Encode(e, p.Guard)
	if p.PluginDeny {
		e.Bool(true)
	}
}

func (p *Pending) decode(d *codec.Decoder) {
	p.IntentID, p.AgentID, p.Tool = d.Str(), d.Str(), d.Str()
	p.PreHash, p.Scope = d.StrMap(), d.StrMap()
	if !d.Bool() {
		p.At = time.Unix(0, d.Int()).UTC()
	}
	p.Backstop = backstop.Decode(d)
	p.Asked = d.Bool()
	p.Guard = guard.Decode(d)
	if len(d.B) > 0 {
		p.PluginDeny = d.Bool()
	}
}

func (ss Sessions) pendingPath(session string) string {
	return Path(ss.Root, "pending", SessionKey(session)+".log")
}

// PutPending stores what PreToolUse leaves for the PostToolUse of the same
// tool_use_id.
//
// The log is appended under the session lock; when the lock cannot be had
// (another process, the agent's own flock, holds it), the entry is stored
// in a file of its own beside the log, which needs no lock: a lock someone
// holds must not cost the call its pre-hashes or its backstop.
func (ss Sessions) PutPending(ctx context.Context, session, toolUseID string, p Pending) error {
	if toolUseID == "" {
		return nil
	}
	l := pendingLine{ID: toolUseID, Pending: p}
	err := ss.appendPending(ctx, session, l)
	if err == nil {
		return nil
	}
	if serr := ss.putSidecar(session, toolUseID, l.marshal()); serr != nil {
		if serr.Error() == err.Error() {
			return err
		}
		return errors.Join(err, serr)
	}
	return nil
}

// sidecarPath is the lock-free file of one pending entry.
func (ss Sessions) sidecarPath(session, toolUseID string) string {
	return Path(ss.Root, "pending", SessionKey(session)+"."+b64.EncodeToString([]byte(toolUseID))+".pend")
}

// putSidecar writes one entry to its own file, through a temporary file
// and a rename (a link in its place is replaced, never followed).
func (ss Sessions) putSidecar(session, toolUseID string, line []byte) error {
	path := ss.sidecarPath(session, toolUseID)
	if err := Ensure(ss.Root, "pending"); err != nil {
		return err
	}
	f, err := osfile.CreateTemp(filepath.Dir(path), ".pend-*")
	if err != nil {
		return fmt.Errorf("store pending call: %w", err)
	}
	_, werr := f.Write(line)
	if err := errors.Join(werr, f.Close()); err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("store pending call: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("store pending call: %w", err)
	}
	return nil
}

// DonePending marks toolUseID's entry as recorded, compacting the log when
// it has grown.
func (ss Sessions) DonePending(ctx context.Context, session, toolUseID string, now time.Time) error {
	if toolUseID == "" {
		return nil
	}
	if err := ss.appendPending(ctx, session, pendingLine{ID: toolUseID, Done: true}); err != nil {
		return err
	}
	if st, err := os.Stat(ss.pendingPath(session)); err == nil && st.Size() > pendingCompactAt {
		return ss.compactPending(ctx, session, now)
	}
	return nil
}

func (ss Sessions) appendPending(ctx context.Context, session string, l pendingLine) error {
	if err := ss.appendLog(ctx, session, ss.pendingPath(session), "pending", l.marshal()); err != nil {
		return fmt.Errorf("store pending call: %w", err)
	}
	return nil
}

// appendLog appends data to one of session's logs with one write, under the
// session lock: compaction replaces a log by renaming a new file over it,
// and an append racing it would land in the replaced file.
func (ss Sessions) appendLog(ctx context.Context, session, path, subdir string, data []byte) error {
	unlock, err := Lock(ctx, ss.Root, LockSession+"-"+SessionKey(session), ss.Timeout)
	if err != nil {
		return err
	}
	defer unlock()
	err = osfile.AppendFile(path, data, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		if err := Ensure(ss.Root, subdir); err != nil {
			return err
		}
		err = osfile.AppendFile(path, data, 0o644)
	}
	return err
}

// GetPending returns the entry PreToolUse left for toolUseID, if any and not
// yet recorded.
func (ss Sessions) GetPending(session, toolUseID string) (Pending, bool) {
	if toolUseID == "" {
		return Pending{}, false
	}
	needle := []byte(pendingPrefix + b64.EncodeToString([]byte(toolUseID)) + " ")
	line, ok := newestLine(ss.pendingPath(session), needle)
	if !ok {
		// Stored beside the log while its lock was held: read once.
		path := ss.sidecarPath(session, toolUseID)
		data, err := osfile.ReadFile(path)
		if err != nil {
			return Pending{}, false
		}
		_ = os.Remove(path)
		line, ok = bytes.CutSuffix(data, []byte("\n"))
		if !ok || !bytes.HasPrefix(line, needle) {
			return Pending{}, false
		}
	}
	l, ok := parsePendingLine(line)
	if !ok || l.Done {
		return Pending{}, false
	}
	return l.Pending, true
}

// PeekPending is GetPending without consuming an entry stored beside the
// log: for a look before the call's own GetPending.
func (ss Sessions) PeekPending(session, toolUseID string) (Pending, bool) {
	if toolUseID == "" {
		return Pending{}, false
	}
	needle := []byte(pendingPrefix + b64.EncodeToString([]byte(toolUseID)) + " ")
	line, ok := newestLine(ss.pendingPath(session), needle)
	if !ok {
		data, err := osfile.ReadFile(ss.sidecarPath(session, toolUseID))
		if err != nil {
			return Pending{}, false
		}
		if line, ok = bytes.CutSuffix(data, []byte("\n")); !ok || !bytes.HasPrefix(line, needle) {
			return Pending{}, false
		}
	}
	l, ok := parsePendingLine(line)
	if !ok || l.Done {
		return Pending{}, false
	}
	return l.Pending, true
}

// tailRead is how much of a log newestLine reads first: the entry a
// PostToolUse looks for is almost always among the newest lines, and the
// log may be many times larger before it is compacted.
const tailRead = 8 << 10

// newestLine returns the newest line of the log at path that starts with
// prefix, without its newline. It reads the log's last tailRead bytes
// first, and the rest only when none of their lines starts with prefix.
func newestLine(path string, prefix []byte) ([]byte, bool) {
	f, err := osfile.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false
	}
	size := st.Size()
	for from := max(size-tailRead, 0); ; from = 0 {
		buf := make([]byte, size-from)
		n, err := f.ReadAt(buf, from)
		if err != nil && n < len(buf) {
			return nil, false
		}
		if from > 0 {
			// The first bytes may end a line that starts before them
			// (with no newline at all, they are all of one line).
			if i := bytes.IndexByte(buf, '\n'); i >= 0 {
				buf = buf[i+1:]
			} else {
				buf = nil
			}
		}
		if line, ok := lastWithPrefix(buf, prefix); ok {
			return line, true
		}
		if from == 0 {
			return nil, false
		}
	}
}

// lastWithPrefix returns the last line of data that starts with prefix.
func lastWithPrefix(data, prefix []byte) ([]byte, bool) {
	for len(data) > 0 {
		i := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
		line := bytes.TrimSuffix(data[i:], []byte("\n"))
		data = data[:i]
		if bytes.HasPrefix(line, prefix) {
			return line, true
		}
	}
	return nil, false
}

// compactPending drops recorded entries and entries older than PendingTTL
// (calls whose PostToolUse never came).
func (ss Sessions) compactPending(ctx context.Context, session string, now time.Time) error {
	unlock, err := Lock(ctx, ss.Root, LockSession+"-"+SessionKey(session), ss.Timeout)
	if err != nil {
		return err
	}
	defer unlock()
	path := ss.pendingPath(session)
	data, err := osfile.ReadFile(path)
	if err != nil {
		return err
	}
	live := livePending(data, now)
	var out []byte
	for _, l := range live {
		out = append(out, l.raw...)
	}
	return WriteFile(path, out, 0o644, false)
}

// liveLine is an entry of the log that is neither done nor expired, with
// its line.
type liveLine struct {
	pendingLine
	raw []byte
}

// livePending returns the entries of data that are neither done nor expired.
func livePending(data []byte, now time.Time) []liveLine {
	done := map[string]bool{}
	var lines []liveLine
	for len(data) > 0 {
		raw := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			raw, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		l, ok := parsePendingLine(bytes.TrimSuffix(raw, []byte("\n")))
		switch {
		case !ok:
		case l.Done:
			done[l.ID] = true
		default:
			lines = append(lines, liveLine{l, raw})
		}
	}
	live := lines[:0]
	for _, l := range lines {
		if !done[l.ID] && now.Sub(l.At) <= PendingTTL && bytes.HasSuffix(l.raw, []byte("\n")) {
			live = append(live, l)
		}
	}
	return live
}

// InFlight returns the paths that calls other than except, in any session,
// were allowed to write in the last hour and have not yet recorded, each
// with the intents the calls were allowed under. (A call whose PostToolUse
// never came stops counting after the hour.)
func (ss Sessions) InFlight(except string) map[string][]string {
	out := map[string][]string{}
	dir := Path(ss.Root, "pending")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	now := time.Now()
	for _, e := range entries {
		data, err := osfile.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		for _, l := range livePending(data, now) {
			if l.ID == except || now.Sub(l.At) > time.Hour {
				continue
			}
			for rel := range l.PreHash {
				out[rel] = append(out[rel], l.IntentID)
			}
		}
	}
	return out
}

// CommandsRunning returns the keys of the sessions other than except
// with a shell command running: its pre left the guard's picture, and its
// post has not come (within PendingTTL). It reads only state/pending/, no
// ledger: a session's end asks it, within the agent's budget for that.
func (ss Sessions) CommandsRunning(except string, now time.Time) []string {
	dir := Path(ss.Root, "pending")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	skip := SessionKey(except)
	found := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		key, log := strings.CutSuffix(name, ".log")
		if !log {
			// An entry stored beside its log: <key>.<tool_use_id>.pend.
			rest, ok := strings.CutSuffix(name, ".pend")
			i := strings.LastIndexByte(rest, '.')
			if !ok || i <= 0 {
				continue
			}
			key = rest[:i]
		}
		if key == skip || found[key] {
			continue
		}
		if info, err := e.Info(); err != nil || !info.Mode().IsRegular() || now.Sub(info.ModTime()) > PendingTTL {
			continue // every entry of a file this old has expired
		}
		data, err := osfile.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		for _, l := range livePending(data, now) {
			if l.Guard != nil {
				found[key] = true
				break
			}
		}
	}
	return slices.Sorted(maps.Keys(found))
}

// CountPending returns how many calls of each session key await their
// PostToolUse.
func (ss Sessions) CountPending(now time.Time) map[string]int {
	counts := map[string]int{}
	dir := Path(ss.Root, "pending")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return counts
	}
	for _, e := range entries {
		key, ok := strings.CutSuffix(e.Name(), ".log")
		if !ok {
			continue
		}
		data, err := osfile.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		counts[key] = len(livePending(data, now))
	}
	return counts
}

// The digests a session saw (on reads and on its own writes), per agent and
// path, live in another append-only log, state/seen/<session key>.log,
// for the same reason: a PostToolUse appends a line instead of rewriting the
// session file. The newest line for an agent and path wins; the log is
// compacted to one line per agent and path when it grows. A line is
// "s2 <path> <agent> <digest>", each in unpadded base64url (like the pending
// log, no JSON to pay for).

// seenCompactAt is the log size past which it is compacted.
const seenCompactAt = 64 << 10

// seenPrefix starts every line of the seen log.
const seenPrefix = "s2 "

type seenLine struct {
	Agent, Path, Hash string
}

func (l seenLine) marshal() []byte {
	out := []byte(seenPrefix)
	for i, v := range []string{l.Path, l.Agent, l.Hash} {
		if i > 0 {
			out = append(out, ' ')
		}
		out = b64.AppendEncode(out, []byte(v))
	}
	return append(out, '\n')
}

// parseSeen reads one line (without its newline).
func parseSeen(line []byte) (seenLine, bool) {
	rest, ok := bytes.CutPrefix(line, []byte(seenPrefix))
	if !ok {
		return seenLine{}, false
	}
	fields := bytes.Split(rest, []byte(" "))
	if len(fields) != 3 {
		return seenLine{}, false
	}
	var vals [3]string
	for i, f := range fields {
		v, err := b64.DecodeString(string(f))
		if err != nil {
			return seenLine{}, false
		}
		vals[i] = string(v)
	}
	if vals[0] == "" {
		return seenLine{}, false
	}
	return seenLine{Path: vals[0], Agent: vals[1], Hash: vals[2]}, true
}

func (ss Sessions) seenPath(session string) string {
	return Path(ss.Root, "seen", SessionKey(session)+".log")
}

// RecordSeen remembers the digests agent saw, by root-relative path.
func (ss Sessions) RecordSeen(ctx context.Context, session, agent string, hashes map[string]string) error {
	if len(hashes) == 0 {
		return nil
	}
	var buf []byte
	for _, p := range slices.Sorted(maps.Keys(hashes)) {
		buf = append(buf, seenLine{Agent: agent, Path: p, Hash: hashes[p]}.marshal()...)
	}
	path := ss.seenPath(session)
	if err := ss.appendLog(ctx, session, path, "seen", buf); err != nil {
		return fmt.Errorf("record seen files: %w", err)
	}
	if st, err := os.Stat(path); err == nil && st.Size() > seenCompactAt {
		return ss.compactSeen(ctx, session)
	}
	return nil
}

// SeenHash returns the digest agent last saw for rel. It reads the log
// from its end and decodes only the lines that name rel.
func (ss Sessions) SeenHash(session, agent, rel string) (string, bool) {
	if rel == "" {
		return "", false
	}
	prefix := seenPrefix + b64.EncodeToString([]byte(rel)) + " "
	// The agent is part of the prefix: the newest line for this agent and
	// path, not the newest for the path.
	line, ok := newestLine(ss.seenPath(session), []byte(prefix+b64.EncodeToString([]byte(agent))+" "))
	if !ok {
		return "", false
	}
	l, ok := parseSeen(line)
	return l.Hash, ok
}

// compactSeen keeps the newest line per agent and path.
func (ss Sessions) compactSeen(ctx context.Context, session string) error {
	unlock, err := Lock(ctx, ss.Root, LockSession+"-"+SessionKey(session), ss.Timeout)
	if err != nil {
		return err
	}
	defer unlock()
	path := ss.seenPath(session)
	data, err := osfile.ReadFile(path)
	if err != nil {
		return err
	}
	type key struct{ agent, path string }
	newest := map[key]int{}
	lines := bytes.Split(data, []byte("\n"))
	parsed := make([]seenLine, len(lines))
	for i, raw := range lines {
		if l, ok := parseSeen(raw); ok {
			parsed[i] = l
			newest[key{l.Agent, l.Path}] = i
		}
	}
	var out []byte
	for i, raw := range lines {
		if l := parsed[i]; l.Path != "" && newest[key{l.Agent, l.Path}] == i {
			out = append(append(out, raw...), '\n')
		}
	}
	return WriteFile(path, out, 0o644, false)
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

// decodeSession reads a session file through generic JSON values rather
// than the Session type: every hook reads one, and decoding a struct type
// for the first time costs a new process more than the rest of the read.
func decodeSession(data []byte, s *Session) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	str := func(key string) string {
		var v string
		_ = json.Unmarshal(m[key], &v)
		return v
	}
	s.ID, s.Model, s.Transcript, s.Intent = str("session_id"), str("model"), str("transcript_path"), str("intent")
	if t, err := time.Parse(time.RFC3339Nano, str("last_seen")); err == nil {
		s.LastSeen = t
	}
	s.AgentIntents = strMap(m["agent_intents"])
	s.Agents = strMap(m["agents"])
	s.Reverts = strMap(m["reverts"])
	if raw := m["mcp_tools"]; len(raw) > 0 {
		_ = json.Unmarshal(raw, &s.MCPTools)
	}
	if t, err := time.Parse(time.RFC3339Nano, str("ended_at")); err == nil {
		s.EndedAt = t
	}
	if raw := m["ended_during"]; len(raw) > 0 {
		_ = json.Unmarshal(raw, &s.EndedDuring)
	}
	if raw := m["delegations"]; len(raw) > 0 {
		// Only sessions that delegated pay for the struct decode.
		_ = json.Unmarshal(raw, &s.Delegations)
	}
	return nil
}

// strMap decodes a JSON object of strings, nil when absent or empty.
func strMap(raw json.RawMessage) map[string]string {
	var vals map[string]json.RawMessage
	if json.Unmarshal(raw, &vals) != nil || len(vals) == 0 {
		return nil
	}
	out := make(map[string]string, len(vals))
	for k, v := range vals {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = s
		}
	}
	return out
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
		if json.Unmarshal(data, &s) == nil {
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
