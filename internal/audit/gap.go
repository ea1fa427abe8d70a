package audit

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/safetext"
)

// TraceGap is the finding of a file a session found changed between two of
// its own records: the later record's pre_hash is not the post_hash the
// session recorded last, and no commit holds that content. Something
// outside the hooks changed the file (a hand edit, a tool the hooks did not
// see). Always a warning: the content may still be traced.
const TraceGap = "trace_gap"

// gapKey is one session's view of one file.
type gapKey struct{ session, path string }

// gapEnd is a record's place and the digest it left or found.
type gapEnd struct {
	seq    int64
	digest string
}

// gap is a candidate trace gap: the record that left the file (prev) and
// the one that found it otherwise (next).
type gap struct {
	key        gapKey
	prev, next gapEnd
}

// findGaps walks the range's records in ledger order and returns, per
// session and file, each record whose pre_hash differs from the post_hash
// the session last recorded. A record that does not know the file's
// earlier content (no pre_hash) is no evidence either way.
func findGaps(records []*ledger.Record) []gap {
	last := map[gapKey]gapEnd{}
	var out []gap
	for _, r := range records {
		m := &r.Metadata.Intenthook
		if len(r.Files) != 1 || m.Event != ledger.EventPostToolUse || !m.Success || m.SessionID == "" {
			continue
		}
		k := gapKey{m.SessionID, r.Files[0].Path}
		pre, post := string(m.PreHash), string(m.PostHash)
		if p, ok := last[k]; ok && pre != "" && pre != p.digest {
			out = append(out, gap{key: k, prev: p, next: gapEnd{m.Seq, pre}})
		}
		last[k] = gapEnd{m.Seq, post}
	}
	return out
}

// traceGaps turns the candidate gaps into findings of the range's last
// commit, dropping each whose found content a commit of the range (or a
// parent it starts from) holds: a checkout, a merge or a reset brought it,
// and the commit is judged on its own.
func traceGaps(ctx context.Context, g *git.Repo, commits []commit, records []*ledger.Record) ([]Finding, error) {
	gaps := findGaps(records)
	if len(gaps) == 0 {
		return nil, nil
	}
	var ids []string
	inRange := map[string]bool{}
	for _, c := range commits {
		inRange[c.id] = true
	}
	for _, c := range commits {
		ids = append(ids, c.id)
		for _, p := range c.parents {
			if !inRange[p] && !slices.Contains(ids, p) {
				ids = append(ids, p)
			}
		}
	}
	held := map[gapKey]map[string]bool{} // per path: the digests commits hold
	var names []string
	var paths []gapKey
	for _, gp := range gaps {
		k := gapKey{path: gp.key.path}
		if held[k] != nil {
			continue
		}
		held[k] = map[string]bool{}
		for _, id := range ids {
			names = append(names, id+":"+gp.key.path)
			paths = append(paths, k)
		}
	}
	err := g.ReadObjects(ctx, names, func(i int, obj *git.Object) error {
		if obj == nil || obj.Type != "blob" {
			return nil
		}
		data, err := io.ReadAll(obj.Body)
		if err != nil {
			return err
		}
		held[paths[i]][digest.Bytes(data)] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	last := commits[len(commits)-1].id
	var fs []Finding
	for _, gp := range gaps {
		if held[gapKey{path: gp.key.path}][gp.next.digest] {
			continue
		}
		left := gp.prev.digest
		if left == "" {
			left = "it deleted"
		}
		fs = append(fs, Finding{last, gp.key.path, Warning, TraceGap, fmt.Sprintf(
			"changed outside the hooks in session %s: record seq %d left %s, record seq %d found %s",
			safetext.Quote(gp.key.session), gp.prev.seq, left, gp.next.seq, gp.next.digest)})
	}
	return fs, nil
}
