// Package budget keeps what each intent spent, and what people raised its
// budget by, as counters the hooks read without scanning the ledger: one
// small append-only log per intent under .orchestration/state/spend/, each
// line the intent's running totals, compacted to its last line when it
// passes a few kilobytes. It decides whether an intent's spend
// has reached its catalog budget (budget_exceeded) or come near it. It
// does not price tokens (config's prices do) nor record anything in the
// ledger (the gate and the budget command do).
package budget

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/money"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
)

const dir = "spend"

// Dir holds one log per intent, root-relative: a governance row the guard
// watches (guard.Mirrored). Hooks and a person's budget command append to
// the guard's copy of a log (guard.MirrorDir) before the log, and every
// reader reads the copy: a log that is no prefix of its copy was changed
// by something else and is put back from it, and a log without a copy is
// believed by nobody.
const Dir = state.StateDir + "/" + dir

// Spent is an intent's counters: what post recorded under it (the calls,
// the tokens of every kind, the money those tokens cost where a price is
// known) and what people added to its budget. Every field only grows.
type Spent struct {
	Calls    int64
	Tokens   int64
	MicroUSD int64
	// Raised is what people's budget commands added to the catalog's
	// budget, by kind.
	Raised intents.Budget
}

// Add returns s with d added, field by field.
func (s Spent) Add(d Spent) Spent {
	s.Calls += d.Calls
	s.Tokens += d.Tokens
	s.MicroUSD += d.MicroUSD
	s.Raised.Calls += d.Raised.Calls
	s.Raised.Tokens += d.Raised.Tokens
	s.Raised.MicroUSD += d.Raised.MicroUSD
	return s
}

// fields is how many numbers a line holds after its time.
const fields = 6

// line is s as one log line: the time, then the six totals.
func (s Spent) line(at time.Time) []byte {
	b := strconv.AppendInt(nil, at.Unix(), 10)
	for _, n := range []int64{s.Calls, s.Tokens, s.MicroUSD, s.Raised.Calls, s.Raised.Tokens, s.Raised.MicroUSD} {
		b = append(b, ' ')
		b = strconv.AppendInt(b, n, 10)
	}
	return append(b, '\n')
}

func parseLine(l []byte) (Spent, bool) {
	parts := bytes.Fields(l)
	if len(parts) != fields+1 {
		return Spent{}, false
	}
	var v [fields]int64
	for i := range v {
		n, err := strconv.ParseInt(string(parts[i+1]), 10, 64)
		if err != nil || n < 0 {
			return Spent{}, false
		}
		v[i] = n
	}
	return Spent{Calls: v[0], Tokens: v[1], MicroUSD: v[2], Raised: intents.Budget{Calls: v[3], Tokens: v[4], MicroUSD: v[5]}}, true
}

// LogName is the name of intent's log in Dir (and of its copy).
func LogName(intent string) string { return state.Key(intent) + ".log" }

func logPath(root, intent string) string { return state.Path(root, dir, LogName(intent)) }

func copyPath(root, intent string) string {
	return filepath.Join(guard.MirrorDir(root, Dir), LogName(intent))
}

// tail is how much of a log's end Read reads: a line is well under it.
const tail = 512

// CompactAt is the size past which Add compacts a log and its copy to
// their last line, the totals (guard.ReplaceMirror): a log holds at most
// about a hundred lines, whatever the intent's age, and so does what the
// guard reads of it when another session appended during a command.
const CompactAt = 4 << 10

// Read returns intent's counters: the last whole line of the guard's copy
// of its log. Nothing read grows with the log. An intent without a copy
// has spent nothing (a log planted without one is not believed).
func Read(root, intent string) (Spent, error) {
	s, _, err := read(root, intent)
	return s, err
}

// read is Read, with the copy's size.
func read(root, intent string) (Spent, int64, error) {
	if intent == "" {
		return Spent{}, 0, nil
	}
	p := copyPath(root, intent)
	f, err := osfile.OpenFile(p, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) || err != nil && osfile.NullStandIn(filepath.Dir(p)) {
		// In an agent's sandbox, copies that did not exist yet when it
		// started are a null device's directory: nothing spent.
		return Spent{}, 0, nil
	}
	if err != nil {
		return Spent{}, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Spent{}, 0, err
	}
	size := st.Size()
	off := max(size-tail, 0)
	buf := make([]byte, size-off)
	if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return Spent{}, size, err
	}
	buf = bytes.TrimRight(buf, "\n")
	if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
		buf = buf[i+1:]
	} else if off > 0 {
		return Spent{}, size, fmt.Errorf("%s: its last line is longer than %d bytes", LogName(intent), tail)
	}
	if len(buf) == 0 {
		return Spent{}, size, nil
	}
	s, ok := parseLine(buf)
	if !ok {
		return Spent{}, size, fmt.Errorf("%s: its last line is not counters", LogName(intent))
	}
	return s, size, nil
}

// Lock takes intent's lock, under which its log is appended to and
// compacted.
func Lock(ctx context.Context, root, intent string, timeout time.Duration) (state.Unlock, error) {
	return state.Lock(ctx, root, "spend-"+state.Key(intent), timeout)
}

