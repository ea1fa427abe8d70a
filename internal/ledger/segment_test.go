package ledger

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/digest"
)

// Records past the segment size go to the writer's next segment, whose
// first record continues the chain: seq never restarts.
func TestRollover(t *testing.T) {
	l := newLedger(t)
	l.SegmentBytes = 2500
	for i := range 10 {
		mustAppend(t, l, writeRecord(fmt.Sprint("s", i), "a.go"))
	}
	segs, bad, err := ListSegments(l.Root)
	if err != nil || len(bad) != 0 {
		t.Fatal(err, bad)
	}
	if len(segs) < 3 {
		t.Fatalf("%d segments, want several", len(segs))
	}
	for i, s := range segs {
		if s.N != i+1 || s.Writer != segs[0].Writer || !strings.Contains(s.Rel, "/2026-11/") {
			t.Errorf("segment %d: %+v", i, s)
		}
	}
	checkChain(t, ledgerLines(t, l.Root)) // seq 1…10, each prev the line before, across files
	rep := mustVerify(t, l.Root)
	if rep.Records != 10 || len(rep.Segments) != len(segs) || rep.Head.Seq != 10 || rep.Digest == "" {
		t.Errorf("verify: %+v", rep)
	}
	recs, err := Select(l.Root, Query{})
	if err != nil || len(recs) != 10 {
		t.Fatalf("select: %d, %v", len(recs), err)
	}
	for i, r := range recs {
		if r.Metadata.Intenthook.Seq != int64(i+1) {
			t.Errorf("select %d: seq %d", i, r.Metadata.Intenthook.Seq)
		}
	}
	// The recent records come from the newest few segments only.
	tail, err := ReadTail(l.Root, 1<<20)
	if err != nil || len(tail) == 0 || len(tail) >= 10 || tail[len(tail)-1].Metadata.Intenthook.SessionID != "s9" {
		t.Errorf("tail: %d, %v", len(tail), err)
	}
	if h, _ := ReadHead(l.Root); h != rep.Head {
		t.Errorf("ReadHead %+v, want %+v", h, rep.Head)
	}
}

