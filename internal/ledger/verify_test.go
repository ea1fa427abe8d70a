package ledger

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/state"
)

func TestVerifyTampered(t *testing.T) {
	join := func(lines [][]byte) []byte { return append(bytes.Join(lines, []byte("\n")), '\n') }
	tests := []struct {
		name string
		// tamper rewrites the ledger of 6 records; keepHead false removes state/ledger.head.
		tamper   func(lines [][]byte) []byte
		keepHead bool
		want     []string // substrings of the errors, in order; none: must verify
		forks    int      // tampering can also make lines look like forks
	}{
		{"untouched", func(l [][]byte) []byte { return join(l) }, true, nil, 0},
		{"one byte of a middle record edited, still JSON", func(l [][]byte) []byte {
			l[2] = bytes.Replace(l[2], []byte(`"session_id":"s2"`), []byte(`"session_id":"s7"`), 1)
			return join(l)
		}, true, []string{"line 4: prev"}, 0},
		{"one byte of a middle record edited, broken JSON", func(l [][]byte) []byte {
			l[2][0] = '['
			return join(l)
		}, true, []string{"line 3: does not parse", "line 4: prev"}, 0},
		{"middle record removed", func(l [][]byte) []byte {
			return join(append(l[:2:2], l[3:]...))
		}, true, []string{"line 3: prev"}, 0},
		{"two records swapped", func(l [][]byte) []byte {
			l[2], l[3] = l[3], l[2]
			return join(l)
		}, true, []string{"line 3: prev", "line 4: prev names line 2, which no line continued", "line 5: prev names line 3, which no line continued"}, 0},
		{"tail removed, head present", func(l [][]byte) []byte {
			return join(l[:4])
		}, true, []string{"tail removed: head says seq 6"}, 0},
		{"tail removed, no head: undetectable", func(l [][]byte) []byte {
			return join(l[:4])
		}, false, nil, 0},
		{"torn tail", func(l [][]byte) []byte {
			return append(join(l), `{"version":"0.1`...)
		}, true, []string{"line 7: torn tail"}, 0},
		{"seq of the last line changed", func(l [][]byte) []byte {
			l[5] = bytes.Replace(l[5], []byte(`"seq":6`), []byte(`"seq":9`), 1)
			return join(l)
		}, false, []string{"line 6: seq 9, want 6"}, 0},
		{"empty line inserted", func(l [][]byte) []byte {
			return join(append(l[:3:3], append([][]byte{{}}, l[3:]...)...))
		}, false, []string{"line 4: does not parse", "line 5: prev names line 3, which no line continued"}, 0},
		{"old-shape line inserted after chained lines", func(l [][]byte) []byte {
			old := []byte(`{"id":"x","timestamp":"t","intent_id":"INT-001"}`)
			return join(append(l[:3:3], append([][]byte{old}, l[3:]...)...))
		}, false, []string{"line 4: no seq", "line 5: prev names line 3, which no line continued"}, 0},
		{"a line duplicated", func(l [][]byte) []byte {
			return join(append(l[:4:4], append([][]byte{l[3]}, l[4:]...)...))
		}, true, []string{"line 5: duplicate of line 4"}, 0},
		{"a second chain forged with prev null", func(l [][]byte) []byte {
			forged := bytes.Replace(l[3], []byte(`"prev":"`), []byte(`"x":"`), 1)
			forged = bytes.Replace(forged, []byte(`"seq":4,`), []byte(`"seq":1,"prev":null,`), 1)
			return join(append(l[:6:6], forged))
		}, true, []string{"line 7: prev null after the first line"}, 0},
		{"first line's prev set", func(l [][]byte) []byte {
			l[0] = bytes.Replace(l[0], []byte(`"prev":null`), []byte(`"prev":"sha256:`+strings.Repeat("0", 64)+`"`), 1)
			return join(l)
		}, false, []string{"line 1: prev", "line 2: prev"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLedger(t)
			for i := range 6 {
				mustAppend(t, l, writeRecord(fmt.Sprint("s", i), "a.go"))
			}
			toLegacy(t, l.Root) // the legacy file's rules
			writeLedger(t, l.Root, tt.tamper(ledgerLines(t, l.Root)))
			if !tt.keepHead {
				if err := os.Remove(state.Path(l.Root, headName)); err != nil {
					t.Fatal(err)
				}
			}
			rep := Verify(l.Root)
			if len(rep.Forks) != tt.forks {
				t.Errorf("forks %v, want %d", rep.Forks, tt.forks)
			}
			var got []string
			for _, p := range rep.Errors {
				got = append(got, p.String())
			}
			if len(got) != len(tt.want) {
				t.Fatalf("errors %q, want %d matching %q", got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("error %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

// Two branches append to the same ledger; merging them with git's union
// driver puts both branches' new lines after the common ones. The second
// branch's first line follows a line that is not the one before it: a fork.
func TestVerifyFork(t *testing.T) {
	tests := []struct {
		name  string
		merge func(t *testing.T, base, ours, theirs string) string // returns the merged root
	}{
		{"lines concatenated", func(t *testing.T, base, ours, theirs string) string {
			b := ledgerBytes(t, base)
			o := bytes.TrimPrefix(ledgerBytes(t, ours), b)
			th := bytes.TrimPrefix(ledgerBytes(t, theirs), b)
			root := t.TempDir()
			writeLedger(t, root, append(append(b, o...), th...))
			return root
		}},
		{"git union merge", gitUnionMerge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := newLedger(t)
			for i := range 3 {
				mustAppend(t, base, writeRecord(fmt.Sprint("base", i), "a.go"))
			}
			toLegacy(t, base.Root)
			branch := func(name string) string {
				l := newLedger(t)
				writeLedger(t, l.Root, ledgerBytes(t, base.Root))
				mustAppend(t, l, writeRecord(name+"1", "a.go"), writeRecord(name+"2", "a.go"))
				toLegacy(t, l.Root)
				return l.Root
			}
			root := tt.merge(t, base.Root, branch("ours"), branch("theirs"))

			rep := mustVerify(t, root)
			if len(rep.Forks) != 1 || rep.Forks[0].Line != 6 || !strings.Contains(rep.Forks[0].Message, "follows line 3 (seq 3)") {
				t.Fatalf("forks %v, want one at line 6 following line 3", rep.Forks)
			}
			if rep.Records != 7 || rep.Head.Seq != 5 {
				t.Errorf("records %d head %+v", rep.Records, rep.Head)
			}
			// Appending after the merge continues from the last line.
			l := newLedger(t)
			l.Root = root
			r := writeRecord("after", "a.go")
			mustAppend(t, l, r)
			if r.Metadata.Intenthook.Seq != 6 {
				t.Errorf("seq after merge %d, want 6", r.Metadata.Intenthook.Seq)
			}
			if rep := mustVerify(t, root); len(rep.Forks) != 1 {
				t.Errorf("forks after append: %v", rep.Forks)
			}
		})
	}
}

// gitUnionMerge commits base, ours and theirs as three commits of a real
// repository whose ledger has merge=union, merges, and returns the worktree.
func gitUnionMerge(t *testing.T, base, ours, theirs string) string {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	commit := func(from, msg string) {
		writeLedger(t, dir, ledgerBytes(t, from))
		run("add", "-A")
		run("commit", "-q", "-m", msg)
	}
	run("init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte(".orchestration/agent_trace.jsonl merge=union\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commit(base, "base")
	run("checkout", "-q", "-b", "theirs")
	commit(theirs, "theirs")
	run("checkout", "-q", "main")
	commit(ours, "ours")
	run("merge", "-q", "--no-edit", "theirs")
	return dir
}

func TestVerifyOldShapes(t *testing.T) {
	l := newLedger(t)
	old := `{"id":"e1","timestamp":"2026-02-20T14:30:00.000Z","intent_id":"INT-001","session_id":"x","tool_name":"write_to_file","mutation_class":"INTENT_EVOLUTION","file":{"relative_path":"a.go","pre_hash":null,"post_hash":"sha256:d4"},"scope_validation":"PASS","success":true,"error":null}` + "\n" +
		`{"id":"e2","timestamp":"2026-02-20T14:31:00.000Z","vcs":{"revision_id":"a1b2"},"files":[{"relative_path":"a.go","conversations":[]}]}` + "\n"
	writeLedger(t, l.Root, []byte(old))
	mustVerify(t, l.Root)
	r := writeRecord("new", "a.go")
	mustAppend(t, l, r)
	if r.Metadata.Intenthook.Seq != 1 {
		t.Errorf("first chained line after old ones has seq %d, want 1", r.Metadata.Intenthook.Seq)
	}
	rep := mustVerify(t, l.Root)
	if rep.Records != 3 || len(rep.Forks) != 0 {
		t.Errorf("report %+v", rep)
	}
	blame, err := Blame(l.Root, "a.go")
	if err != nil || len(blame) != 3 || blame[0].Metadata.Intenthook.SessionID != "new" || blame[2].ID != "e1" {
		t.Errorf("blame over old lines: %v %v", sessions(blame), err)
	}
}

func TestVerifyMissingLedger(t *testing.T) {
	root := t.TempDir()
	if rep := Verify(root); !rep.OK() || rep.Lines != 0 {
		t.Errorf("missing ledger: %+v", rep)
	}
	// A head with no ledger: every line was removed.
	if err := state.Ensure(root); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(state.Path(root, headName), []byte(`{"seq":3,"hash":"sha256:`+strings.Repeat("a", 64)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if rep := Verify(root); rep.OK() {
		t.Errorf("head without a ledger verified")
	}
}

// TestChainFields: the in-place reading agrees with decoding, and a line
// that only looks like intenthook's (metadata nested deeper, or invalid
// JSON) is decoded or refused, not misread.
func TestChainFields(t *testing.T) {
	prev := `"sha256:` + strings.Repeat("ab", 32) + `"`
	tests := []struct {
		name, line string
		seq        int64
		prev       string // "" for null
		err        bool
	}{
		{"intenthook's shape", `{"version":"0.1.0","id":"x","files":[],"metadata":{"dev.intenthook":{"seq":17,"prev":` + prev + `,"event":"select"}}}`, 17, strings.Trim(prev, `"`), false},
		{"first line", `{"version":"0.1.0","metadata":{"dev.intenthook":{"seq":1,"prev":null}}}`, 1, "", false},
		{"nested fake metadata", `{"version":"0.1.0","x":{"metadata":{"dev.intenthook":{"seq":99,"prev":null}}},"metadata":{"dev.intenthook":{"seq":5,"prev":null}}}`, 5, "", false},
		{"fake after the real one", `{"version":"0.1.0","metadata":{"dev.intenthook":{"seq":5,"prev":null}},"y":{"metadata":{"dev.intenthook":{"seq":99,"prev":null}}}}`, 5, "", false},
		{"in a string", `{"version":"0.1.0","command":"\"metadata\":{\"dev.intenthook\":{\"seq\":99","metadata":{"dev.intenthook":{"seq":6,"prev":null}}}`, 6, "", false},
		{"a key given twice is decoded: the last wins", `{"version":"0.1.0","metadata":{"dev.intenthook":{"seq":5,"prev":null,"seq":9}}}`, 9, "", false},
		{"invalid json", `{"version":"0.1.0","metadata":{"dev.intenthook":{"seq":5,"prev":null}}`, 0, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := chainFields([]byte(tt.line))
			if (err != nil) != tt.err {
				t.Fatalf("err = %v", err)
			}
			if tt.err {
				return
			}
			m := c.Metadata.Intenthook
			if m.Seq == nil || *m.Seq != tt.seq {
				t.Errorf("seq %v, want %d", m.Seq, tt.seq)
			}
			if (m.Prev == nil) != (tt.prev == "") || (m.Prev != nil && *m.Prev != tt.prev) {
				t.Errorf("prev %v, want %q", m.Prev, tt.prev)
			}
		})
	}
}

// VerifyReader judges a ledger's bytes as Verify judges the file, and hands
// each record line over with its offset.
func TestVerifyReader(t *testing.T) {
	l := newLedger(t)
	for i := range 5 {
		mustAppend(t, l, writeRecord(fmt.Sprint("s", i), "a.go"))
	}
	data := ledgerBytes(t, l.Root)
	want := Verify(l.Root)
	var offsets []int64
	got := VerifyReader(bytes.NewReader(data), func(line []byte, at int64) {
		if !bytes.Equal(data[at:at+int64(len(line))], line) {
			t.Errorf("offset %d does not hold the line", at)
		}
		offsets = append(offsets, at)
	})
	if !got.OK() || got.Head != want.Head || got.Records != 5 || len(offsets) != 5 || offsets[0] != 0 {
		t.Fatalf("VerifyReader = %+v (offsets %v), want %+v", got, offsets, want)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	lines[1], lines[2] = lines[2], lines[1] // reordered
	if rep := VerifyReader(bytes.NewReader(bytes.Join(lines, nil)), nil); rep.OK() {
		t.Fatal("a reordered ledger verified")
	}
}
