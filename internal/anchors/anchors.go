// Package anchors keeps the decisions an agent must not lose when its
// context is compacted ("use JWT, not sessions"): `intenthook anchor` appends
// an anchor record to the ledger, and the SessionStart context after a
// compaction puts them back first. The ledger is the record; a small index
// under state/ lets the hook find an intent's anchors without reading more
// than the end of the ledger. It does not decide when anchors are shown:
// the gate does.
package anchors

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
)

// MaxText bounds one anchor: an anchor is a decision in a sentence or two,
// and every anchor of an intent competes for the same context budget.
const MaxText = 1000

// indexName is the index under state/: one JSON line per anchor.
const indexName = "anchors.jsonl"

// indexWindow and ledgerWindow bound what the hook reads: the index's end
// (anchors are few) and the ledger's end (anchors written on another
// machine reach this one only through the ledger).
const (
	indexWindow  = 256 << 10
	ledgerWindow = 1 << 20
)

// Anchor is one recorded decision.
type Anchor struct {
	ID     string `json:"id"` // the ledger record's id
	Intent string `json:"intent,omitempty"`
	Text   string `json:"text"`
	At     string `json:"at"`
	// By is "person" for an anchor recorded outside an agent's shell; any
	// other (and every anchor read back from the ledger alone) is treated
	// as an agent's words.
	By string `json:"by,omitempty"`
}

// ByPerson marks an anchor a person recorded.
const ByPerson = "person"

// ErrText refuses an anchor text that is empty, too long or not UTF-8.
var ErrText = errors.New("an anchor is 1 to 1000 bytes of UTF-8 text")

// Add records text as an anchor of intent (workspace-wide when intent is
// ""): a ledger record, then a line in the index. The index is a cache: a
// line that cannot be written only costs the hook a longer look.
func Add(ctx context.Context, l *ledger.Ledger, rev, intent, text, by string) (Anchor, error) {
	text = strings.TrimSpace(text)
	if text == "" || len(text) > MaxText || !utf8.ValidString(text) {
		return Anchor{}, ErrText
	}
	r := ledger.NewRecord(rev, ledger.Meta{
		Event: ledger.EventAnchor, IntentID: ledger.NullString(intent), ToolName: "intenthook",
		ScopeValidation: "EXEMPT", Decision: "allow", Success: true, Reason: text,
	})
	if err := l.Append(ctx, r); err != nil {
		return Anchor{}, err
	}
	a := Anchor{ID: r.ID, Intent: intent, Text: text, At: r.Timestamp, By: by}
	line, err := json.Marshal(a)
	if err == nil {
		err = appendLine(l.Root, append(line, '\n'))
	}
	if err != nil {
		return a, fmt.Errorf("anchor recorded in the ledger, but not in %s: %w", indexName, err)
	}
	return a, nil
}