// A segment has one line of history: every edit inside one is an error,
// and a segment must start from a record that exists.
func TestVerifySegmentTampered(t *testing.T) {
	join := func(lines [][]byte) []byte { return append(bytes.Join(lines, []byte("\n")), '\n') }
	tests := []struct {
		name   string
		tamper func(t *testing.T, root string, segs []Segment, lines [][][]byte)
		want   []string
	}{
		{"untouched", func(*testing.T, string, []Segment, [][][]byte) {}, nil},
		{"a forged line inserted mid-segment, chained to the line before", func(t *testing.T, root string, segs []Segment, lines [][][]byte) {
			l := lines[0]
			forged := bytes.Replace(l[1], []byte(`"session_id":"s1"`), []byte(`"session_id":"zz"`), 1)
			forged = bytes.Replace(forged, []byte(`"seq":2,"prev":"`+digest.Bytes(l[0])+`"`), []byte(`"seq":3,"prev":"`+digest.Bytes(l[1])+`"`), 1)
			writeSeg(t, root, segs[0], join(append(l[:2:2], append([][]byte{forged}, l[2:]...)...)))
		}, []string{":4: prev", ":4: seq 3, want 4"}},
		{"two lines swapped", func(t *testing.T, root string, segs []Segment, lines [][][]byte) {
			l := lines[0]
			l[1], l[2] = l[2], l[1]
			writeSeg(t, root, segs[0], join(l))
		}, []string{":2: prev", ":2: seq", ":3: prev", ":3: seq", ":4: prev", ":4: seq"}},
		{"a line removed", func(t *testing.T, root string, segs []Segment, lines [][][]byte) {
			l := lines[0]
			writeSeg(t, root, segs[0], join(append(l[:1:1], l[2:]...)))
		}, []string{":2: prev", ":2: seq"}},
		{"a whole segment forged, starting from nothing", func(t *testing.T, root string, segs []Segment, lines [][][]byte) {
			first := regexp.MustCompile(`"prev":"sha256:[0-9a-f]{64}"`).ReplaceAll(lines[1][0], []byte(`"prev":"sha256:`+strings.Repeat("0", 64)+`"`))
			rel := segmentRel(segs[1].Writer, "2026-11", 99)
			writeSeg(t, root, Segment{Rel: rel}, join([][]byte{first}))
		}, []string{"000099.jsonl:1: starts from prev"}},
		{"a segment copied under another name", func(t *testing.T, root string, segs []Segment, lines [][][]byte) {
			writeSeg(t, root, Segment{Rel: segmentRel(segs[1].Writer, "2026-11", 99)}, join(lines[1]))
		}, []string{"000099.jsonl:1: duplicate", "000099.jsonl:2: duplicate", "000099.jsonl:3: duplicate", "000099.jsonl:4: duplicate"}},
		{"a file that is not a segment", func(t *testing.T, root string, segs []Segment, lines [][][]byte) {
			writeSeg(t, root, Segment{Rel: SegmentDir + "/notes.jsonl"}, []byte("{}\n"))
		}, []string{"notes.jsonl: not a segment"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLedger(t)
			l.SegmentBytes = 4000
			for i := range 8 {
				mustAppend(t, l, writeRecord(fmt.Sprint("s", i), "a.go"))
			}
			segs, _, _ := ListSegments(l.Root)
			if len(segs) < 2 {
				t.Fatalf("%d segments", len(segs))
			}
			var lines [][][]byte
			for _, s := range segs {
				b, _ := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(s.Rel)))
				lines = append(lines, bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")))
			}
			if len(lines[0]) < 4 {
				t.Fatalf("%d lines in the first segment", len(lines[0]))
			}
			tt.tamper(t, l.Root, segs, lines)
			rep := Verify(l.Root)
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

func writeSeg(t *testing.T, root string, s Segment, b []byte) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(s.Rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// In a git work tree, a segment is written only at the commit it began at:
// once HEAD moves, the next record starts a new segment, and the one before
// never changes again.
func TestSealedWhenHeadMoves(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	l := newLedger(t)
	git := func(args ...string) { t.Helper(); runGit(t, l.Root, args...) }
	git("init", "-q", "-b", "main")
	git("commit", "-q", "--allow-empty", "-m", "base")
	mustAppend(t, l, writeRecord("s1", "a.go"))
	mustAppend(t, l, writeRecord("s2", "a.go"))
	git("add", "-A", ".orchestration/ledger")
	git("commit", "-q", "-m", "work")
	segs, _, _ := ListSegments(l.Root)
	sealed, _ := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(segs[0].Rel)))
	mustAppend(t, l, writeRecord("s3", "a.go"))
	segs, _, _ = ListSegments(l.Root)
	if len(segs) != 2 {
		t.Fatalf("%d segments after HEAD moved, want 2", len(segs))
	}
	if now, _ := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(segs[0].Rel))); !bytes.Equal(now, sealed) {
		t.Error("the sealed segment changed")
	}
	// A new branch at the same commit starts a segment of its own too.
	git("checkout", "-q", "-b", "topic")
	mustAppend(t, l, writeRecord("s4", "a.go"))
	segs, _, _ = ListSegments(l.Root)
	if len(segs) != 3 {
		t.Fatalf("%d segments after a new branch, want 3", len(segs))
	}
	// Back on main, the segment begun there is sealed: topic took a newer
	// number, so main starts a fourth rather than grow a file both have.
	git("checkout", "-q", "main")
	mustAppend(t, l, writeRecord("s5", "a.go"))
	segs, _, _ = ListSegments(l.Root)
	if len(segs) != 4 {
		t.Fatalf("%d segments back on main, want 4", len(segs))
	}
	// Both branches' new segments start from the last record main had.
	main, topic := firstLine(t, l.Root, segs[3]), firstLine(t, l.Root, segs[2])
	tip := digest.Bytes(lastSegLine(t, l.Root, segs[1]))
	for _, r := range []*Record{main, topic} {
		if m := r.Metadata.Intenthook; string(m.Prev) != tip || m.Seq != 4 {
			t.Errorf("%s starts at seq %d from %s, want 4 from %s", m.SessionID, m.Seq, m.Prev, tip)
		}
	}
	// Each says what it sealed: the writer's newest segment when it
	// began, at its last record. Main's fourth continues the second (its
	// branch's) but seals topic's third, the newest, found by the name the
	// writer's file keeps.
	for i, want := range []int{0, 1, 2} {
		last := lastSegLine(t, l.Root, segs[want])
		got := firstLine(t, l.Root, segs[i+1]).Metadata.Intenthook.Sealed
		if w := (Sealed{Segment: segs[want].Rel, LastSeq: seqOf(last), LastHash: digest.Bytes(last)}); got == nil || *got != w {
			t.Errorf("segment %d says it sealed %+v, want %+v", i+2, got, w)
		}
	}
	mustVerify(t, l.Root)
}

func segLines(t *testing.T, root string, s Segment) [][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(s.Rel)))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

func firstLine(t *testing.T, root string, s Segment) *Record {
	r, err := ParseLine(segLines(t, root, s)[0])
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func lastSegLine(t *testing.T, root string, s Segment) []byte {
	l := segLines(t, root, s)
	return l[len(l)-1]
}

// The segments a reading of "records since" goes back to: each earlier one
// while the one after it began after the cutoff, across a month, in order.
func TestSealedSince(t *testing.T) {
	root := t.TempDir()
	const w = "0123456789abcdef"
	line := func(stamp string) []byte {
		return []byte(`{"version":"0.1.0","id":"x","timestamp":"` + stamp + `"}` + "\n")
	}
	seg := func(month string, n int) string { return segmentRel(w, month, n) }
	writeSeg(t, root, Segment{Rel: seg("2026-10", 1)}, line("2026-10-01T00:00:00Z"))
	writeSeg(t, root, Segment{Rel: seg("2026-11", 2)}, line("2026-11-01T00:00:00Z"))
	writeSeg(t, root, Segment{Rel: seg("2026-11", 3)}, line("2026-11-02T00:00:00Z"))
	at := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	tests := []struct {
		cutoff string
		want   []string
	}{
		{"2026-11-03T00:00:00Z", nil},
		{"2026-11-01T12:00:00Z", []string{seg("2026-11", 2)}},
		{"2026-10-15T00:00:00Z", []string{seg("2026-10", 1), seg("2026-11", 2)}},
		{"2026-09-01T00:00:00Z", []string{seg("2026-10", 1), seg("2026-11", 2)}},
	}
	for _, tt := range tests {
		if got := sealedSince(root, seg("2026-11", 3), at(tt.cutoff)); !slices.Equal(got, tt.want) {
			t.Errorf("cutoff %s: %v, want %v", tt.cutoff, got, tt.want)
		}
	}
}
