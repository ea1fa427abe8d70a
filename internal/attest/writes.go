package attest

import (
	"slices"

	"github.com/intenthook/intenthook/internal/audit"
	"github.com/intenthook/intenthook/internal/ledger"
)

// writes finds, for a committed path, the records that wrote it: the
// newest record whose post_hash is the committed content, then, through
// each record's pre_hash, the records before it, until a write an earlier
// commit already took (or one no record made: a hand edit, the file as a
// checkout left it). Commits are asked oldest first.
type writes struct {
	recs  []*ledger.Record
	byEnd map[end][]int // the records that left a path's content, oldest first
	used  map[int]bool
}

type end struct{ path, hash string }

func newWrites(records []*ledger.Record) *writes {
	w := &writes{byEnd: map[end][]int{}, used: map[int]bool{}}
	for _, r := range records {
		m := &r.Metadata.Intenthook
		if m.Event != ledger.EventPostToolUse || !m.Success || len(r.Files) != 1 {
			continue
		}
		k := end{r.Files[0].Path, string(m.PostHash)}
		w.byEnd[k] = append(w.byEnd[k], len(w.recs))
		w.recs = append(w.recs, r)
	}
	return w
}

// newest is the newest record before limit that left path as hash, that
// no commit took and that ok accepts; -1 when none.
func (w *writes) newest(path, hash string, limit int, ok func(*ledger.Record) bool) int {
	c := w.byEnd[end{path, hash}]
	for i := len(c) - 1; i >= 0; i-- {
		if c[i] < limit && !w.used[c[i]] && ok(w.recs[c[i]]) {
			return c[i]
		}
	}
	return -1
}

// before is the newest record before limit that left path as hash,
// taken or not; -1 when none.
func (w *writes) before(path, hash string, limit int) int {
	c := w.byEnd[end{path, hash}]
	for i := len(c) - 1; i >= 0; i-- {
		if c[i] < limit {
			return c[i]
		}
	}
	return -1
}

func attributed(r *ledger.Record) bool {
	return r.Metadata.Intenthook.MutationClass == ledger.Attributed
}

// file is what the predicate says of one judged change.
func (w *writes) file(ch audit.Change) File {
	f := File{Path: ch.Path, Intent: ch.Intent, Digest: ch.Digest, Trace: Untraced, Writes: []Write{}}
	kind := attributed
	if ch.Traced {
		f.Trace = Traced
		kind = func(r *ledger.Record) bool { return !attributed(r) }
	}
	last := w.newest(ch.Path, ch.Digest, len(w.recs), kind)
	if last < 0 {
		return f // traced by a record from before the range, or not at all
	}
	if !ch.Traced {
		f.Trace = Attributed
	}
	chain := []int{last}
	w.used[last] = true
	for cur := last; ; {
		pre := string(w.recs[cur].Metadata.Intenthook.PreHash)
		if pre == "" {
			break // the write created the file
		}
		prev := w.before(ch.Path, pre, cur)
		if prev < 0 || w.used[prev] {
			break // an earlier commit's write: the chain is its from here
		}
		w.used[prev] = true
		chain, cur = append(chain, prev), prev
	}
	slices.Reverse(chain)
	for _, i := range chain {
		f.Writes = append(f.Writes, writeOf(w.recs[i]))
	}
	return f
}

// writeOf is what the predicate says of one record: who wrote which lines.
func writeOf(r *ledger.Record) Write {
	m := &r.Metadata.Intenthook
	wr := Write{Seq: m.Seq, Session: m.SessionID, Agent: string(m.AgentID), Intent: string(m.IntentID), Tool: m.ToolName, Lines: []Lines{}}
	for _, cv := range r.Files[0].Conversations {
		if cv.Contributor == nil || cv.Contributor.Type != "ai" {
			continue
		}
		if wr.Model == "" {
			wr.Model = cv.Contributor.ModelID
		}
		for _, rg := range cv.Ranges {
			wr.Lines = append(wr.Lines, Lines{Start: rg.StartLine, End: rg.EndLine, ContentHash: rg.ContentHash})
		}
	}
	return wr
}