// LockLog takes the lock of the log named name (a LogName): the guard
// compares a log that differs from its copy again under it, since a
// compaction renames the log before its copy.
func LockLog(ctx context.Context, root, name string, timeout time.Duration) (state.Unlock, error) {
	key, ok := strings.CutSuffix(name, ".log")
	if !ok || key == "" {
		return nil, fmt.Errorf("%s: not a spend log", name)
	}
	return state.Lock(ctx, root, "spend-"+key, timeout)
}

// Add adds d to intent's counters under the intent's lock and returns the
// new totals: one line appended to the guard's copy, then to the log.
func Add(ctx context.Context, root, intent string, d Spent, now time.Time, timeout time.Duration) (Spent, error) {
	if intent == "" {
		return Spent{}, nil
	}
	unlock, err := Lock(ctx, root, intent, timeout)
	if err != nil {
		return Spent{}, err
	}
	defer unlock()
	cur, size, err := read(root, intent)
	if err != nil {
		// A damaged copy must not stop the counting, nor reset it: the
		// log's own last line is the next best account.
		cur, _ = readLog(root, intent)
	}
	next := cur.Add(d)
	b := next.line(now)
	mirror, p := guard.MirrorDir(root, Dir), logPath(root, intent)
	if err := guard.AppendMirror(mirror, p, b); err != nil {
		return cur, err
	}
	err = osfile.AppendFile(p, b, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		if err := state.Ensure(root, dir); err != nil {
			return next, err
		}
		err = osfile.AppendFile(p, b, 0o644)
	}
	if err == nil && size+int64(len(b)) > CompactAt {
		// The totals are the last line: the lines before it are history
		// nothing reads.
		err = guard.ReplaceMirror(mirror, p, b)
	}
	return next, err
}

// readLog reads the last line of intent's log itself.
func readLog(root, intent string) (Spent, error) {
	data, err := osfile.ReadFile(logPath(root, intent))
	if err != nil {
		return Spent{}, err
	}
	data = bytes.TrimRight(data, "\n")
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		data = data[i+1:]
	}
	s, ok := parseLine(data)
	if !ok {
		return Spent{}, errors.New("not counters")
	}
	return s, nil
}

// Kind is one kind of spend a budget limits.
type Kind string

// The kinds, in the order they are checked.
const (
	Calls  Kind = "calls"
	Tokens Kind = "tokens"
	USD    Kind = "usd"
)

// Use is one kind's spend against its limit (the catalog's budget plus
// what people raised it by).
type Use struct {
	Kind         Kind
	Spent, Limit int64
}

// Uses lists the kinds b limits, each with what s spent of it.
func Uses(b intents.Budget, s Spent) []Use {
	var out []Use
	if b.Calls > 0 {
		out = append(out, Use{Calls, s.Calls, b.Calls + s.Raised.Calls})
	}
	if b.Tokens > 0 {
		out = append(out, Use{Tokens, s.Tokens, b.Tokens + s.Raised.Tokens})
	}
	if b.MicroUSD > 0 {
		out = append(out, Use{USD, s.MicroUSD, b.MicroUSD + s.Raised.MicroUSD})
	}
	return out
}

// Exceeded returns the first kind whose spend has reached its limit.
func Exceeded(b intents.Budget, s Spent) (Use, bool) {
	for _, u := range Uses(b, s) {
		if u.Spent >= u.Limit {
			return u, true
		}
	}
	return Use{}, false
}

// NearPercent is how much of a budget spent is worth a word to the agent.
const NearPercent = 80

// Near returns the first kind of which NearPercent or more is spent.
func Near(b intents.Budget, s Spent) (Use, bool) {
	for _, u := range Uses(b, s) {
		if u.Spent*100 >= u.Limit*NearPercent {
			return u, true
		}
	}
	return Use{}, false
}

// Percent is how much of its limit u spent, rounded down.
func (u Use) Percent() int64 {
	if u.Limit <= 0 {
		return 0
	}
	return u.Spent * 100 / u.Limit
}

// Left is what remains of u's limit, never below zero.
func (u Use) Left() int64 { return max(u.Limit-u.Spent, 0) }

// Amount prints n as an amount of u's kind: dollars for usd.
func (u Use) Amount(n int64) string {
	if u.Kind == USD {
		return money.Format(n)
	}
	return strconv.FormatInt(n, 10)
}

// String is "2/2 calls", "$1.20/$5.00 usd".
func (u Use) String() string {
	return u.Amount(u.Spent) + "/" + u.Amount(u.Limit) + " " + string(u.Kind)
}

// MarshalJSON gives u as {kind, spent, limit, left}, usd in dollars (a
// JSON number with at most six decimals), the other kinds in units.
func (u Use) MarshalJSON() ([]byte, error) {
	n := func(v int64) json.RawMessage {
		if u.Kind == USD {
			return json.RawMessage(money.Decimal(v))
		}
		return json.RawMessage(strconv.FormatInt(v, 10))
	}
	return json.Marshal(struct {
		Kind  Kind            `json:"kind"`
		Spent json.RawMessage `json:"spent"`
		Limit json.RawMessage `json:"limit"`
		Left  json.RawMessage `json:"left"`
	}{u.Kind, n(u.Spent), n(u.Limit), n(u.Left())})
}

// Exists reports whether intent has counters (a copy of its log).
func Exists(root, intent string) bool {
	_, err := os.Stat(copyPath(root, intent))
	return err == nil
}
