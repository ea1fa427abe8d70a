package ledger

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/state"
)

func TestAppendChain(t *testing.T) {
	tests := []struct {
		name  string
		calls []int // records per Append call
	}{
		{"one record on an empty ledger", []int{1}},
		{"three records in one call", []int{3}},
		{"records over several calls", []int{1, 2, 1, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLedger(t)
			n := 0
			for _, k := range tt.calls {
				var recs []*Record
				for range k {
					n++
					recs = append(recs, writeRecord(fmt.Sprintf("s%d", n), "a.go"))
				}
				mustAppend(t, l, recs...)
				// The caller's records carry their place in the chain.
				if got := recs[len(recs)-1].Metadata.Intenthook.Seq; got != int64(n) {
					t.Errorf("caller's record has seq %d, want %d", got, n)
				}
			}
			lines := ledgerLines(t, l.Root)
			recs := checkChain(t, lines)
			if len(recs) != n {
				t.Fatalf("%d lines, want %d", len(recs), n)
			}
			for i, r := range recs {
				if want := fmt.Sprintf("s%d", i+1); r.Metadata.Intenthook.SessionID != want {
					t.Errorf("line %d is %s, want %s: order lost", i+1, r.Metadata.Intenthook.SessionID, want)
				}
			}
			head := readHeadFile(t, l.Root)
			want := Head{Seq: int64(n), Hash: digest.Bytes(lines[n-1])}
			if head != want {
				t.Errorf("state/ledger.head = %+v, want %+v", head, want)
			}
			if got, err := ReadHead(l.Root); err != nil || got != want {
				t.Errorf("ReadHead = %+v, %v; want %+v", got, err, want)
			}
			rep := mustVerify(t, l.Root)
			if rep.Records != n || rep.Head != want || len(rep.Forks) != 0 {
				t.Errorf("verify: %+v", rep)
			}
		})
	}
}

var timestampRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

func TestAppendFillsFields(t *testing.T) {
	l := newLedger(t)
	l.ToolVersion = ""
	l.Now = func() time.Time { return time.Date(2026, 11, 22, 11, 0, 0, 0, time.FixedZone("x", 3600)) }
	blank := &Record{}
	given := &Record{Version: "0.1.0", ID: "7c9e6679-7425-40de-944b-e07fc1f90ae7", Timestamp: "2026-01-01T00:00:00.000Z",
		Tool: &Tool{Name: "other", Version: "9"}}
	mustAppend(t, l, blank, given)
	recs := checkChain(t, ledgerLines(t, l.Root))

	r := recs[0]
	if r.Version != "0.1.0" {
		t.Errorf("version %q", r.Version)
	}
	if u, err := uuid.Parse(r.ID); err != nil || u.Version() != 4 {
		t.Errorf("id %q is not a uuid v4: %v", r.ID, err)
	}
	if r.Timestamp != "2026-11-22T10:00:00.000Z" || !timestampRE.MatchString(r.Timestamp) {
		t.Errorf("timestamp %q, want UTC with milliseconds", r.Timestamp)
	}
	if r.Tool == nil || *r.Tool != (Tool{Name: "intenthook", Version: "dev"}) {
		t.Errorf("tool %+v", r.Tool)
	}
	if r.ID != blank.ID || blank.Metadata.Intenthook.Seq != 1 {
		t.Errorf("caller's record not filled: %+v", blank)
	}
	g := recs[1]
	if g.ID != given.ID || g.Timestamp != given.Timestamp || *g.Tool != *given.Tool {
		t.Errorf("given fields replaced: %+v", g)
	}
}

