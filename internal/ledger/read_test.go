package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestReadTail(t *testing.T) {
	l := newLedger(t)
	for i := range 20 {
		mustAppend(t, l, writeRecord(fmt.Sprint("s", i), "a.go"))
	}
	lines := ledgerLines(t, l.Root)
	last3 := int64(len(lines[17]) + len(lines[18]) + len(lines[19]) + 3)
	tests := []struct {
		name     string
		maxBytes int64
		torn     bool
		want     []string
	}{
		{"window on a line start", last3, false, []string{"s17", "s18", "s19"}},
		{"window cuts a line", last3 + 5, false, []string{"s17", "s18", "s19"}},
		{"window one byte short of a line", last3 - 1, false, []string{"s18", "s19"}},
		{"window larger than the ledger", 1 << 30, false, nil}, // all 20
		{"window inside the last line", 10, false, []string{}},
		{"torn tail left out", last3, true, []string{"s18", "s19"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.torn {
				writeLedger(t, l.Root, bytes.Join(append(slices.Clip(lines), []byte(`{"version":"0.1.0","id"`)), []byte("\n")))
				defer writeLedger(t, l.Root, append(bytes.Join(lines, []byte("\n")), '\n'))
			}
			recs, err := ReadTail(l.Root, tt.maxBytes)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range recs {
				got = append(got, r.Metadata.Intenthook.SessionID)
			}
			if tt.want == nil {
				if len(got) != 20 || got[0] != "s0" {
					t.Errorf("got %q, want all 20 in order", got)
				}
				return
			}
			if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	if recs, err := ReadTail(t.TempDir(), 100); err != nil || recs != nil {
		t.Errorf("missing ledger: %v %v", recs, err)
	}
}

func TestSelectAndBlame(t *testing.T) {
	l := newLedger(t) // its clock: 10:00:01, 10:00:02, ...
	add := func(intent, session, path string) {
		r := writeRecord(session, path)
		r.Metadata.Intenthook.IntentID = NullString(intent)
		if path == "" {
			r.Files = nil
		}
		mustAppend(t, l, r)
	}
	add("INT-1", "a", "x.go")     // seq 1
	add("INT-2", "a", "y.go")     // 2
	add("INT-1", "b", "x.go")     // 3
	add("", "b", "")              // 4: no intent, no file
	add("INT-1", "a", "dir/z.go") // 5
	// 6: a violation names paths
	mustAppend(t, l, &Record{Metadata: Metadata{Intenthook: Meta{
		Event: EventViolation, IntentID: "INT-2", SessionID: "c", Paths: []string{"x.go", "w.go"}}}})

	seqs := func(recs []Record) []int64 {
		var out []int64
		for _, r := range recs {
			out = append(out, r.Metadata.Intenthook.Seq)
		}
		return out
	}
	tests := []struct {
		name string
		q    Query
		want []int64
	}{
		{"everything", Query{}, []int64{1, 2, 3, 4, 5, 6}},
		{"intent", Query{Intent: "INT-1"}, []int64{1, 3, 5}},
		{"file", Query{File: "x.go"}, []int64{1, 3, 6}},
		{"file in another spelling", Query{File: "./dir//z.go"}, []int64{5}},
		{"session", Query{Session: "b"}, []int64{3, 4}},
		{"since", Query{Since: time.Date(2026, 11, 22, 10, 0, 4, 0, time.UTC)}, []int64{4, 5, 6}},
		{"limit keeps the newest", Query{Limit: 2}, []int64{5, 6}},
		{"limit over a match", Query{Intent: "INT-1", Limit: 2}, []int64{3, 5}},
		{"combined", Query{Intent: "INT-1", Session: "a", File: "x.go"}, []int64{1}},
		{"nothing", Query{Intent: "INT-9"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := Select(l.Root, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := seqs(recs); !slices.Equal(got, tt.want) {
				t.Errorf("seqs %v, want %v", got, tt.want)
			}
		})
	}

	blame, err := Blame(l.Root, "x.go")
	if err != nil {
		t.Fatal(err)
	}
	if got := seqs(blame); !slices.Equal(got, []int64{6, 3, 1}) {
		t.Errorf("blame x.go: seqs %v, want newest first [6 3 1]", got)
	}
}

// A limit much smaller than the match count keeps memory bounded and the
// answer right.
func TestSelectLimitCompacts(t *testing.T) {
	l := newLedger(t)
	var recs []*Record
	for i := range 50 {
		recs = append(recs, writeRecord(fmt.Sprint(i), "a.go"))
	}
	mustAppend(t, l, recs...)
	got, err := Select(l.Root, Query{File: "a.go", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if s := sessions(got); !slices.Equal(s, []string{"47#48", "48#49", "49#50"}) {
		t.Errorf("got %q", s)
	}
}

func TestScan(t *testing.T) {
	l := newLedger(t)
	mustAppend(t, l, writeRecord("s0", "a.go"))
	firstLen := len(ledgerLines(t, l.Root)[0])
	// An old line far longer than any buffer, then a bad line, then a torn tail.
	long := `{"id":"old","timestamp":"t","session_id":"` + strings.Repeat("z", 600<<10) + `"}`
	b := append(ledgerBytes(t, l.Root), long+"\nnot json\n{\"vers"...)
	writeLedger(t, l.Root, b)

	var kinds []string
	err := Scan(l.Root, func(line []byte, rec *Record, err error) error {
		switch {
		case errors.Is(err, ErrTorn):
			kinds = append(kinds, "torn:"+string(line))
		case err != nil:
			kinds = append(kinds, "bad:"+string(line))
		default:
			kinds = append(kinds, fmt.Sprintf("%s/%d", rec.ID[:3], len(line)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprintf("%s/%d", ledgerID(t, l.Root)[:3], firstLen),
		fmt.Sprintf("old/%d", len(long)), "bad:not json", `torn:{"vers`}
	if !slices.Equal(kinds, want) {
		t.Errorf("scan saw %q, want %q", kinds, want)
	}

	stop := errors.New("stop")
	n := 0
	if err := Scan(l.Root, func([]byte, *Record, error) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Errorf("scan did not stop: %v after %d", err, n)
	}
}

// ledgerID returns the id of the ledger's first record.
func ledgerID(t *testing.T, root string) string {
	t.Helper()
	recs, err := Select(root, Query{Limit: 0})
	if err != nil || len(recs) == 0 {
		t.Fatalf("select: %v", err)
	}
	return recs[0].ID
}

func TestReadSince(t *testing.T) {
	l := newLedger(t)
	for i := range 20 {
		mustAppend(t, l, writeRecord(fmt.Sprint("s", i), "a.go"))
	}
	all, err := ReadTail(l.Root, 1<<30)
	if err != nil || len(all) != 20 {
		t.Fatalf("ReadTail: %d records, %v", len(all), err)
	}
	stamp := func(i int) time.Time {
		ts, err := time.Parse(time.RFC3339Nano, all[i].Timestamp)
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	lines := ledgerLines(t, l.Root)
	last3 := int64(len(lines[17]) + len(lines[18]) + len(lines[19]) + 3)
	tests := []struct {
		name     string
		since    time.Time
		slack    time.Duration
		maxBytes int64
		first    int // the first session read; 20 for none
	}{
		{"nothing since", stamp(19).Add(time.Millisecond), 0, 1 << 20, 20},
		{"the last three", stamp(17), 0, 1 << 20, 17},
		{"slack reaches two more", stamp(17), 2 * time.Second, 1 << 20, 15},
		{"everything, past the first window", stamp(0).Add(-time.Hour), 0, 1 << 20, 0},
		{"bounded by maxBytes", stamp(0).Add(-time.Hour), 0, last3, 17},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ReadSince(l.Root, tt.since, tt.slack, tt.maxBytes)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for i := tt.first; i < 20; i++ {
				want = append(want, fmt.Sprint("s", i))
			}
			if got := sessionIDs(recs); !slices.Equal(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
	t.Run("a line without a stamp does not stop the reading", func(t *testing.T) {
		mixed := slices.Clone(lines[:18])
		mixed = append(mixed, []byte(`not a record`), lines[18], lines[19])
		writeLedger(t, l.Root, append(bytes.Join(mixed, []byte("\n")), '\n'))
		recs, err := ReadSince(l.Root, stamp(17), 0, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if got := sessionIDs(recs); !slices.Equal(got, []string{"s17", "s18", "s19"}) {
			t.Errorf("got %q", got)
		}
	})
	if recs, err := ReadSince(t.TempDir(), time.Time{}, 0, 100); err != nil || recs != nil {
		t.Errorf("missing ledger: %v %v", recs, err)
	}
}

func sessionIDs(recs []Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.Metadata.Intenthook.SessionID)
	}
	return out
}

func TestReadTailMentioning(t *testing.T) {
	l := newLedger(t)
	for i := range 6 {
		r := writeRecord(fmt.Sprint("s", i), "a.go")
		if i%2 == 1 {
			r.Metadata.Intenthook.IntentID = "INT-002"
		}
		mustAppend(t, l, r)
	}
	tests := []struct {
		word string
		want []string
	}{
		{"INT-002", []string{"s1", "s3", "s5"}},
		{"INT-001", []string{"s0", "s2", "s4"}}, // the URL "intent:INT-001" alone is not the JSON string
		{"INT-00", nil},                         // a prefix is not the word
		{"a.go", []string{"s0", "s1", "s2", "s3", "s4", "s5"}},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			recs, err := ReadTailMentioning(l.Root, 1<<20, tt.word)
			if err != nil {
				t.Fatal(err)
			}
			if got := sessionIDs(recs); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestTailLinesMentioning: the search goes back from the end until it
// has n records keep accepts, leaving out those it does not (denials), and
// goes no further.
func TestTailLinesMentioning(t *testing.T) {
	l := newLedger(t)
	intent := func(r *Record, id, decision string) *Record {
		r.Metadata.Intenthook.IntentID, r.Metadata.Intenthook.Decision = NullString(id), decision
		return r
	}
	for i := range 3 {
		mustAppend(t, l, intent(writeRecord(fmt.Sprint("old", i), "a.go"), "INT-002", "allow"))
	}
	for i := range 300 { // about 300 KB of other records between
		mustAppend(t, l, writeRecord(fmt.Sprint("other", i), "b.go"))
	}
	mustAppend(t, l, intent(writeRecord("denied0", "a.go"), "INT-002", "deny"), intent(writeRecord("denied1", "a.go"), "INT-002", "deny"))
	mustAppend(t, l, intent(writeRecord("new0", "a.go"), "INT-002", "allow"))
	allowed := func(line []byte) bool {
		r, err := ParseLine(line)
		return err == nil && r.Metadata.Intenthook.Decision == "allow"
	}
	for _, tt := range []struct {
		n    int
		want []string
	}{
		{1, []string{"new0"}},
		{3, []string{"old1", "old2", "new0"}},
		{9, []string{"old0", "old1", "old2", "new0"}},
	} {
		recs, err := tailRecords(l.Root, 1<<20, "INT-002", tt.n, allowed)
		if err != nil {
			t.Fatal(err)
		}
		if got := sessionIDs(recs); !slices.Equal(got, tt.want) {
			t.Errorf("n=%d: got %q, want %q", tt.n, got, tt.want)
		}
	}
	recs, err := tailRecords(l.Root, 1<<20, "INT-002", 0, nil)
	if got, want := sessionIDs(recs), []string{"old0", "old1", "old2", "denied0", "denied1", "new0"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("every record: got %q (%v), want %q", got, err, want)
	}
}

// TestReadTailMentioningAcrossSegments: the newest segments are searched
// newest first, in the canonical order once found, and share maxBytes: a
// bound the newest segment's end uses up leaves the one before unread.
func TestReadTailMentioningAcrossSegments(t *testing.T) {
	l := newLedger(t)
	l.SegmentBytes = 4 << 10
	mention := func(session string) *Record {
		r := writeRecord(session, "a.go")
		r.Metadata.Intenthook.IntentID = "INT-002"
		return r
	}
	// Four records of about 1 KB a segment: "first" ends the older
	// segment, "second" the newer.
	for i := range 3 {
		mustAppend(t, l, writeRecord(fmt.Sprint("other", i), "b.go"))
	}
	mustAppend(t, l, mention("first"))
	for i := range 3 {
		mustAppend(t, l, writeRecord(fmt.Sprint("later", i), "b.go"))
	}
	mustAppend(t, l, mention("second"))
	if files := recentFiles(l.Root); len(files) < 3 {
		t.Fatalf("recent files %q: the test wants two segments", files)
	}
	for _, tt := range []struct {
		max  int64
		n    int
		want []string
	}{
		{1 << 20, 2, []string{"first", "second"}},
		{1 << 20, 0, []string{"first", "second"}},
		{1 << 20, 1, []string{"second"}},
		{2 << 10, 2, []string{"second"}}, // the newest segment's end uses up the bound
	} {
		recs, err := tailRecords(l.Root, tt.max, "INT-002", tt.n, nil)
		if got := sessionIDs(recs); err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("max %d, n %d: got %q (%v), want %q", tt.max, tt.n, got, err, tt.want)
		}
	}
}

// TestScanMentions holds the chunked search to the plain one it replaced:
// every line holding the quoted word, from the end back, up to n, on
// windows whose hits fall across chunks, straddle a chunk's end, come
// dense or far apart, without their quote, or twice in a line.
func TestScanMentions(t *testing.T) {
	quoted := []byte(`"INT-7"`)
	plain := func(data []byte, cut bool, n int, keep func([]byte) bool) (found [][]byte, back int) {
		lo := 0
		if cut {
			lo = bytes.IndexByte(data, '\n') + 1
		}
		end := bytes.LastIndexByte(data, '\n') + 1
		back = lo
		for end > lo {
			from := lo + bytes.LastIndexByte(data[lo:end-1], '\n') + 1
			line := data[from : end-1]
			end = from
			if !bytes.Contains(line, quoted) || keep != nil && !keep(line) {
				continue
			}
			found = append(found, line)
			if n > 0 && len(found) == n {
				back = from
				break
			}
		}
		slices.Reverse(found)
		return found, back
	}
	lines := map[string]func(i int) string{
		"far apart": func(i int) string {
			if i%300 == 0 {
				return fmt.Sprintf(`{"n":%d,"intent_id":"INT-7"}`, i)
			}
			return fmt.Sprintf(`{"n":%d,"intent_id":"INT-70","pad":%q}`, i, strings.Repeat("x", i%500))
		},
		"dense": func(i int) string {
			return fmt.Sprintf(`{"n":%d,"intent_id":"INT-7","decision":%q}`, i, []string{"allow", "deny"}[i%2])
		},
		"twice in a line, and unquoted": func(i int) string {
			return fmt.Sprintf(`{"n":%d,"a":"INT-7","b":"INT-7","c":"xINT-7"}`, i)
		},
		"unquoted only": func(i int) string { return fmt.Sprintf(`{"n":%d,"c":"xINT-7","d":INT-7"}`, i) },
	}
	allow := func(line []byte) bool { return bytes.Contains(line, []byte(`"allow"`)) }
	for name, line := range lines {
		var b bytes.Buffer
		for i := 0; b.Len() < 3*mentionChunk+777; i++ {
			b.WriteString(line(i) + "\n")
		}
		b.WriteString(`{"torn":"INT-7"`) // no newline: not a line
		for _, cut := range []int{0, 1, 13, mentionChunk - 5} {
			data := b.Bytes()[cut:]
			for _, n := range []int{0, 1, 10, 1000} {
				for _, keep := range []func([]byte) bool{nil, allow} {
					want, wantBack := plain(data, cut > 0, n, keep)
					found, kept, back, end := scanMentions(data, cut > 0, quoted, n, keep)
					var got [][]byte
					for _, m := range found {
						if !bytes.Equal(data[m.off:m.off+int64(len(m.line))], m.line) {
							t.Errorf("%s: a line found at %d is not there", name, m.off)
						}
						got = append(got, m.line)
					}
					if wantEnd := bytes.LastIndexByte(data, '\n') + 1; end != wantEnd {
						t.Errorf("%s, cut %d: end %d, want %d", name, cut, end, wantEnd)
					}
					if len(got) != kept || !slices.EqualFunc(got, want, bytes.Equal) || back != wantBack {
						t.Errorf("%s, cut %d, n %d, keep %v: got %d lines (kept %d) back %d, want %d back %d",
							name, cut, n, keep != nil, len(got), kept, back, len(want), wantBack)
					}
				}
			}
		}
	}
}

// tailRecords is TailLinesMentioning's lines, parsed.
func tailRecords(root string, maxBytes int64, word string, n int, keep func([]byte) bool) ([]Record, error) {
	lines, err := TailLinesMentioning(root, maxBytes, word, n, keep)
	return parseLines(lines), err
}
