package ledger

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/osfile"
)

// recentLedger is a ledger of hand-written lines in writers' segments, for
// the resumed search: only the lines' bytes matter to it.
type recentLedger struct {
	t    *testing.T
	root string
	seq  int
	seg  map[string]int    // each writer's newest segment
	torn map[string]string // the rest of each writer's torn line
	// written counts the bytes appended, for the test to reset.
	written int64
}

func newRecentLedger(t *testing.T) *recentLedger {
	return &recentLedger{t: t, root: t.TempDir(), seg: map[string]int{}, torn: map[string]string{}}
}

func (l *recentLedger) path(writer string) string {
	if l.seg[writer] == 0 {
		l.seg[writer] = 1
	}
	return filepath.Join(l.root, filepath.FromSlash(segmentRel(writer, "2026-11", l.seg[writer])))
}

// add appends a line to writer's segment (the rest of a torn line first):
// a change of intent, or with decision.
func (l *recentLedger) add(writer, intent, decision string, pad int) {
	l.t.Helper()
	l.write(writer, l.torn[writer]+l.line(intent, decision, pad))
	delete(l.torn, writer)
}

// line is the next line, numbered and stamped in order.
func (l *recentLedger) line(intent, decision string, pad int) string {
	l.seq++
	return fmt.Sprintf(`{"timestamp":"2026-11-22T10:%02d:%02d.%06dZ","n":%d,"intent_id":%q,"decision":%q,"files":[{"path":"a.go"}],"pad":%q}`+"\n",
		l.seq/3600%60, l.seq/60%60, l.seq%60, l.seq, intent, decision, strings.Repeat("x", pad))
}

// tear appends the first half of a change of INT-7: a writer
// mid-append, whose line the writer's next add completes.
func (l *recentLedger) tear(writer string) {
	if l.torn[writer] != "" {
		return
	}
	line := l.line("INT-7", "allow", 40)
	l.write(writer, line[:len(line)/2])
	l.torn[writer] = line[len(line)/2:]
}

// rotate begins the writer's next segment (its torn line completed).
func (l *recentLedger) rotate(writer string) {
	if l.torn[writer] != "" {
		l.write(writer, l.torn[writer])
		delete(l.torn, writer)
	}
	l.path(writer)
	l.seg[writer]++
}

func (l *recentLedger) write(writer, s string) {
	l.t.Helper()
	p := l.path(writer)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		l.t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		l.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		l.t.Fatal(err)
	}
	l.written += int64(len(s))
}

// lineN is a found line's n, or -1.
func lineN(line []byte) int {
	_, rest, _ := bytes.Cut(line, []byte(`"n":`))
	n, err := strconv.Atoi(string(rest[:bytes.IndexByte(rest, ',')]))
	if err != nil {
		return -1
	}
	return n
}

func lineNs(lines [][]byte) []int {
	out := []int{}
	for _, l := range lines {
		out = append(out, lineN(l))
	}
	return out
}

var allowedChange = func(line []byte) bool { return bytes.Contains(line, []byte(`"decision":"allow"`)) }

