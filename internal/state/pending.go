package state

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/backstop"
	"github.com/intenthook/intenthook/internal/codec"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/osfile"
)

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

// pendingLine is one line of the log: an entry, or a done marker.
type pendingLine struct {
	ID   string
	Done bool
	Pending
}

func (l pendingLine) marshal() []byte {
	out := append([]byte(pendingPrefix), base64.RawURLEncoding.EncodeToString([]byte(l.ID))...)
	if l.Done {
		return append(out, " -\n"...)
	}
	var e codec.Encoder
	l.Pending.encode(&e)
	out = append(out, " + "...)
	return append(base64.RawURLEncoding.AppendEncode(out, e.B), '\n')
}

// parsePendingLine reads one line (without its newline); ok is false for a
// line of another form or a damaged one.
func parsePendingLine(line []byte) (l pendingLine, ok bool) {
	rest, ok := bytes.CutPrefix(line, []byte(pendingPrefix))
	if !ok {
		return l, false
	}
	id, rest, _ := bytes.Cut(rest, []byte(" "))
	raw, err := base64.RawURLEncoding.DecodeString(string(id))
	if err != nil || len(raw) == 0 {
		return l, false
	}
	l.ID = string(raw)
	switch {
	case string(rest) == "-":
		l.Done = true
		return l, true
	case bytes.HasPrefix(rest, []byte("+ ")):
		entry, err := base64.RawURLEncoding.DecodeString(string(rest[2:]))
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
	if p.Guard != nil {
		// A command the guard watches will run: its window, for people's
		// levers (a process it leaves running is the agent's, whatever it
		// clears: AgentAct).
		if err := ss.OpenWindow(session, toolUseID, p.At); err != nil {
			return err
		}
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
	return Path(ss.Root, "pending", SessionKey(session)+"."+base64.RawURLEncoding.EncodeToString([]byte(toolUseID))+".pend")
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
	needle := []byte(pendingPrefix + base64.RawURLEncoding.EncodeToString([]byte(toolUseID)) + " ")
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
	needle := []byte(pendingPrefix + base64.RawURLEncoding.EncodeToString([]byte(toolUseID)) + " ")
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

// firstRead is what newestLine reads first: a session's newest lines are
// its last few, and a smaller buffer is fewer fresh pages for a process
// that lives one call.
const firstRead = 1 << 10

// newestLine returns the newest line of the log at path that starts with
// prefix, without its newline. It reads the log's last firstRead bytes,
// then its last tailRead, and the rest only when none of their lines
// starts with prefix.
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
	for _, want := range [...]int64{firstRead, tailRead, size} {
		from := max(size-want, 0)
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
	return nil, false
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