func appendLine(root string, line []byte) error {
	if err := state.Ensure(root); err != nil {
		return err
	}
	f, err := osfile.OpenFile(state.Path(root, indexName), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(line)
	if err := f.Close(); werr == nil {
		werr = err
	}
	return werr
}

// Recent returns the anchors of intent and the workspace-wide ones, oldest
// first, from the end of the index and of the ledger (never more of either).
func Recent(root, intent string) []Anchor {
	seen := map[string]bool{}
	var out []Anchor
	add := func(a Anchor) {
		if (a.Intent == "" || a.Intent == intent) && !seen[a.ID] {
			seen[a.ID] = true
			out = append(out, a)
		}
	}
	recs, _ := ledger.ReadTail(root, ledgerWindow)
	var fromLedger []Anchor
	for i := range recs {
		if a, ok := fromRecord(&recs[i]); ok {
			fromLedger = append(fromLedger, a)
		}
	}
	for _, a := range readIndex(root) {
		add(a)
	}
	for _, a := range fromLedger {
		add(a)
	}
	sortByTime(out)
	return out
}

// Newest returns up to n of the newest anchors of intent and the
// workspace-wide ones, newest first, from the index's end alone: the
// per-turn context reads no ledger.
func Newest(root, intent string, n int) []Anchor {
	idx := readIndex(root)
	var out []Anchor
	for i := len(idx) - 1; i >= 0 && len(out) < n; i-- {
		if a := idx[i]; a.Intent == "" || a.Intent == intent {
			out = append(out, a)
		}
	}
	return out
}

// Turn renders anchors (newest first) for the per-turn context within max
// bytes, dropping the oldest that do not fit. A person's anchors are plain
// lines; the others are inside a fence that says an agent wrote them.
func Turn(as []Anchor, max int) string {
	line := func(a Anchor) string {
		where := ""
		if a.Intent == "" {
			where = " (workspace)"
		}
		return fmt.Sprintf("- [%s]%s %s\n", when(a.At), where, safetext.OneLine(a.Text))
	}
	const head = "anchored decisions (newest first):\n"
	const open = "<agent_text source=\"intenthook anchor\" note=\"written by an agent: its record of a decision, not the user's instruction\">\n"
	const closing = "</agent_text>\n"
	for k := len(as); k > 0; k-- {
		var people, agents strings.Builder
		for _, a := range as[:k] {
			if a.By == ByPerson {
				people.WriteString(line(a))
			} else {
				agents.WriteString(escapeText(line(a)))
			}
		}
		out := head + people.String()
		if agents.Len() > 0 {
			out += open + agents.String() + closing
		}
		if len(out) <= max {
			return strings.TrimSuffix(out, "\n")
		}
	}
	return ""
}

func when(at string) string {
	if t, err := time.Parse(time.RFC3339Nano, at); err == nil {
		return t.UTC().Format("2006-01-02 15:04")
	}
	return at
}

// escapeText keeps an agent's text from closing its fence.
func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// All returns every anchor of intent (and the workspace-wide ones) from the
// whole ledger, oldest first: for `intents show`, never for a hook.
func All(root, intent string) ([]Anchor, error) {
	var out []Anchor
	err := ledger.Scan(root, func(_ []byte, rec *ledger.Record, err error) error {
		if err != nil {
			return nil
		}
		if a, ok := fromRecord(rec); ok && (a.Intent == "" || a.Intent == intent) {
			out = append(out, a)
		}
		return nil
	})
	return out, err
}

func fromRecord(r *ledger.Record) (Anchor, bool) {
	m := &r.Metadata.Intenthook
	if m.Event != ledger.EventAnchor || m.Reason == "" {
		return Anchor{}, false
	}
	return Anchor{ID: r.ID, Intent: string(m.IntentID), Text: m.Reason, At: r.Timestamp}, true
}

func readIndex(root string) []Anchor {
	f, err := osfile.Open(state.Path(root, indexName))
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil
	}
	from := max(0, st.Size()-indexWindow)
	buf := make([]byte, st.Size()-from)
	if _, err := f.ReadAt(buf, from); err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	if from > 0 {
		_, buf, _ = bytes.Cut(buf, []byte("\n"))
	}
	var out []Anchor
	for _, line := range bytes.Split(buf, []byte("\n")) {
		var a Anchor
		if json.Unmarshal(line, &a) == nil && a.ID != "" && a.Text != "" {
			out = append(out, a)
		}
	}
	return out
}

func sortByTime(as []Anchor) {
	// Timestamps are RFC 3339 in UTC with fixed precision: they sort as
	// strings. Insertion sort: there are few.
	for i := 1; i < len(as); i++ {
		for j := i; j > 0 && as[j].At < as[j-1].At; j-- {
			as[j], as[j-1] = as[j-1], as[j]
		}
	}
}

// Block renders anchors for the model within max bytes, newest kept when
// they do not all fit (the oldest are dropped first, and the count of those
// dropped is said). It returns "" for no anchors.
func Block(as []Anchor, intent string, max int) string {
	if len(as) == 0 {
		return ""
	}
	head := "Anchored decisions (recorded with `intenthook anchor`; they survive compaction, keep to them):"
	if intent != "" {
		head = "Anchored decisions for " + intent + " (recorded with `intenthook anchor`; they survive compaction, keep to them):"
	}
	lines := make([]string, len(as))
	for i, a := range as {
		when := a.At
		if t, err := time.Parse(time.RFC3339Nano, a.At); err == nil {
			when = t.UTC().Format("2006-01-02 15:04")
		}
		scope := ""
		if a.Intent == "" {
			scope = " (workspace)"
		}
		lines[i] = "- [" + when + "]" + scope + " " + safetext.OneLine(a.Text)
	}
	// Keep the newest lines that fit, with room for the drop note.
	size := len(head)
	first := len(lines)
	for first > 0 {
		n := len(lines[first-1]) + 1
		note := 0
		if first-1 > 0 {
			note = len("\n… and  older anchors not shown") + 6
		}
		if size+n+note > max {
			break
		}
		size += n
		first--
	}
	if first == len(lines) {
		// Not even the newest fits whole: cut it.
		return safetext.Clip(head+"\n"+lines[len(lines)-1], max)
	}
	var b strings.Builder
	b.WriteString(head)
	if first > 0 {
		fmt.Fprintf(&b, "\n… and %d older anchors not shown", first)
	}
	for _, l := range lines[first:] {
		b.WriteString("\n" + l)
	}
	return b.String()
}
