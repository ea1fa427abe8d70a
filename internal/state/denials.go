package state

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/intenthook/intenthook/internal/osfile"
)

// The denials a session's agents received live in a third append-only log,
// state/denials/<session key>.jsonl, one line per deny: agent, key (what
// makes two denials the same) and time. Loop detection counts the lines of
// one agent and key within a window; only denied calls touch the log, and
// it is compacted to the last day once it grows.

// denialsCompactAt is the log size past which it is compacted.
const denialsCompactAt = 32 << 10

// denialsKeep is how long a denial is kept at compaction: longer than any
// sensible loop window.
const denialsKeep = 24 * time.Hour

type denialLine struct {
	Agent string `json:"a,omitempty"`
	Key   string `json:"k"`
	At    int64  `json:"t"` // unix seconds
}

func (ss Sessions) denialsPath(session string) string {
	return Path(ss.Root, "denials", SessionKey(session)+".jsonl")
}

// CountDenial records one denial of key for agent at now and returns how
// many denials of key that agent received within window, this one included.
func (ss Sessions) CountDenial(ctx context.Context, session, agent, key string, now time.Time, window time.Duration) (int, error) {
	line, err := json.Marshal(denialLine{Agent: agent, Key: key, At: now.Unix()})
	if err != nil {
		return 0, err
	}
	path := ss.denialsPath(session)
	if err := ss.appendLog(ctx, session, path, "denials", append(line, '\n')); err != nil {
		return 0, fmt.Errorf("record denial: %w", err)
	}
	data, err := osfile.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("read denials: %w", err)
	}
	ss.journal(DenialsFile(session), data)
	since := now.Add(-window).Unix()
	n := 0
	for _, raw := range bytes.Split(data, []byte("\n")) {
		var l denialLine
		if len(raw) == 0 || json.Unmarshal(raw, &l) != nil {
			continue
		}
		if l.Agent == agent && l.Key == key && l.At >= since && l.At <= now.Unix() {
			n++
		}
	}
	if len(data) > denialsCompactAt {
		return n, ss.compactDenials(ctx, session, now)
	}
	return n, nil
}

// compactDenials drops denials older than denialsKeep.
func (ss Sessions) compactDenials(ctx context.Context, session string, now time.Time) error {
	unlock, err := Lock(ctx, ss.Root, LockSession+"-"+SessionKey(session), ss.Timeout)
	if err != nil {
		return err
	}
	defer unlock()
	path := ss.denialsPath(session)
	data, err := osfile.ReadFile(path)
	if err != nil {
		return err
	}
	var out []byte
	for _, raw := range bytes.Split(data, []byte("\n")) {
		var l denialLine
		if json.Unmarshal(raw, &l) == nil && now.Sub(time.Unix(l.At, 0)) <= denialsKeep {
			out = append(append(out, raw...), '\n')
		}
	}
	if err := WriteFile(path, out, 0o644, false); err != nil {
		return err
	}
	ss.journal(DenialsFile(session), out)
	return nil
}
