package ledger

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/digest"
)

// seqPrevPattern finds a line's seq and prev.
var seqPrevPattern = regexp.MustCompile(`"seq":[0-9]+,"prev":(null|"sha256:[0-9a-f]{64}")`)

// A roll says what it sealed: the first record of each segment after the
// first names the segment before it and the last record it held; no other
// record says anything.
func TestRollSaysWhatItSealed(t *testing.T) {
	l := newLedger(t)
	l.SegmentBytes = 2500
	for i := range 8 {
		mustAppend(t, l, writeRecord(fmt.Sprint("s", i), "a.go"))
	}
	segs, _, _ := ListSegments(l.Root)
	if len(segs) < 3 {
		t.Fatalf("%d segments, want several", len(segs))
	}
	for i, s := range segs {
		lines := segLines(t, l.Root, s)
		for n, line := range lines {
			r, err := ParseLine(line)
			if err != nil {
				t.Fatal(err)
			}
			got := r.Metadata.Intenthook.Sealed
			switch {
			case n > 0 || i == 0:
				if got != nil {
					t.Errorf("%s:%d says it sealed %+v", s.Rel, n+1, got)
				}
			default:
				before := segLines(t, l.Root, segs[i-1])
				last := before[len(before)-1]
				want := Sealed{Segment: segs[i-1].Rel, LastSeq: seqOf(last), LastHash: digest.Bytes(last)}
				if got == nil || *got != want {
					t.Errorf("%s:1 sealed %+v, want %+v", s.Rel, got, want)
				}
			}
		}
	}
	mustVerify(t, l.Root)
}

