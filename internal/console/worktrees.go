package console

import (
	"os"
	"path/filepath"
	"time"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
)

// workTreeScan is how often a feed looks at the repository's work trees
// again: a read of the common git directory's worktrees/ and of each one's
// gitdir file, no git process. A work tree added, or given its first
// ledger, meanwhile is followed from then on.
const workTreeScan = 3 * time.Second

// sinceSlack widens a new work tree's look back (ledger.ReadSince): a
// record is stamped before the ledger's lock lets it in.
const sinceSlack = 2 * time.Second

// workTree is a work tree whose ledger a feed follows: the workspace's
// root in it, and the work tree's top, which its decisions name.
type workTree struct{ root, top string }

// ledgerTrees lists the work trees of the repository holding root whose
// ledger the feed follows: root's own first (whether or not it has a
// ledger yet), then each linked one (git worktree add) with a ledger at
// root's place in it, in the order git.WorkTrees gives. Outside git, root
// alone. It runs no git: git.WorkTrees reads the common directory.
func ledgerTrees(root string) []workTree {
	top, _, ok := git.Top(root)
	if !ok {
		return []workTree{{root, root}}
	}
	out := []workTree{{root, top}}
	common, ok := git.CommonDir(root)
	if !ok {
		return out
	}
	rel, err := filepath.Rel(top, root)
	if err != nil {
		return out
	}
	own, err := os.Stat(top)
	if err != nil {
		return out
	}
	for _, t := range git.WorkTrees(common) {
		if fi, err := os.Stat(t); err != nil || os.SameFile(fi, own) {
			continue
		}
		if r := filepath.Join(t, rel); hasLedger(r) {
			out = append(out, workTree{r, t})
		}
	}
	return out
}

// hasLedger reports whether the workspace at root has a ledger: the legacy
// file or the segments' directory.
func hasLedger(root string) bool {
	for _, rel := range []string{ledger.FileName, ledger.SegmentDir} {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel))); err == nil {
			return true
		}
	}
	return false
}

// treeFeed is one work tree's decisions.
type treeFeed struct {
	workTree
	*decisionFeed
}

// feed is one stream's decisions from every work tree's ledger: the
// newest RecentDecisions of them all, merged by time, then what each
// ledger's Follower reads, each decision naming its work tree. It looks
// for work trees again every rescan.
type feed struct {
	root    string // the console's workspace
	trees   []treeFeed
	rescan  time.Duration
	scanned time.Time // the last look at the work trees
	started bool      // the recent records were given
}

// decisions follows each work tree's ledger from its end, then reads their
// tails: a record appended between the two is in both, and given once (by
// its id); none falls between them.
func (s site) decisions() *feed {
	d := &feed{root: s.repo.Root, rescan: workTreeScan, scanned: time.Now()}
	for _, t := range ledgerTrees(s.repo.Root) {
		d.trees = append(d.trees, treeFeed{t, &decisionFeed{follow: ledger.Follow(t.root)}})
	}
	for _, t := range d.trees {
		t.recent = recentOf(t.root)
	}
	return d
}

// scan looks at the work trees again: it follows those found since the
// last look, from their end, and gives what their hooks appended since
// that look (ledger.ReadSince: the active segment's end); it lets go of
// those gone. The console's own work tree stays first.
func (d *feed) scan(now time.Time) {
	since := d.scanned
	d.scanned = now
	have := make(map[string]treeFeed, len(d.trees))
	for _, t := range d.trees {
		have[t.root] = t
	}
	kept := make([]treeFeed, 0, len(d.trees))
	for i, w := range ledgerTrees(d.root) {
		if i == 0 {
			kept = append(kept, d.trees[0])
			continue
		}
		if t, ok := have[w.root]; ok {
			kept = append(kept, t)
			continue
		}
		t := treeFeed{w, &decisionFeed{follow: ledger.Follow(w.root)}}
		t.recent, _ = ledger.ReadSince(w.root, since, sinceSlack, recentBytes)
		kept = append(kept, t)
	}
	d.trees = kept
}

// next returns the decisions not given yet: the first time the newest
// RecentDecisions of every work tree, merged by time, then those appended
// since; each time after, those appended since the last.
func (d *feed) next() []Decision {
	if now := time.Now(); now.Sub(d.scanned) >= d.rescan {
		d.scan(now)
	}
	if len(d.trees) == 1 {
		// One work tree: its ledger's order, as it was before work trees.
		d.started = true
		return decisionsOf(d.trees[0].top, d.trees[0].next())
	}
	recent := make([][]ledger.Record, len(d.trees))
	fresh := make([][]ledger.Record, len(d.trees))
	for i, t := range d.trees {
		n := len(t.recent)
		recs := t.next()
		if !d.started {
			recent[i], recs = recs[:n], recs[n:]
		}
		fresh[i] = recs
	}
	var out []Decision
	if !d.started {
		d.started = true
		out = d.merge(recent)
		if len(out) > RecentDecisions {
			out = out[len(out)-RecentDecisions:]
		}
	}
	return append(out, d.merge(fresh)...)
}

// merge merges the work trees' lists (each in its ledger's order) by the
// records' times, an earlier work tree first on a tie; a record two work
// trees hold (a ledger committed, then checked out in another) is given
// once, as the first one's.
func (d *feed) merge(lists [][]ledger.Record) []Decision {
	var out []Decision
	seen := map[string]bool{}
	at := make([]int, len(lists))
	times := make([][]time.Time, len(lists))
	for i, l := range lists {
		times[i] = make([]time.Time, len(l))
		for j := range l {
			times[i][j], _ = time.Parse(time.RFC3339Nano, l[j].Timestamp)
		}
	}
	for {
		pick := -1
		for i := range lists {
			if at[i] < len(lists[i]) && (pick < 0 || times[i][at[i]].Before(times[pick][at[pick]])) {
				pick = i
			}
		}
		if pick < 0 {
			return out
		}
		rec := lists[pick][at[pick]]
		at[pick]++
		if rec.ID != "" && seen[rec.ID] {
			continue
		}
		seen[rec.ID] = true
		dec := decisionOf(rec)
		dec.WorkTree = d.trees[pick].top
		out = append(out, dec)
	}
}

// decisionsOf is recs' decisions, naming the work tree top.
func decisionsOf(top string, recs []ledger.Record) []Decision {
	out := make([]Decision, 0, len(recs))
	for _, rec := range recs {
		dec := decisionOf(rec)
		dec.WorkTree = top
		out = append(out, dec)
	}
	return out
}