// TestRecentMentionsAsTheSearch: resumed from its memo after each round of
// appends (to two writers' segments, across rollovers, with lines torn
// mid-append), the search answers what the search over the whole window
// answers, whenever that window holds the ledger; and with a window that
// does not, it answers lines that are there, and none older than one the
// window's search finds that it leaves out.
func TestRecentMentionsAsTheSearch(t *testing.T) {
	writers := []string{"0123456789abcdef", "fedcba9876543210"}
	for _, tt := range []struct {
		name    string
		writers []string
		window  int64
		n       int
	}{
		{"one writer, whole ledger, n 3", writers[:1], 1 << 30, 3},
		{"one writer, whole ledger, n 10", writers[:1], 1 << 30, 10},
		{"two writers, whole ledger, n 30", writers, 1 << 30, 30},
		{"one writer, a small window, n 3", writers[:1], 6 << 10, 3},
		{"two writers, a small window, n 10", writers, 6 << 10, 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(tt.window)+uint64(tt.n)))
			l := newRecentLedger(t)
			memo := filepath.Join(l.root, ".orchestration", "state", "recent", "INT-7")
			everything := func() map[int]bool {
				out := map[int]bool{}
				err := Scan(l.root, func(line []byte, _ *Record, err error) error {
					if err == nil && bytes.Contains(line, []byte(`"INT-7"`)) && allowedChange(line) {
						out[lineN(line)] = true
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			checked := 0
			for round := range 200 {
				before := l.seq
				l.written = 0
				rotated := map[string]bool{}
				for range rng.IntN(6) {
					w := tt.writers[rng.IntN(len(tt.writers))]
					switch r := rng.IntN(20); {
					case r == 0 && !rotated[w]: // a segment left unsearched is not the test's
						l.rotate(w)
						rotated[w] = true
					case r == 1:
						l.tear(w)
					case r == 2: // more than a small window at once
						for range 12 {
							l.add(w, "INT-2", "allow", 900)
						}
					case r < 6:
						l.add(w, "INT-7", "allow", rng.IntN(300))
					case r < 8:
						l.add(w, "INT-7", "deny", rng.IntN(300))
					case r < 10:
						l.add(w, "INT-70", "allow", rng.IntN(300))
					default:
						l.add(w, "INT-2", "allow", rng.IntN(900))
					}
				}
				got, err := RecentMentions(l.root, memo, tt.window, "INT-7", tt.n, allowedChange)
				if err != nil {
					t.Fatal(err)
				}
				g := lineNs(got)
				checked += len(g)
				there := everything()
				for _, n := range g {
					if !there[n] {
						t.Fatalf("round %d: resumed %v holds %d, no allowed change of INT-7", round, g, n)
					}
				}
				if !slices.IsSorted(g) || len(g) > tt.n {
					t.Fatalf("round %d: resumed %v: not the last %d in order", round, g, tt.n)
				}
				var last []int
				for n := range there {
					last = append(last, n)
				}
				slices.Sort(last)
				last = last[max(0, len(last)-tt.n):]
				if tt.window == 1<<30 {
					// The window holds all each round appended: the
					// ledger's last n, in segments no longer among the
					// newest too (the search before found them).
					if !slices.Equal(g, last) {
						t.Fatalf("round %d: resumed %v, the ledger's last %d are %v", round, g, tt.n, last)
					}
					continue
				}
				// A round that appended more than the window: the
				// window's answer (what lies before it is not known).
				if l.written > tt.window {
					want, err := TailLinesMentioning(l.root, tt.window, "INT-7", tt.n, allowedChange)
					if w := lineNs(want); err != nil || !slices.Equal(g, w) {
						t.Fatalf("round %d: resumed %v past the window, searched %v (%v)", round, g, w, err)
					}
				}
				// A round that appended less than the window: each change
				// it added that is among the ledger's last n is answered.
				if l.written < tt.window-2<<10 {
					for _, n := range last {
						if n > before && !slices.Contains(g, n) {
							t.Fatalf("round %d: resumed %v leaves out %d, added since the last search", round, g, n)
						}
					}
				}
			}
			if checked == 0 {
				t.Fatal("no search answered a line")
			}
		})
	}
}

// TestRecentMentionsMemo: a memo is believed only as far as the ledger
// bears it out; one that names other lines, a file that was replaced or
// lines that are not there adds nothing to the answer, and a link in the
// memo's place is replaced, not written through.
func TestRecentMentionsMemo(t *testing.T) {
	l := newRecentLedger(t)
	w := "0123456789abcdef"
	l.add(w, "INT-7", "allow", 10)  // n 1
	l.add(w, "INT-7", "deny", 10)   // n 2
	l.add(w, "INT-70", "allow", 10) // n 3
	l.add(w, "INT-7", "allow", 10)  // n 4
	seg := segmentRel(w, "2026-11", 1)
	segPath := filepath.Join(l.root, filepath.FromSlash(seg))
	data, err := os.ReadFile(segPath)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(segPath)
	if err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatUint(osfile.FileID(segPath, st), 10)
	lineAt := func(n int) (int, int) { // offset and length of line n
		off := 0
		for i := 1; i < n; i++ {
			off += bytes.IndexByte(data[off:], '\n') + 1
		}
		return off, bytes.IndexByte(data[off:], '\n')
	}
	place := func(n int) string {
		off, ln := lineAt(n)
		return fmt.Sprintf("l %q %d %d\n", seg, off, ln)
	}
	head := memoHead("INT-7", 10) + "\n"
	end := strconv.Itoa(len(data))
	memo := filepath.Join(l.root, "memo")
	for _, tt := range []struct {
		name, memo string
		want       []int
	}{
		{"none", "", []int{1, 4}},
		{"true", head + "m " + strconv.Quote(seg) + " " + id + " " + end + "\n" + place(1) + place(4), []int{1, 4}},
		{"hiding a line", head + "m " + strconv.Quote(seg) + " " + id + " " + end + "\n" + place(4), []int{4}},
		{"naming a denial, another intent's change", head + "m " + strconv.Quote(seg) + " " + id + " " + end + "\n" + place(2) + place(3), nil},
		{"naming half a line", head + "m " + strconv.Quote(seg) + " " + id + " " + end + "\n" + fmt.Sprintf("l %q %d %d\n", seg, 1, 40), nil},
		{"naming a file not the ledger's", head + "m " + strconv.Quote(seg) + " " + id + " " + end + "\n" + "l \"memo\" 0 10\n", []int{1, 4}},
		{"past the end", head + "m " + strconv.Quote(seg) + " " + id + " 999999\n" + place(1), []int{1, 4}},
		{"another file's mark", head + "m " + strconv.Quote(seg) + " 1 " + end + "\n", []int{1, 4}},
		{"for another intent", memoHead("INT-70", 10) + "\nm " + strconv.Quote(seg) + " " + id + " " + end + "\n", []int{1, 4}},
		{"not a memo", "hello\n", []int{1, 4}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(memo)
			if tt.memo != "" {
				if err := os.WriteFile(memo, []byte(tt.memo), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := RecentMentions(l.root, memo, 1<<20, "INT-7", 10, allowedChange)
			if g := lineNs(got); err != nil || !slices.Equal(g, tt.want) {
				t.Errorf("got %v (%v), want %v", g, err, tt.want)
			}
		})
	}

	t.Run("a link in the memo's place", func(t *testing.T) {
		target := filepath.Join(t.TempDir(), "elsewhere")
		if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(memo)
		if err := os.Symlink(target, memo); err != nil {
			t.Fatal(err)
		}
		if _, err := RecentMentions(l.root, memo, 1<<20, "INT-7", 10, allowedChange); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(target); string(b) != "keep\n" {
			t.Errorf("the link's target was written: %q", b)
		}
		if fi, err := os.Lstat(memo); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("the memo is not a file of its own: %v %v", fi, err)
		}
	})

	t.Run("written when the answer moves", func(t *testing.T) {
		os.Remove(memo)
		search := func() uint64 {
			t.Helper()
			if _, err := RecentMentions(l.root, memo, 1<<20, "INT-7", 10, allowedChange); err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(memo)
			if err != nil {
				t.Fatal(err)
			}
			return osfile.FileID(memo, st)
		}
		first := search()
		l.add(w, "INT-2", "allow", 10)
		if search() != first {
			t.Error("a search that only moved a mark a little rewrote the memo")
		}
		l.add(w, "INT-7", "allow", 10)
		if search() == first {
			t.Error("a search with another answer left the memo")
		}
	})

	t.Run("a segment replaced", func(t *testing.T) {
		os.Remove(memo)
		if _, err := RecentMentions(l.root, memo, 1<<20, "INT-7", 10, allowedChange); err != nil {
			t.Fatal(err)
		}
		// The same bytes and more under a new file: its lines are
		// searched again from the start, and found once.
		tmp := segPath + ".new"
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, segPath); err != nil {
			t.Fatal(err)
		}
		l.add(w, "INT-7", "allow", 10)
		got, err := RecentMentions(l.root, memo, 1<<20, "INT-7", 10, allowedChange)
		if g, want := lineNs(got), []int{1, 4, l.seq}; err != nil || !slices.Equal(g, want) {
			t.Errorf("got %v (%v), want %v", g, err, want)
		}
	})
}

// TestParseMemo: a memo names n lines at most, each no longer than a
// change's line, so one another program wrote cannot make a search read
// more than a few changes' worth.
func TestParseMemo(t *testing.T) {
	head := memoHead("INT-7", 3)
	place := "l \".orchestration/ledger/0123456789abcdef/2026-11/000001.jsonl\" 0 100\n"
	for _, tt := range []struct {
		name string
		memo string
		ok   bool
	}{
		{"n lines", head + "\n" + strings.Repeat(place, 3), true},
		{"more than n", head + "\n" + strings.Repeat(place, 4), false},
		{"a line longer than a change's", head + "\n" + strings.Replace(place, " 100", " 1048576", 1), false},
		{"a path outside the ledger", head + "\n" + "l \"../../etc/passwd\" 0 100\n", false},
		{"no final newline", head + "\n" + strings.TrimSuffix(place, "\n"), false},
		{"another n", memoHead("INT-7", 4) + "\n", false},
	} {
		if _, ok := parseMemo([]byte(tt.memo), head, 3); ok != tt.ok {
			t.Errorf("%s: parsed %v, want %v", tt.name, ok, tt.ok)
		}
	}
}
