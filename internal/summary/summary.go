// Package summary keeps the counters of each session under
// .orchestration/state/summary/: one short line per ledger record the hooks
// write (a file changed, a denial, a violation, a selection, a check run),
// appended as the record is, so that a session's summary and an intent's
// result are read from these small logs, never from the ledger. It counts;
// the gate decides when to count and the ledger holds what is summed up.
package summary

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/money"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
)

// dir holds one log per session, named by its state.Key.
const dir = "summary"

// Dir is the logs' directory, root-relative: a governance row the guard
// watches (guard.Mirrored), since what the logs count reaches the ledger's
// session summaries. The hooks append to the guard's copy of a log
// (guard.MirrorDir) before the log: a log that is no prefix of its copy
// was changed by something else, and is put back from it.
const Dir = state.StateDir + "/" + dir

// Kinds of lines.
const (
	kindFile      = "f"
	kindDeny      = "d"
	kindViolation = "v"
	kindSelect    = "s"
	kindCheck     = "k"
	kindUsage     = "u" // model, calls, input, output, cache creation, cache read[, usd micro-dollars]
	kindSummary   = "S" // a summary was recorded: what follows is news
)

// lines turns records into counter lines; records that count nothing give
// none.
func lines(recs []*ledger.Record, now time.Time) []byte {
	var b []byte
	for _, r := range recs {
		counted(r, func(kind, intent string, fields ...string) {
			b = append(b, kind...)
			b = append(b, ' ')
			b = strconv.AppendInt(b, now.Unix(), 10)
			b = append(b, ' ')
			b = strconv.AppendQuote(b, intent)
			for _, f := range fields {
				b = append(b, ' ')
				b = strconv.AppendQuote(b, f)
			}
			b = append(b, '\n')
		})
	}
	return b
}

// counted calls add for each thing r counts: a violation, a denial, a
// selection, each check it ran with its outcome, each file an allowed
// change wrote, and what the call spent (its usage). The counters and a
// recount from the ledger (Recount) count alike.
func counted(r *ledger.Record, add func(kind, intent string, fields ...string)) {
	m := &r.Metadata.Intenthook
	intent := string(m.IntentID)
	switch {
	case m.Event == ledger.EventViolation:
		add(kindViolation, intent, string(m.Code))
	case m.Decision == "deny":
		add(kindDeny, intent, string(m.Code))
	case m.Event == ledger.EventSelect:
		add(kindSelect, intent)
	default:
		for _, c := range m.Checks {
			outcome := "pass"
			if !m.Success {
				outcome = "fail"
			}
			add(kindCheck, intent, c, outcome)
		}
		if m.Success && m.Decision == "allow" {
			for _, f := range r.Files {
				add(kindFile, intent, f.Path)
			}
		}
	}
	if u := m.Usage; u != nil {
		n := func(v int64) string { return strconv.FormatInt(v, 10) }
		fields := []string{u.Model, n(u.Calls), n(u.InputTokens), n(u.OutputTokens), n(u.CacheCreationInputTokens), n(u.CacheReadInputTokens)}
		if u.USD > 0 {
			fields = append(fields, n(int64(u.USD)))
		}
		add(kindUsage, intent, fields...)
	}
}

func path(root, session string) string {
	return state.Path(root, dir, LogName(session))
}

// LogName is the name of session's log in Dir (and of its copy).
func LogName(session string) string {
	key := state.Key(session)
	if key == "" {
		key = state.NoSession
	}
	return key + ".log"
}

// Count appends the counters of recs to session's log: one append, no lock
// (each line is written whole by one write on an O_APPEND file).
func Count(root, session string, recs []*ledger.Record, now time.Time) error {
	b := lines(recs, now)
	if len(b) == 0 {
		return nil
	}
	return appendLog(root, path(root, session), b)
}

// appendLog appends b to the log at p: to the guard's copy first, then to
// the log.
func appendLog(root, p string, b []byte) error {
	if err := guard.AppendMirror(guard.MirrorDir(root, Dir), p, b); err != nil {
		return err
	}
	err := osfile.AppendFile(p, b, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		if err := state.Ensure(root, dir); err != nil {
			return err
		}
		err = osfile.AppendFile(p, b, 0o644)
	}
	return err
}

