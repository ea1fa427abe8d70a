package state

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/intenthook/intenthook/internal/osfile"
)

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
		out = base64.RawURLEncoding.AppendEncode(out, []byte(v))
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
		v, err := base64.RawURLEncoding.DecodeString(string(f))
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
	prefix := seenPrefix + base64.RawURLEncoding.EncodeToString([]byte(rel)) + " "
	// The agent is part of the prefix: the newest line for this agent and
	// path, not the newest for the path.
	line, ok := newestLine(ss.seenPath(session), []byte(prefix+base64.RawURLEncoding.EncodeToString([]byte(agent))+" "))
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