func TestLineCap(t *testing.T) {
	big := func(s string, n int) string { return strings.Repeat(s, n/len(s)+1)[:n] }
	manyRanges := func() *Record {
		r := writeRecord("s", "big.go")
		var rs []Range
		for i := range 5000 {
			rs = append(rs, Range{StartLine: i + 1, EndLine: i + 1, ContentHash: digest.String(fmt.Sprint(i))})
		}
		r.Files[0].Conversations[0].Ranges = rs
		return r
	}
	tests := []struct {
		name   string
		rec    func() *Record
		cut    []string
		verify func(t *testing.T, orig, got *Record)
	}{
		{"long command", func() *Record {
			r := writeRecord("s", "a")
			r.Metadata.Intenthook.Command = big("make test && ", 200<<10)
			return r
		}, []string{"command"}, func(t *testing.T, orig, got *Record) {
			m := got.Metadata.Intenthook
			if m.CommandHash != digest.String(orig.Metadata.Intenthook.Command) {
				t.Errorf("command_hash is not the digest of the full command")
			}
			if !strings.HasSuffix(m.Command, cutMark) || !strings.HasPrefix(orig.Metadata.Intenthook.Command, strings.TrimSuffix(m.Command, cutMark)) {
				t.Errorf("command is not a marked prefix of the original")
			}
			if len(m.Command) < 60<<10 {
				t.Errorf("command cut to %d bytes, more than needed", len(m.Command))
			}
		}},
		{"long error of multi-byte runes", func() *Record {
			r := writeRecord("s", "a")
			r.Metadata.Intenthook.Error = NullString(big("é€", 100<<10))
			return r
		}, []string{"error"}, func(t *testing.T, orig, got *Record) {
			m := got.Metadata.Intenthook
			if m.ErrorHash != digest.String(string(orig.Metadata.Intenthook.Error)) {
				t.Errorf("error_hash is not the digest of the full error")
			}
			// An invalid byte would have come back as U+FFFD, no prefix.
			if !strings.HasPrefix(string(orig.Metadata.Intenthook.Error), strings.TrimSuffix(string(m.Error), cutMark)) {
				t.Errorf("cut error is not a prefix of the original")
			}
		}},
		{"command and reason both long", func() *Record {
			r := writeRecord("s", "a")
			r.Metadata.Intenthook.Command = big("x", 80<<10)
			r.Metadata.Intenthook.Reason = big("y", 80<<10)
			return r
		}, []string{"command", "reason"}, nil},
		{"control characters escape six-fold", func() *Record {
			r := writeRecord("s", "a")
			r.Metadata.Intenthook.Command = big("\x01", 30<<10)
			return r
		}, []string{"command"}, nil},
		{"many ranges", manyRanges, []string{"ranges"}, func(t *testing.T, orig, got *Record) {
			n := len(got.Files[0].Conversations[0].Ranges)
			if n == 0 || n >= 5000 {
				t.Errorf("%d ranges kept, want some but not all", n)
			}
			if got.Files[0].Conversations[0].Ranges[n-1] != orig.Files[0].Conversations[0].Ranges[n-1] {
				t.Errorf("kept ranges are not the first ones")
			}
			if len(orig.Files[0].Conversations[0].Ranges) != 5000 {
				t.Errorf("caller's ranges changed")
			}
		}},
		{"many paths", func() *Record {
			r := &Record{Metadata: Metadata{Intenthook: Meta{Event: EventViolation}}}
			for i := range 2000 {
				r.Metadata.Intenthook.Paths = append(r.Metadata.Intenthook.Paths, fmt.Sprintf("src/%s/%d.go", big("d", 60), i))
			}
			return r
		}, []string{"paths"}, nil},
		{"huge session id", func() *Record {
			r := writeRecord("s", "a")
			r.Metadata.Intenthook.SessionID = big("s", 1<<20)
			r.Metadata.Intenthook.Command = "make test"
			return r
		}, []string{"fields"}, func(t *testing.T, orig, got *Record) {
			m := got.Metadata.Intenthook
			if len(got.Files) != 1 || m.Command != "make test" {
				t.Errorf("files or command cut for a long session id")
			}
			if !strings.HasPrefix(orig.Metadata.Intenthook.SessionID, strings.TrimSuffix(m.SessionID, cutMark)) || len(m.SessionID) > clampLen {
				t.Errorf("session id cut to %d bytes", len(m.SessionID))
			}
		}},
		{"everything huge at once", func() *Record {
			r := manyRanges()
			m := &r.Metadata.Intenthook
			m.SessionID, m.ToolUseID, m.AgentID = big("\x02", 1<<20), big("t", 1<<20), NullString(big("a", 1<<20))
			m.Command, m.Error, m.Reason = big("c", 1<<20), NullString(big("e", 1<<20)), big("r", 1<<20)
			for i := range 100 {
				m.Paths = append(m.Paths, big(fmt.Sprint(i), 2<<10))
				r.Files = append(r.Files, File{Path: big(fmt.Sprint(i), 2<<10), Conversations: []Conversation{{URL: FileURL(big("/u", 4<<10))}}})
			}
			return r
		}, []string{"fields", "command", "error", "reason", "ranges", "paths", "files"}, nil},
		{"huge file paths", func() *Record {
			r := writeRecord("s", "a")
			for i := range 20 {
				r.Files = append(r.Files, File{Path: big(fmt.Sprintf("dir%d/", i), 10<<10)})
			}
			return r
		}, []string{"ranges", "files"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLedger(t)
			mustAppend(t, l, writeRecord("first", "a")) // prev not null, seq > 1
			orig := tt.rec()
			mustAppend(t, l, orig)
			lines := ledgerLines(t, l.Root)
			recs := checkChain(t, lines)
			got := recs[1]
			if n := len(lines[1]) + 1; n > MaxLine {
				t.Fatalf("line is %d bytes", n)
			}
			if !slices.Equal(got.Metadata.Intenthook.Cut, tt.cut) {
				t.Errorf("cut = %q, want %q", got.Metadata.Intenthook.Cut, tt.cut)
			}
			if orig.Metadata.Intenthook.Cut != nil || strings.HasSuffix(orig.Metadata.Intenthook.Command, cutMark) {
				t.Errorf("caller's record was cut")
			}
			if tt.verify != nil {
				tt.verify(t, orig, got)
			}
			mustVerify(t, l.Root)
		})
	}
}