// Check is one check command and how its runs ended.
type Check struct {
	Command string `json:"command"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	// Last is the outcome of its newest run: pass or fail.
	Last string `json:"last"`
}

// Summary is what a session did, or what was done under an intent.
type Summary struct {
	Intents    []string       `json:"intents,omitempty"`
	Files      []string       `json:"files,omitempty"` // changed, each once, first seen first
	Denials    map[string]int `json:"denials,omitempty"`
	Violations map[string]int `json:"violations,omitempty"`
	Checks     []Check        `json:"checks,omitempty"`
	Usage      *Spend         `json:"usage,omitempty"`
	Sessions   []string       `json:"sessions,omitempty"`
	Started    string         `json:"started_at,omitempty"`
	Ended      string         `json:"ended_at,omitempty"`
}

// Empty reports whether nothing was counted.
func (s *Summary) Empty() bool {
	return len(s.Intents)+len(s.Files)+len(s.Denials)+len(s.Violations)+len(s.Checks) == 0 && s.Usage == nil
}

// Spend is what was spent: the tool calls post recorded and the tokens
// their agents' transcripts recorded, by kind, with the tokens of each
// model (every kind together). A kind with none is absent.
type Spend struct {
	Calls                    int64 `json:"calls"`
	InputTokens              int64 `json:"input_tokens,omitempty"`
	OutputTokens             int64 `json:"output_tokens,omitempty"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens,omitempty"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens,omitempty"`
	// USD is what the priced tokens cost (config.yaml's prices), absent
	// when none was priced.
	USD    money.Amount     `json:"usd,omitempty"`
	Models map[string]int64 `json:"models,omitempty"`
}

// Tokens is every kind of token s counts.
func (s *Spend) Tokens() int64 {
	return s.InputTokens + s.OutputTokens + s.CacheCreationInputTokens + s.CacheReadInputTokens
}

// add adds a usage line's fields: model, calls, the four kinds and, when
// the tokens were priced, their cost.
func (s *Spend) add(fields []string) {
	var v [6]int64
	for i := range len(fields) - 1 {
		n, err := strconv.ParseInt(fields[i+1], 10, 64)
		if err != nil || n < 0 {
			return
		}
		v[i] = n
	}
	s.USD += money.Amount(v[5])
	s.Calls += v[0]
	s.InputTokens += v[1]
	s.OutputTokens += v[2]
	s.CacheCreationInputTokens += v[3]
	s.CacheReadInputTokens += v[4]
	if t := v[1] + v[2] + v[3] + v[4]; t > 0 && fields[0] != "" {
		if s.Models == nil {
			s.Models = map[string]int64{}
		}
		s.Models[fields[0]] += t
	}
}

// line is one parsed counter line.
type line struct {
	kind   string
	at     int64
	intent string
	fields []string
}

func parse(l []byte) (line, bool) {
	kind, rest, ok := bytes.Cut(l, []byte(" "))
	if !ok {
		return line{}, false
	}
	at, rest, _ := bytes.Cut(rest, []byte(" "))
	out := line{kind: string(kind)}
	var err error
	if out.at, err = strconv.ParseInt(string(at), 10, 64); err != nil {
		return line{}, false
	}
	for len(rest) > 0 {
		q, err := strconv.QuotedPrefix(string(rest))
		if err != nil {
			return line{}, false
		}
		s, _ := strconv.Unquote(q)
		out.fields = append(out.fields, s)
		rest = bytes.TrimPrefix(rest[len(q):], []byte(" "))
	}
	if len(out.fields) == 0 {
		return out, out.kind == kindSummary
	}
	out.intent, out.fields = out.fields[0], out.fields[1:]
	return out, true
}

// acc sums lines up.
type acc struct {
	s      Summary
	files  map[string]bool
	checks map[string]int
	first  int64
	last   int64
}

func newAcc() *acc { return &acc{files: map[string]bool{}, checks: map[string]int{}} }

func (a *acc) add(l line) {
	if a.first == 0 || l.at < a.first {
		a.first = l.at
	}
	a.last = max(a.last, l.at)
	if l.intent != "" && !slices.Contains(a.s.Intents, l.intent) {
		a.s.Intents = append(a.s.Intents, l.intent)
	}
	switch {
	case l.kind == kindFile && len(l.fields) == 1:
		if !a.files[l.fields[0]] {
			a.files[l.fields[0]] = true
			a.s.Files = append(a.s.Files, l.fields[0])
		}
	case l.kind == kindDeny && len(l.fields) == 1:
		if a.s.Denials == nil {
			a.s.Denials = map[string]int{}
		}
		a.s.Denials[l.fields[0]]++
	case l.kind == kindViolation && len(l.fields) == 1:
		if a.s.Violations == nil {
			a.s.Violations = map[string]int{}
		}
		a.s.Violations[l.fields[0]]++
	case l.kind == kindCheck && len(l.fields) == 2:
		i, ok := a.checks[l.fields[0]]
		if !ok {
			i = len(a.s.Checks)
			a.checks[l.fields[0]] = i
			a.s.Checks = append(a.s.Checks, Check{Command: l.fields[0]})
		}
		c := &a.s.Checks[i]
		if l.fields[1] == "pass" {
			c.Passed++
		} else {
			c.Failed++
		}
		c.Last = l.fields[1]
	case l.kind == kindUsage && (len(l.fields) == 6 || len(l.fields) == 7):
		if a.s.Usage == nil {
			a.s.Usage = &Spend{}
		}
		a.s.Usage.add(l.fields)
	}
}

func (a *acc) done() Summary {
	if a.first > 0 {
		a.s.Started = time.Unix(a.first, 0).UTC().Format(time.RFC3339)
		a.s.Ended = time.Unix(a.last, 0).UTC().Format(time.RFC3339)
	}
	return a.s
}

// Session sums up session's log. changed reports whether anything was
// counted since the last summary Mark recorded.
func Session(root, session string) (s Summary, changed bool, err error) {
	data, err := read(root, session)
	if errors.Is(err, fs.ErrNotExist) {
		return Summary{}, false, nil
	}
	if err != nil {
		return Summary{}, false, err
	}
	a := newAcc()
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l, ok := parse(sc.Bytes())
		switch {
		case !ok:
		case l.kind == kindSummary:
			changed = false
		default:
			a.add(l)
			changed = true
		}
	}
	if session != "" {
		a.s.Sessions = []string{session}
	}
	return a.done(), changed, sc.Err()
}

// read returns session's counters: the guard's copy of its log, which the
// hooks append to first, else the log (one an older intenthook began). The
// guard compares only the calling session's log with its copy, so another
// session's log, which a program may have rewritten unseen, is not what
// its summary is made from.
func read(root, session string) ([]byte, error) {
	data, err := osfile.ReadFile(filepath.Join(guard.MirrorDir(root, Dir), LogName(session)))
	if errors.Is(err, fs.ErrNotExist) {
		return osfile.ReadFile(path(root, session))
	}
	return data, err
}

// Mark notes in session's log that a summary was recorded.
func Mark(root, session string, now time.Time) error {
	return appendLog(root, path(root, session), []byte(kindSummary+" "+strconv.FormatInt(now.Unix(), 10)+"\n"))
}

// Recount sums up what the ledger holds under intent: every record of it
// (denials, violations, checks, files, from every machine whose records the
// ledger holds), each at its timestamp. A person reviews this, not the
// sessions' counters, which a program in an agent's shell can rewrite. It
// reads the whole ledger: intenthook's commands call it (submit, verify,
// approve), never a hook.
func Recount(root, intent string) (Summary, error) {
	a := newAcc()
	sessions := map[string]bool{}
	err := ledger.Scan(root, func(_ []byte, r *ledger.Record, err error) error {
		if err != nil || r == nil || r.Intent() != intent {
			return nil
		}
		at := int64(0)
		if t, err := time.Parse(time.RFC3339Nano, r.Timestamp); err == nil {
			at = t.Unix()
		}
		m := &r.Metadata.Intenthook
		counted(r, func(kind, intent string, fields ...string) {
			a.add(line{kind: kind, at: at, intent: intent, fields: fields})
			if m.SessionID != "" {
				sessions[m.SessionID] = true
			}
		})
		return nil
	})
	for s := range sessions {
		a.s.Sessions = append(a.s.Sessions, s)
	}
	sort.Strings(a.s.Sessions)
	a.s.Intents = nil
	return a.done(), err
}

// maxFiles bounds the files a ledger record lists: a summary is one line of
// the ledger, and the count says how many there were.
const maxFiles = 200

// Capped is s with at most maxFiles files, the count of the rest in the
// last entry.
func (s Summary) Capped() Summary {
	if len(s.Files) > maxFiles {
		n := len(s.Files) - maxFiles
		s.Files = append(slices.Clip(s.Files[:maxFiles]), "… and "+strconv.Itoa(n)+" more")
	}
	return s
}

// Line is s in one line, for a record's reason and a person's terminal.
func (s Summary) Line() string {
	parts := []string{}
	if len(s.Intents) > 0 {
		parts = append(parts, "intents "+strings.Join(s.Intents, ", "))
	}
	parts = append(parts, strconv.Itoa(len(s.Files))+" file(s) changed")
	count := func(what string, m map[string]int) {
		if len(m) > 0 {
			parts = append(parts, what+": "+Counts(m))
		}
	}
	count("denials", s.Denials)
	count("violations", s.Violations)
	for _, c := range s.Checks {
		parts = append(parts, "check "+strconv.Quote(c.Command)+": "+strconv.Itoa(c.Passed)+" passed, "+strconv.Itoa(c.Failed)+" failed, last "+c.Last)
	}
	if u := s.Usage; u != nil {
		spent := strconv.FormatInt(u.Calls, 10) + " call(s)"
		if t := u.Tokens(); t > 0 {
			spent += ", " + strconv.FormatInt(t, 10) + " token(s)"
		}
		if u.USD > 0 {
			spent += ", " + money.Format(int64(u.USD))
		}
		parts = append(parts, spent)
	}
	return strings.Join(parts, "; ")
}

// Counts lists m's counts by key, in key order: "scope_violation 2,
// stale_file 1".
func Counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	kv := make([]string, len(keys))
	for i, k := range keys {
		kv[i] = k + " " + strconv.Itoa(m[k])
	}
	return strings.Join(kv, ", ")
}
