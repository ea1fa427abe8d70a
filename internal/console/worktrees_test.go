package console

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/ledger"
)

// runGit runs git with args, failing the test on an error.
func runGit(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=p@example.com", "-c", "user.name=P"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// appendIn appends a record of session to the ledger of the workspace at
// root, then waits a few milliseconds: records are stamped to the
// millisecond, and the next one's stamp is later.
func appendIn(t *testing.T, root, session string) {
	t.Helper()
	rec := ledger.NewRecord("", ledger.Meta{Event: ledger.EventPreToolUse, SessionID: session, ToolName: "Write", Decision: "deny"})
	if err := (&ledger.Ledger{Root: root}).Append(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Millisecond)
}

// realPath is path with its links resolved: git names a linked work tree by
// its real path.
func realPath(t *testing.T, path string) string {
	t.Helper()
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEventsWorkTrees: in a repository with linked work trees, the feed
// starts with the newest records of every work tree's ledger, merged by
// time, a record the work trees share (a ledger committed before a work
// tree was added) given once, each tagged with its work tree; then it
// follows each ledger, and a record a hook appends in a linked work tree
// comes tagged with that one.
func TestEventsWorkTrees(t *testing.T) {
	main := t.TempDir()
	wt := filepath.Join(t.TempDir(), "wt2")
	none := filepath.Join(t.TempDir(), "wt3") // no ledger: skipped
	runGit(t, "-C", main, "init", "-q")
	runGit(t, "-C", main, "commit", "-q", "--allow-empty", "-m", "base")
	runGit(t, "-C", main, "worktree", "add", "-q", "-b", "none", none)
	appendIn(t, main, "shared")
	runGit(t, "-C", main, "add", ".orchestration")
	runGit(t, "-C", main, "commit", "-q", "-m", "ledger")
	runGit(t, "-C", main, "worktree", "add", "-q", "-b", "feat", wt)
	appendIn(t, wt, "wt-before")
	appendIn(t, main, "main-before")

	f := newFixtureAt(t, main)
	c := f.client()
	f.login(c)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	next := f.stream(ctx, c)
	if e := next(); e[0] != "pending" {
		t.Fatalf("first event %v: want the pending asks", e)
	}
	decision := func() (session, tree string) {
		t.Helper()
		e := next()
		var d map[string]any
		if e[0] != "decision" || json.Unmarshal([]byte(e[1]), &d) != nil {
			t.Fatalf("event %v: want a decision", e)
		}
		tree, _ = d["work_tree"].(string)
		if tree != "" {
			tree = realPath(t, tree)
		}
		session, _ = d["session"].(string)
		return session, tree
	}
	for _, want := range [][2]string{{"shared", realPath(t, main)}, {"wt-before", realPath(t, wt)}, {"main-before", realPath(t, main)}} {
		if s, tree := decision(); s != want[0] || tree != want[1] {
			t.Fatalf("a recent decision: session %q of %q, want %q of %q", s, tree, want[0], want[1])
		}
	}
	appendIn(t, wt, "wt-live")
	if s, tree := decision(); s != "wt-live" || tree != realPath(t, wt) {
		t.Fatalf("after a record in the linked work tree: session %q of %q, want wt-live of %q", s, tree, realPath(t, wt))
	}
	appendIn(t, main, "main-live")
	if s, tree := decision(); s != "main-live" || tree != realPath(t, main) {
		t.Fatalf("after a record in the main work tree: session %q of %q, want main-live of %q", s, tree, realPath(t, main))
	}
}

// TestDecisionsFollowNewWorkTree: a work tree added while the feed runs is
// found at its next look at the work trees, and the records its hooks
// appended since the last look are given, then those appended after; a
// work tree removed is let go.
func TestDecisionsFollowNewWorkTree(t *testing.T) {
	main := t.TempDir()
	wt := filepath.Join(t.TempDir(), "wt2")
	runGit(t, "-C", main, "init", "-q")
	runGit(t, "-C", main, "commit", "-q", "--allow-empty", "-m", "base")
	appendIn(t, main, "before")
	s := site{&Server{}, Repo{Root: main}}
	d := s.decisions()
	d.rescan = 0 // look at the work trees at every poll
	type got struct{ Session, Tree string }
	sessions := func(ds []Decision) []got {
		var out []got
		for _, x := range ds {
			out = append(out, got{x.Session, realPath(t, x.WorkTree)})
		}
		return out
	}
	if g := sessions(d.next()); !reflect.DeepEqual(g, []got{{"before", realPath(t, main)}}) {
		t.Fatalf("first: %v", g)
	}
	runGit(t, "-C", main, "worktree", "add", "-q", "-b", "feat", wt)
	appendIn(t, wt, "new")
	if g := sessions(d.next()); !reflect.DeepEqual(g, []got{{"new", realPath(t, wt)}}) {
		t.Fatalf("after a work tree was added: %v, want its record", g)
	}
	appendIn(t, wt, "later")
	appendIn(t, main, "main")
	if g := sessions(d.next()); !reflect.DeepEqual(g, []got{{"later", realPath(t, wt)}, {"main", realPath(t, main)}}) {
		t.Fatalf("then: %v", g)
	}
	if g := d.next(); len(g) != 0 {
		t.Fatalf("nothing new: %v", sessions(g))
	}
	runGit(t, "-C", main, "worktree", "remove", "--force", wt)
	if g := d.next(); len(g) != 0 || len(d.trees) != 1 {
		t.Fatalf("after the work tree was removed: %v, %d work trees followed", sessions(g), len(d.trees))
	}
}

// TestLedgerTrees: the work trees whose ledger the feed follows: the
// console's own first, then each linked one holding a ledger at the same
// place (the workspace's path in its work tree); one without a ledger is
// left out. Outside git, the workspace alone.
func TestLedgerTrees(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "sub")
	wt := filepath.Join(t.TempDir(), "wt2")
	none := filepath.Join(t.TempDir(), "wt3")
	runGit(t, "-C", top, "init", "-q")
	runGit(t, "-C", top, "commit", "-q", "--allow-empty", "-m", "base")
	runGit(t, "-C", top, "worktree", "add", "-q", "-b", "feat", wt)
	runGit(t, "-C", top, "worktree", "add", "-q", "-b", "none", none)
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	appendIn(t, filepath.Join(wt, "sub"), "s")
	appendIn(t, none, "at the top, not in sub") // not the workspace's place
	got := ledgerTrees(root)
	for i := range got {
		got[i] = workTree{realPath(t, got[i].root), realPath(t, got[i].top)}
	}
	want := []workTree{{realPath(t, root), realPath(t, top)}, {realPath(t, filepath.Join(wt, "sub")), realPath(t, wt)}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ledgerTrees = %v, want %v", got, want)
	}
	alone := t.TempDir()
	if got := ledgerTrees(alone); !reflect.DeepEqual(got, []workTree{{alone, alone}}) {
		t.Errorf("outside git: %v", got)
	}
}