// A line of exactly MaxLine bytes is kept whole; one byte more is cut.
func TestLineCapBoundary(t *testing.T) {
	lineLen := func(cmd string) (int, *Record) {
		l := newLedger(t)
		r := writeRecord("s", "a")
		r.Metadata.Intenthook.Command = cmd
		mustAppend(t, l, r)
		line := ledgerLines(t, l.Root)[0]
		got, err := ParseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		return len(line) + 1, got
	}
	base, _ := lineLen("x")
	fill := strings.Repeat("x", 1+MaxLine-base)
	if n, got := lineLen(fill); n != MaxLine || got.Metadata.Intenthook.Command != fill {
		t.Errorf("line of %d bytes was changed (len %d)", MaxLine, n)
	}
	if n, got := lineLen(fill + "x"); n > MaxLine || got.Metadata.Intenthook.CommandHash == "" {
		t.Errorf("line of %d bytes was not cut: %d", MaxLine+1, n)
	}
}

func TestTornTail(t *testing.T) {
	tests := []struct {
		name     string
		before   int    // whole records first
		fragment string // then these bytes, no newline
	}{
		{"half a record after three", 3, `{"version":"0.1.0","id":"9f1c`},
		{"only a fragment", 0, `{"versi`},
		{"a whole record missing its newline", 2, `{"version":"0.1.0","id":"x","timestamp":"t","files":[],"metadata":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLedger(t)
			for i := range tt.before {
				mustAppend(t, l, writeRecord(fmt.Sprint("s", i), "a"))
			}
			if err := os.MkdirAll(filepath.Dir(testLedgerPath(t, l.Root)), 0o755); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(testLedgerPath(t, l.Root), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString(tt.fragment); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if rep := Verify(l.Root); rep.OK() || !strings.Contains(fmt.Sprint(rep.Errors), "torn tail") {
				t.Errorf("verify before repair: %v", rep.Errors)
			}

			mustAppend(t, l, writeRecord("after", "b"))

			recs := checkChain(t, ledgerLines(t, l.Root))
			if len(recs) != tt.before+2 {
				t.Fatalf("%d lines, want %d", len(recs), tt.before+2)
			}
			repair, own := recs[tt.before].Metadata.Intenthook, recs[tt.before+1].Metadata.Intenthook
			if repair.Event != EventRepair || own.SessionID != "after" {
				t.Fatalf("want the repair record, then the caller's: %+v, %+v", repair, own)
			}
			if !strings.HasPrefix(repair.Fragment, ".orchestration/state/ledger-torn-") || !strings.HasSuffix(repair.Fragment, ".jsonl") {
				t.Errorf("fragment path %q", repair.Fragment)
			}
			kept, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(repair.Fragment)))
			if err != nil || string(kept) != tt.fragment {
				t.Errorf("fragment kept as %q (%v), want %q", kept, err, tt.fragment)
			}
			mustVerify(t, l.Root)
		})
	}
}

func TestSpool(t *testing.T) {
	ctx := context.Background()
	l := newLedger(t)
	l.LockTimeout = 30 * time.Millisecond
	mustAppend(t, l, writeRecord("s0", "a"))

	unlock, err := state.Lock(ctx, l.Root, state.LockLedger, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	before := ledgerBytes(t, l.Root)
	mustAppend(t, l, writeRecord("s1", "a"))
	mustAppend(t, l, writeRecord("s2", "a"), writeRecord("s3", "a"))
	if !bytes.Equal(before, ledgerBytes(t, l.Root)) {
		t.Fatal("ledger written without the lock")
	}
	names := spoolNames(t, l.Root)
	if len(names) != 3 {
		t.Fatalf("spool holds %q, want 3 records", names)
	}
	for _, n := range names {
		b, err := os.ReadFile(state.Path(l.Root, spoolDir, n))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(`"seq":0,"prev":null`)) {
			t.Errorf("spooled record %s carries a place in the chain: %s", n, b)
		}
	}
	unlock()

	mustAppend(t, l, writeRecord("s4", "a"))
	recs := checkChain(t, ledgerLines(t, l.Root))
	var got []string
	for _, r := range recs {
		got = append(got, r.Metadata.Intenthook.SessionID)
	}
	if want := []string{"s0", "s1", "s2", "s3", "s4"}; !slices.Equal(got, want) {
		t.Errorf("ledger holds %q, want %q", got, want)
	}
	if names := spoolNames(t, l.Root); len(names) != 0 {
		t.Errorf("spool not drained: %q", names)
	}
	mustVerify(t, l.Root)
}

func TestSpoolCases(t *testing.T) {
	tests := []struct {
		name string
		// setup leaves records in the spool (by whatever means) and returns
		// the sessions the ledger must hold after a final Append(s9).
		setup func(t *testing.T, l *Ledger) []string
	}{
		{"ledger cannot be opened", func(t *testing.T, l *Ledger) []string {
			mustAppend(t, l, writeRecord("s0", "a"))
			path := testLedgerPath(t, l.Root)
			keep := path + ".keep"
			if err := os.Rename(path, keep); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
			mustAppend(t, l, writeRecord("s1", "a"))
			if n := len(spoolNames(t, l.Root)); n != 1 {
				t.Fatalf("%d spooled, want 1", n)
			}
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(keep, path); err != nil {
				t.Fatal(err)
			}
			return []string{"s0", "s1", "s9"}
		}},
		{"drained without new records", func(t *testing.T, l *Ledger) []string {
			unlock, err := state.Lock(context.Background(), l.Root, state.LockLedger, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			l.LockTimeout = 20 * time.Millisecond
			mustAppend(t, l, writeRecord("s1", "a"))
			unlock()
			mustAppend(t, l)
			if n := len(spoolNames(t, l.Root)); n != 0 {
				t.Fatalf("Append() left %d spooled", n)
			}
			return []string{"s1", "s9"}
		}},
		{"crash after append, before the spool file was removed", func(t *testing.T, l *Ledger) []string {
			r := writeRecord("s1", "a")
			mustAppend(t, l, r)
			spoolRaw(t, l, r)
			return []string{"s1", "s9"}
		}},
		{"unreadable spool file set aside", func(t *testing.T, l *Ledger) []string {
			if err := state.Ensure(l.Root, spoolDir); err != nil {
				t.Fatal(err)
			}
			bad := state.Path(l.Root, spoolDir, "1-bad.json")
			if err := os.WriteFile(bad, []byte("{not json"), 0o644); err != nil {
				t.Fatal(err)
			}
			spoolRaw(t, l, writeRecord("s1", "a"))
			t.Cleanup(func() {
				if _, err := os.Stat(bad + ".bad"); err != nil {
					t.Errorf("bad spool file not kept aside: %v", err)
				}
			})
			return []string{"s1", "s9"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLedger(t)
			want := tt.setup(t, l)
			l.LockTimeout = time.Second
			mustAppend(t, l, writeRecord("s9", "a"))
			var got []string
			for _, r := range checkChain(t, ledgerLines(t, l.Root)) {
				got = append(got, r.Metadata.Intenthook.SessionID)
			}
			if !slices.Equal(got, want) {
				t.Errorf("ledger holds %q, want %q", got, want)
			}
			for _, n := range spoolNames(t, l.Root) {
				if isSpoolFile(n) {
					t.Errorf("left in spool: %s", n)
				}
			}
			mustVerify(t, l.Root)
		})
	}
}

// spoolRaw puts a record in the spool as a writer that timed out would.
func spoolRaw(t *testing.T, l *Ledger, r *Record) {
	t.Helper()
	if err := l.spool([]*Record{r}, fmt.Errorf("test")); err != nil {
		t.Fatal(err)
	}
}

// A spool that cannot be written either is the one error Append returns.
func TestAppendErrorWhenSpoolFails(t *testing.T) {
	l := newLedger(t)
	mustAppend(t, l, writeRecord("s0", "a"))
	unlock, err := state.Lock(context.Background(), l.Root, state.LockLedger, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	// A file where the spool directory should be: even root cannot spool.
	if err := os.WriteFile(state.Path(l.Root, spoolDir), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	l.LockTimeout = 20 * time.Millisecond
	if err := l.Append(context.Background(), writeRecord("s1", "a")); err == nil {
		t.Fatal("Append returned nil with neither ledger nor spool writable")
	}
}

func TestHeadFileShape(t *testing.T) {
	l := newLedger(t)
	mustAppend(t, l, writeRecord("s", "a"))
	b, err := os.ReadFile(state.Path(l.Root, headName))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 3 || raw["seq"] != 1.0 {
		t.Errorf("head %s", b)
	}
	if !regexp.MustCompile(`^\{"seq":1,"hash":"sha256:[0-9a-f]{64}","seg":"\.orchestration/ledger/[0-9a-f]{16}/2026-11/000001\.jsonl"\} *\n$`).Match(b) || len(b) != headSize {
		t.Errorf("head %q", b)
	}
}

func TestCut(t *testing.T) {
	tests := []struct {
		s    string
		keep int
		want string
	}{
		{"abcdef", 3, "abc" + cutMark},
		{"aé", 2, "a" + cutMark}, // é is 2 bytes: not split
		{"a€b", 3, "a" + cutMark},
		{"a€b", 4, "a€" + cutMark},
		{"abc", -5, cutMark},
		{"abc", 10, "abc" + cutMark},
	}
	for _, tt := range tests {
		got := cut(tt.s, tt.keep)
		if got != tt.want || !utf8.ValidString(got) {
			t.Errorf("cut(%q, %d) = %q, want %q", tt.s, tt.keep, got, tt.want)
		}
	}
}