// A work tree's first record continues the newest record another writer
// left in it: only a repository's first record starts from nothing.
func TestNewWriterContinuesTheLedger(t *testing.T) {
	l := newLedger(t)
	mustAppend(t, l, writeRecord("s1", "a.go"), writeRecord("s2", "a.go"))
	first, _, _ := ListSegments(l.Root)
	// Another work tree: the same files, a state of its own.
	other := newLedger(t)
	copyTree(t, filepath.Join(l.Root, filepath.FromSlash(SegmentDir)), filepath.Join(other.Root, filepath.FromSlash(SegmentDir)))
	mustAppend(t, other, writeRecord("s3", "b.go"))
	segs, _, _ := ListSegments(other.Root)
	if len(segs) != 2 {
		t.Fatalf("%d segments, want 2", len(segs))
	}
	var mine Segment
	for _, s := range segs {
		if s.Writer != first[0].Writer {
			mine = s
		}
	}
	r := firstLine(t, other.Root, mine)
	tip := lastSegLine(t, other.Root, first[0])
	if m := r.Metadata.Intenthook; string(m.Prev) != digest.Bytes(tip) || m.Seq != 3 || m.Sealed != nil {
		t.Errorf("the new writer's first record: seq %d prev %s sealed %+v; want seq 3 from %s, nothing sealed", m.Seq, m.Prev, m.Sealed, digest.Bytes(tip))
	}
	if rep := mustVerify(t, other.Root); len(rep.Roots()) != 1 || rep.Roots()[0].File != first[0].Rel {
		t.Errorf("roots %+v, want only %s", rep.Roots(), first[0].Rel)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if info.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Verify holds a sealed segment to the record its writer's next segment
// says it ended in; two segments that start from the same record and say
// the same stay clean.
func TestVerifySealed(t *testing.T) {
	join := func(lines [][]byte) []byte { return append(bytes.Join(lines, []byte("\n")), '\n') }
	// follow makes line continue prev: its seq and prev set, as a forger
	// with the file in hand would.
	follow := func(line, prev []byte) []byte {
		m := seqPrevPattern.FindSubmatchIndex(line)
		if m == nil {
			t.Fatalf("no seq and prev in %s", line)
		}
		chained := fmt.Sprintf(`"seq":%d,"prev":"%s"`, seqOf(prev)+1, digest.Bytes(prev))
		return append(append(append([]byte{}, line[:m[0]]...), chained...), line[m[1]:]...)
	}
	tests := []struct {
		name   string
		tamper func(t *testing.T, root string, segs []Segment, lines [][][]byte)
		want   []string // substrings of the errors, in order
		codes  []string // their codes
	}{
		{"untouched", func(*testing.T, string, []Segment, [][][]byte) {}, nil, nil},
		{"a line appended to a sealed segment, chained to its last", func(t *testing.T, root string, segs []Segment, lines [][][]byte) {
			l := lines[0]
			forged := bytes.Replace(follow(l[len(l)-1], l[len(l)-1]), []byte(`"session_id":"s`), []byte(`"session_id":"zz`), 1)
			writeSeg(t, root, segs[0], join(append(l, forged)))
		}, []string{"SEG1:4: 1 line(s) added after the segment was sealed: SEG2:1 says it ended at seq 3"}, []string{CodeSealed}},
		{"two lines appended to the segment before the last", func(t *testing.T, root string, segs []Segment, lines [][][]byte) {
			l := lines[1]
			a := bytes.Replace(follow(l[len(l)-1], l[len(l)-1]), []byte(`"session_id":"s`), []byte(`"session_id":"zz`), 1)
			b := bytes.Replace(follow(a, a), []byte(`"session_id":"zz`), []byte(`"session_id":"zy`), 1)
			writeSeg(t, root, segs[1], join(append(l, a, b)))
		}, []string{"2 line(s) added after the segment was sealed"}, []string{CodeSealed}},
		{"a second segment from the same record, saying the same", func(t *testing.T, root string, segs []Segment, lines [][][]byte) {
			twin := bytes.Replace(lines[1][0], []byte(`"session_id":"s`), []byte(`"session_id":"twin`), 1)
			writeSeg(t, root, Segment{Rel: segmentRel(segs[0].Writer, "2026-11", 99)}, join([][]byte{twin}))
		}, nil, nil},
		{"a segment that says it sealed another writer's", func(t *testing.T, root string, segs []Segment, lines [][][]byte) {
			other := strings.Replace(segs[0].Rel, segs[0].Writer, "0123456789abcdef", 1)
			l := bytes.Replace(lines[1][0], []byte(`"segment":"`+segs[0].Rel+`"`), []byte(`"segment":"`+other+`"`), 1)
			twin := bytes.Replace(l, []byte(`"session_id":"s`), []byte(`"session_id":"twin`), 1)
			writeSeg(t, root, Segment{Rel: segmentRel(segs[0].Writer, "2026-11", 99)}, join([][]byte{twin}))
		}, []string{"000099.jsonl:1: says it sealed"}, []string{CodeSealed}},
		{"the sealed segment's last line rewritten", func(t *testing.T, root string, segs []Segment, lines [][][]byte) {
			l := lines[0]
			l[len(l)-1] = bytes.Replace(l[len(l)-1], []byte(`"session_id":"s`), []byte(`"session_id":"zz`), 1)
			writeSeg(t, root, segs[0], join(l))
		}, []string{"SEG1: does not hold the record SEG2:1 says it was sealed at", "SEG2:1: starts from prev"}, []string{CodeSealed, ""}},
		{"the sealed segment's last line lost", func(t *testing.T, root string, segs []Segment, lines [][][]byte) {
			l := lines[0]
			writeSeg(t, root, segs[0], join(l[:len(l)-1]))
		}, []string{"SEG2:1: starts from prev"}, []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLedger(t)
			l.SegmentBytes = 3000
			for i := range 9 {
				mustAppend(t, l, writeRecord(fmt.Sprint("s", i), "a.go"))
			}
			segs, _, _ := ListSegments(l.Root)
			if len(segs) < 3 {
				t.Fatalf("%d segments", len(segs))
			}
			var lines [][][]byte
			for _, s := range segs {
				lines = append(lines, segLines(t, l.Root, s))
			}
			tt.tamper(t, l.Root, segs, lines)
			rep := Verify(l.Root)
			name := strings.NewReplacer(segs[0].Rel, "SEG1", segs[1].Rel, "SEG2")
			var got, codes []string
			for _, p := range rep.Errors {
				got = append(got, name.Replace(p.String()))
				codes = append(codes, p.Code)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("errors %q, want %d matching %q", got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("error %d = %q, want it to contain %q", i, got[i], w)
				}
				if codes[i] != tt.codes[i] {
					t.Errorf("error %d: code %q, want %q", i, codes[i], tt.codes[i])
				}
			}
			// What a checkpoint vouches for never hides what the whole
			// ledger finds.
			if len(tt.want) > 0 {
				return
			}
			if _, ok := VerifyFrom(l.Root, CheckpointOf(rep), nil); !ok {
				t.Error("VerifyFrom refused its own checkpoint")
			}
		})
	}
}

// A line added to a sealed segment after a checkpoint is not vouched for:
// VerifyFrom leaves the ledger to the whole verify, which reports it.
func TestVerifyFromSealed(t *testing.T) {
	l := newLedger(t)
	l.SegmentBytes = 4000
	for i := range 8 {
		mustAppend(t, l, writeRecord(fmt.Sprint("s", i), "a.go"))
	}
	cp := CheckpointOf(mustVerify(t, l.Root))
	segs, _, _ := ListSegments(l.Root)
	lines := segLines(t, l.Root, segs[0])
	last := lines[len(lines)-1]
	m := seqPrevPattern.FindSubmatchIndex(last)
	forged := append(append(append([]byte{}, last[:m[0]]...), fmt.Sprintf(`"seq":%d,"prev":"%s"`, seqOf(last)+1, digest.Bytes(last))...), last[m[1]:]...)
	f, err := os.OpenFile(filepath.Join(l.Root, filepath.FromSlash(segs[0].Rel)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(forged, '\n'))
	f.Close()
	if rep, ok := VerifyFrom(l.Root, cp, nil); ok && rep.OK() {
		t.Fatal("VerifyFrom vouched for a line added to a sealed segment")
	}
	if rep := Verify(l.Root); rep.OK() {
		t.Fatal("Verify passed a line added to a sealed segment")
	}
}

// Beside the legacy file, a segment's chain from nothing is a second first
// record: one of the two was not written on this ledger. Segments alone may
// have several (work trees begun on an empty ledger at once).
func TestVerifyRoots(t *testing.T) {
	chain := func(t *testing.T, sessions ...string) []byte {
		l := newLedger(t)
		for _, s := range sessions {
			mustAppend(t, l, writeRecord(s, "a.go"))
		}
		return ledgerBytes(t, l.Root)
	}
	t.Run("a legacy file begun beside segments", func(t *testing.T) {
		l := newLedger(t)
		mustAppend(t, l, writeRecord("s1", "a.go"), writeRecord("s2", "a.go"))
		if err := os.WriteFile(ledgerPath(l.Root), chain(t, "p1", "p2"), 0o644); err != nil {
			t.Fatal(err)
		}
		rep := Verify(l.Root)
		if len(rep.Errors) != 1 || rep.Errors[0].Code != CodeUnrooted || rep.Errors[0].Line != 1 || !strings.Contains(rep.Errors[0].Message, "starts a chain from nothing, and so does "+SegmentDir) {
			t.Fatalf("errors %+v", rep.Errors)
		}
		if len(rep.Roots()) != 2 || rep.Roots()[0].File != FileName || rep.Roots()[0].Revision == "" {
			t.Errorf("roots %+v", rep.Roots())
		}
	})
	t.Run("a legacy part planted beside segments", func(t *testing.T) {
		l := newLedger(t)
		mustAppend(t, l, writeRecord("s1", "a.go"))
		part := filepath.Join(l.Root, filepath.FromSlash(LegacyDir), "000001.jsonl")
		os.MkdirAll(filepath.Dir(part), 0o755)
		if err := os.WriteFile(part, chain(t, "p1", "p2"), 0o644); err != nil {
			t.Fatal(err)
		}
		if rep := Verify(l.Root); len(rep.Errors) != 1 || rep.Errors[0].Code != CodeUnrooted {
			t.Fatalf("errors %+v", rep.Errors)
		}
	})
	t.Run("segments that continue the legacy file", func(t *testing.T) {
		l := newLedger(t)
		mustAppend(t, l, writeRecord("s1", "a.go"))
		toLegacy(t, l.Root)
		mustAppend(t, l, writeRecord("s2", "a.go"))
		if rep := mustVerify(t, l.Root); len(rep.Roots()) != 1 || rep.Roots()[0].File != FileName {
			t.Errorf("roots %+v", rep.Roots())
		}
	})
	t.Run("two writers begun on an empty ledger", func(t *testing.T) {
		l := newLedger(t)
		mustAppend(t, l, writeRecord("s1", "a.go"))
		other := chain(t, "o1", "o2")
		writeSeg(t, l.Root, Segment{Rel: segmentRel("0123456789abcdef", "2026-11", 1)}, other)
		if rep := mustVerify(t, l.Root); len(rep.Roots()) != 2 {
			t.Errorf("roots %+v", rep.Roots())
		}
	})
}
