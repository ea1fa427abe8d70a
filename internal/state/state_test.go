package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/backstop"
	"github.com/intenthook/intenthook/internal/fill"
	"github.com/intenthook/intenthook/internal/guard"
)

func TestKey(t *testing.T) {
	long := strings.Repeat("a", 129)
	tests := []struct {
		id   string
		safe bool
	}{
		{"abc123", true},
		{"6f2f2f1e-6c1e-4a6b-9d5c-2f0a5a1d3b77", true},
		{"a.b_c-d", true},
		{strings.Repeat("a", 128), true},
		{long, false},
		{".", false},
		{"..", false},
		{"../../x", false},
		{"a/b", false},
		{`a\b`, false},
		{"a\x00b", false},
		{"naïve", false},
		{"a b", false},
	}
	for _, tt := range tests {
		got := Key(tt.id)
		if tt.safe && got != tt.id {
			t.Errorf("Key(%q) = %q, want it unchanged", tt.id, got)
		}
		if !tt.safe && (!strings.HasPrefix(got, "h-") || len(got) != 66 || strings.ContainsAny(got, `/\.`)) {
			t.Errorf("Key(%q) = %q, want h-<sha256>", tt.id, got)
		}
	}
	if Key("") != "" || SessionKey("") != NoSession {
		t.Error("empty ids")
	}
	if Key("../../x") == Key("../../y") {
		t.Error("distinct ids share a key")
	}
}

func TestLockTimeout(t *testing.T) {
	root := t.TempDir()
	ctx := context.Background()
	unlock, err := Lock(ctx, root, LockLedger, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(ctx, root, LockLedger, 30*time.Millisecond); !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("second lock: %v, want ErrLockTimeout", err)
	}
	unlock()
	again, err := Lock(ctx, root, LockLedger, time.Second)
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	again()
	if _, err := os.Stat(filepath.Join(Path(root, "locks"), "ledger.lock")); err != nil {
		t.Errorf("lock file: %v", err)
	}
	if data, err := os.ReadFile(Path(root, ".gitignore")); err != nil || string(data) != "*\n" {
		t.Errorf("state/.gitignore = %q, %v", data, err)
	}
}

// The locks of one call wait their budget at most, together; a free lock is
// taken even when the budget is spent.
func TestLockBudget(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{LockLedger, LockMap} {
		unlock, err := Lock(context.Background(), root, name, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
	}
	ctx := WithLockBudget(context.Background(), 100*time.Millisecond)
	start := time.Now()
	if _, err := Lock(ctx, root, LockLedger, 5*time.Second); !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("held ledger lock: %v, want ErrLockTimeout", err)
	}
	_, err := Lock(ctx, root, LockMap, 5*time.Second)
	if !errors.Is(err, ErrLockTimeout) || !strings.Contains(err.Error(), "after 0s") {
		t.Fatalf("held map lock with the budget spent: %v, want ErrLockTimeout after 0s", err)
	}
	free, err := Lock(ctx, root, LockLessons, 5*time.Second)
	if err != nil {
		t.Fatalf("free lock with the budget spent: %v", err)
	}
	free()
	if waited := time.Since(start); waited >= 5*time.Second {
		t.Errorf("waited %s: the per-lock timeout, not the budget", waited)
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	for _, durable := range []bool{false, true} {
		if err := WriteFile(p, []byte(fmt.Sprint(durable)), 0o640, durable); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(p)
		st, _ := os.Stat(p)
		if string(data) != fmt.Sprint(durable) || st.Mode().Perm() != 0o640 {
			t.Errorf("durable=%v: %q %v", durable, data, st.Mode())
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestWriteFileThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "shared.json")
	link := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("shared.json", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new"), 0o644, true); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if data, _ := os.ReadFile(target); string(data) != "new" {
		t.Errorf("target = %q", data)
	}
}

func TestSessions(t *testing.T) {
	root := t.TempDir()
	ss := Sessions{Root: root, Timeout: time.Second}
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	if s, err := ss.Read("../../evil"); err != nil || s.Intent != "" {
		t.Fatalf("unknown session: %+v %v", s, err)
	}
	err := ss.Update(ctx, "../../evil", now, func(s *Session) error {
		s.Select("", "INT-001")
		s.Select("sub", "INT-002")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := ss.Read("../../evil")
	if err != nil {
		t.Fatal(err)
	}
	if s.ActiveIntent("") != "INT-001" || s.ActiveIntent("sub") != "INT-002" || s.ActiveIntent("other") != "INT-001" || !s.LastSeen.Equal(now) {
		t.Fatalf("session = %+v", s)
	}
	if err := ss.RecordSeen(ctx, "../../evil", "sub", map[string]string{"src/a.go": "sha256:1", "src/b.go": "sha256:2"}); err != nil {
		t.Fatal(err)
	}
	if err := ss.RecordSeen(ctx, "../../evil", "sub", map[string]string{"src/a.go": "sha256:3"}); err != nil {
		t.Fatal(err)
	}
	if h, _ := ss.SeenHash("../../evil", "sub", "src/a.go"); h != "sha256:3" {
		t.Errorf("SeenHash(a) = %q", h)
	}
	if h, _ := ss.SeenHash("../../evil", "sub", "src/b.go"); h != "sha256:2" {
		t.Errorf("SeenHash(b) = %q", h)
	}
	if _, ok := ss.SeenHash("../../evil", "", "src/a.go"); ok {
		t.Error("hashes are per agent")
	}
	if err := ss.compactSeen(ctx, "../../evil"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(ss.seenPath("../../evil")); strings.Count(string(data), "\n") != 2 {
		t.Errorf("compacted log:\n%s", data)
	}
	if h, _ := ss.SeenHash("../../evil", "sub", "src/a.go"); h != "sha256:3" {
		t.Errorf("after compaction: %q", h)
	}
	entries, _ := os.ReadDir(Path(root, "sessions"))
	if all, _ := ss.List(); len(all) != 1 || all[0].LastSeen.Before(now) {
		t.Errorf("List last seen: %+v", all)
	}
	if len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), "h-") {
		t.Errorf("session files: %v", entries)
	}
	all, err := ss.List()
	if err != nil || len(all) != 1 || all[0].ID != "../../evil" {
		t.Errorf("List = %v, %v", all, err)
	}
}

func TestPendingLog(t *testing.T) {
	root := t.TempDir()
	ss := Sessions{Root: root, Timeout: time.Second}
	ctx := context.Background()
	now := time.Now()
	for i := 0; i < 3; i++ {
		p := Pending{IntentID: "INT-001", PreHash: map[string]string{"a": fmt.Sprint(i)}, At: now}
		if err := ss.PutPending(ctx, "s1", fmt.Sprintf("toolu_%d", i), p); err != nil {
			t.Fatal(err)
		}
	}
	// The newest entry for an id wins; other sessions do not see it.
	if err := ss.PutPending(ctx, "s1", "toolu_1", Pending{IntentID: "INT-002", At: now}); err != nil {
		t.Fatal(err)
	}
	if p, ok := ss.GetPending("s1", "toolu_1"); !ok || p.IntentID != "INT-002" {
		t.Fatalf("GetPending = %+v %v", p, ok)
	}
	if p, ok := ss.GetPending("s1", "toolu_2"); !ok || p.PreHash["a"] != "2" {
		t.Fatalf("GetPending = %+v %v", p, ok)
	}
	if _, ok := ss.GetPending("s2", "toolu_2"); ok {
		t.Fatal("another session's entry")
	}
	if err := ss.DonePending(ctx, "s1", "toolu_2", now); err != nil {
		t.Fatal(err)
	}
	if _, ok := ss.GetPending("s1", "toolu_2"); ok {
		t.Fatal("a recorded call is still pending")
	}
	if got := ss.CountPending(now)["s1"]; got != 3 {
		t.Errorf("CountPending = %d, want 3 (toolu_0 and both toolu_1 lines)", got)
	}
	// Compaction drops done and expired entries and keeps the rest.
	old := Pending{At: now.Add(-2 * PendingTTL)}
	if err := ss.PutPending(ctx, "s1", "toolu_old", old); err != nil {
		t.Fatal(err)
	}
	if err := ss.compactPending(ctx, "s1", now); err != nil {
		t.Fatal(err)
	}
	if _, ok := ss.GetPending("s1", "toolu_old"); ok {
		t.Error("expired entry kept")
	}
	if _, ok := ss.GetPending("s1", "toolu_0"); !ok {
		t.Error("live entry lost")
	}
}

// TestLogAppendsSurviveCompaction: compaction replaces the log while
// appends go on; no entry may be lost.
func TestLogAppendsSurviveCompaction(t *testing.T) {
	root := t.TempDir()
	ss := Sessions{Root: root, Timeout: 5 * time.Second}
	ctx := context.Background()
	now := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 50; i++ {
			_ = ss.compactPending(ctx, "s", now)
		}
	}()
	const n = 300
	for i := 0; i < n; i++ {
		if err := ss.PutPending(ctx, "s", fmt.Sprint("t", i), Pending{At: now}); err != nil {
			t.Fatal(err)
		}
	}
	<-done
	for i := 0; i < n; i++ {
		if _, ok := ss.GetPending("s", fmt.Sprint("t", i)); !ok {
			t.Fatalf("entry t%d lost", i)
		}
	}
}

// TestPendingLineRoundTrip: a pending entry reads back as written. The
// full entry has every field set by reflection, the backstop's and the
// guard's pictures included: a field added to Pending (or to a picture)
// and forgotten by its encoder fails here.
func TestPendingLineRoundTrip(t *testing.T) {
	var full pendingLine
	if n := len(fill.Distinct(&full)); n < 30 {
		t.Fatalf("the walk reached %d fields of a pending line", n)
	}
	full.Done = false // a done marker carries no entry: below
	// Since is the caller's, from At (gate): the picture's codec leaves
	// it out.
	full.Backstop.Since = time.Time{}
	at := time.Date(2026, 11, 24, 12, 0, 0, 123456789, time.UTC)
	for name, l := range map[string]pendingLine{
		"every field":      full,
		"empty":            {ID: "t", Pending: Pending{}},
		"done":             {ID: "t", Done: true},
		"hostile id":       {ID: "a b\n\"{}\"+ -", Pending: Pending{At: at}},
		"zero-length maps": {ID: "t", Pending: Pending{PreHash: map[string]string{}, Backstop: &backstop.Picture{Tips: []string{}}}},
	} {
		raw := l.marshal()
		if bytes.Count(raw, []byte("\n")) != 1 || raw[len(raw)-1] != '\n' {
			t.Errorf("%s: %q is not one line", name, raw)
		}
		got, ok := parsePendingLine(bytes.TrimSuffix(raw, []byte("\n")))
		want := l
		if len(want.PreHash) == 0 {
			want.PreHash = nil // an empty map reads as none
		}
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: parse(%q) =\n %+v, %v; want\n %+v", name, raw, got, ok, want)
		}
	}
}

// Lines of another form (the JSON lines of an older intenthook) and damaged
// lines are skipped, never an entry.
func TestPendingLineRejects(t *testing.T) {
	good := bytes.TrimSuffix(pendingLine{ID: "t1", Pending: Pending{IntentID: "INT-1"}}.marshal(), []byte("\n"))
	for _, line := range []string{
		`{"id":"t1","intent_id":"INT-1","at":"2026-11-24T12:00:00Z"}`,
		"",
		"p2 ",
		"p2 dDE",
		"p2 dDE x",
		"p2 dDE + !!!",
		"p2 !! -",
		"p2  -",
		"p3 dDE -",
		string(good[:len(good)-3]),
		string(good) + "AAAA",
	} {
		if l, ok := parsePendingLine([]byte(line)); ok {
			t.Errorf("parse(%q) = %+v, accepted", line, l)
		}
	}
}

// TestSeenLineRoundTrip: a seen line, every field set by reflection,
// reads back as written.
func TestSeenLineRoundTrip(t *testing.T) {
	var l seenLine
	if n := len(fill.Distinct(&l)); n != 3 {
		t.Fatalf("the walk reached %d fields of a seen line", n)
	}
	raw := l.marshal()
	got, ok := parseSeen(bytes.TrimSuffix(raw, []byte("\n")))
	if !ok || got != l {
		t.Errorf("parseSeen(%q) = %+v, %v; want %+v", raw, got, ok, l)
	}
}

// TestSessionRoundTrip: a session file, written by encoding/json, reads
// back through decodeSession (hand-written, field by field) as written,
// every field set by reflection: a field added to Session and forgotten by
// decodeSession fails here.
func TestSessionRoundTrip(t *testing.T) {
	var s Session
	if n := len(fill.Distinct(&s)); n < 20 {
		t.Fatalf("the walk reached %d fields of a session", n)
	}
	data, err := json.Marshal(&s)
	if err != nil {
		t.Fatal(err)
	}
	var got Session
	if err := decodeSession(data, &got); err != nil || !reflect.DeepEqual(got, s) {
		t.Errorf("decodeSession(%s) =\n %+v, %v; want\n %+v", data, got, err, s)
	}
}

// TestSessionDecodesAsJSON: files written by hand or by an older version
// read through decodeSession as encoding/json reads them into a Session:
// escapes, keys in another case, numbers and list elements of the wrong
// type, members repeated.
func TestSessionDecodesAsJSON(t *testing.T) {
	for _, data := range []string{
		`{"session_id":"s\u00e9\n","intent":"INT-\u0031","last_seen":"2026-12-01T10:00:00.5Z","model":"m"}`,
		`{"intent":"INT-1","intent":"INT-2","agents":{"a":"x\"y","b":"z"},"usage":{}}`,
		`{"spent":{"Calls":3,"TOKENS":40,"usd_micros":7}}`,
		`{"spent":{"calls":1.5,"tokens":"9","usd_micros":null}}`,
		`{"spent":{"calls":5,"calls":"x"}}`,
		`{"budget_noted":["INT-1",null,2,"INT-\u0032"],"mcp_tools":[],"ended_during":null}`,
		`{"ended_at":"2026-12-01T10:00:00Z","ended_during":["k1"],"reverts":{"a.go":"sha256:00"}}`,
		` { "session_id" : "s" , "transcript_path" : "/t/\ud83d\ude00.jsonl" } `,
	} {
		var want, got Session
		_ = json.Unmarshal([]byte(data), &want)
		if err := decodeSession([]byte(data), &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("decodeSession(%s) =\n %+v, %v; json.Unmarshal\n %+v", data, got, err, want)
		}
	}
	if err := decodeSession([]byte(`{"session_id":"s"`), new(Session)); err == nil {
		t.Error("decodeSession of a torn file: no error")
	}
}

// TestSessionEncodesAsJSON: encodeSession writes what encoding/json writes
// (HTML left unescaped), for a session with every field set, an empty one,
// and one with only some.
func TestSessionEncodesAsJSON(t *testing.T) {
	var full Session
	fill.Distinct(&full)
	at := time.Date(2026, 12, 3, 10, 0, 0, 5, time.UTC)
	for _, s := range []Session{
		full, {}, {ID: "s<&>\u2028", LastSeen: at, Intent: "INT-1", Agents: map[string]string{"b": "x", "a": "y\n"}},
		{ID: "s", EndedAt: at, EndedDuring: []string{"k"}, Spent: Spent{Calls: 1}, Usage: map[string]string{}},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(&s); err != nil {
			t.Fatal(err)
		}
		got, err := encodeSession(&s)
		if err != nil || string(got)+"\n" != want.String() {
			t.Errorf("encodeSession(%+v) =\n %s, %v; json\n %s", s, got, err, want.Bytes())
		}
	}
	far := Session{ID: "s", LastSeen: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	if _, err := encodeSession(&far); err == nil {
		t.Error("encodeSession of a year json cannot write: no error")
	}
}

func TestSeenLog(t *testing.T) {
	root := t.TempDir()
	ss := Sessions{Root: root, Timeout: time.Second}
	ctx := context.Background()
	odd := "dir with space/new\nline \"q\".go"
	if err := ss.RecordSeen(ctx, "s1", "", map[string]string{"a.go": "sha256:1", odd: "sha256:2", "gone.go": ""}); err != nil {
		t.Fatal(err)
	}
	if err := ss.RecordSeen(ctx, "s1", "sub", map[string]string{"a.go": "sha256:3"}); err != nil {
		t.Fatal(err)
	}
	if err := ss.RecordSeen(ctx, "s1", "", map[string]string{"a.go": "sha256:4"}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		agent, rel, want string
		ok               bool
	}{
		{"", "a.go", "sha256:4", true}, // the newest line wins
		{"sub", "a.go", "sha256:3", true},
		{"", odd, "sha256:2", true},
		{"", "gone.go", "", true},
		{"", "b.go", "", false},
		{"other", "a.go", "", false},
		{"", "", "", false},
	} {
		if got, ok := ss.SeenHash("s1", tt.agent, tt.rel); got != tt.want || ok != tt.ok {
			t.Errorf("SeenHash(%q, %q) = %q, %v; want %q, %v", tt.agent, tt.rel, got, ok, tt.want, tt.ok)
		}
	}
	if err := ss.compactSeen(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(ss.seenPath("s1"))
	if n := bytes.Count(data, []byte("\n")); n != 4 {
		t.Errorf("compacted log has %d lines, want 4 (one per agent and path):\n%s", n, data)
	}
	if got, _ := ss.SeenHash("s1", "", "a.go"); got != "sha256:4" {
		t.Errorf("after compaction SeenHash = %q", got)
	}
	for _, line := range []string{`{"p":"a.go","h":"x"}`, "s2 YS5nbw", "s2 YS5nbw  x y", "s2  YQ YQ", "s2 !! YQ YQ"} {
		if l, ok := parseSeen([]byte(line)); ok {
			t.Errorf("parseSeen(%q) = %+v, accepted", line, l)
		}
	}
}

// newestLine reads the log's last bytes first and the rest only when it
// must: an entry far from the end, and the ones cut by each read's first
// byte, are found; the newest of several lines with the prefix wins.
func TestNewestLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	var data []byte
	for i := range 2000 {
		data = fmt.Appendf(data, "k%04d v%d\n", i%1000, i)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// cutAt is the line a read of the log's last n bytes cuts.
	cutAt := func(n int) (key, line string) {
		at := len(data) - n
		start := bytes.LastIndexByte(data[:at], '\n') + 1
		if start == at {
			t.Fatalf("the last %d bytes start at a line; the test wants one cut", n)
		}
		line = string(data[start : start+bytes.IndexByte(data[start:], '\n')])
		key, _, _ = strings.Cut(line, " ")
		return key, line
	}
	firstKey, firstCut := cutAt(firstRead)
	tailKey, tailCut := cutAt(tailRead)
	for _, tt := range []struct{ prefix, want string }{
		{"k0999 ", "k0999 v1999"},  // the newest line
		{"k0000 ", "k0000 v1000"},  // newest of two, far from the end
		{firstKey + " ", firstCut}, // the line the first read cuts
		{tailKey + " ", tailCut},   // the line the tail cuts
		{"nothing ", ""},
	} {
		got, ok := newestLine(path, []byte(tt.prefix))
		if string(got) != tt.want || ok != (tt.want != "") {
			t.Errorf("newestLine(%q) = %q, %v; want %q", tt.prefix, got, ok, tt.want)
		}
	}
	if _, ok := newestLine(filepath.Join(t.TempDir(), "absent"), []byte("k")); ok {
		t.Error("an absent log has a line")
	}
}

// FuzzLogLines: no line of a damaged or forged log crashes a hook, and
// every entry read back encodes to the same line.
func FuzzLogLines(f *testing.F) {
	f.Add(string(pendingLine{ID: "t", Pending: Pending{IntentID: "I", PreHash: map[string]string{"a": "h"}, Guard: &guard.Snapshot{Files: map[string]guard.File{"x": {}}}}}.marshal()))
	f.Add(string(seenLine{Path: "a", Agent: "b", Hash: "c"}.marshal()))
	f.Add("p2 dA + AAAA")
	f.Fuzz(func(t *testing.T, line string) {
		if l, ok := parsePendingLine([]byte(line)); ok && !l.Done {
			again, ok := parsePendingLine(bytes.TrimSuffix(l.marshal(), []byte("\n")))
			if !ok || again.ID != l.ID || again.IntentID != l.IntentID {
				t.Errorf("%q read back as %+v, %v", line, again, ok)
			}
		}
		parseSeen([]byte(line))
	})
}

// TestPendingBesideHeldLock: a session lock someone else holds does not
// lose what pre leaves for post: it is stored in a file of its own, read
// once, and seen by InFlight meanwhile.
func TestPendingBesideHeldLock(t *testing.T) {
	root := t.TempDir()
	ss := Sessions{Root: root, Timeout: 50 * time.Millisecond}
	unlock, err := Lock(context.Background(), root, LockSession+"-"+SessionKey("s1"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	p := Pending{IntentID: "INT-001", PreHash: map[string]string{"src/a.go": "h"}, Backstop: &backstop.Picture{Head: "c"}, At: time.Now().UTC()}
	if err := ss.PutPending(context.Background(), "s1", "t1", p); err != nil {
		t.Fatalf("PutPending with the lock held: %v", err)
	}
	if _, ok := ss.InFlight("")["src/a.go"]; !ok {
		t.Error("InFlight does not see the entry stored beside the log")
	}
	got, ok := ss.GetPending("s1", "t1")
	if !ok || got.IntentID != "INT-001" || got.Backstop == nil || got.Backstop.Head != "c" || got.PreHash["src/a.go"] != "h" {
		t.Fatalf("GetPending = %+v, %v", got, ok)
	}
	if _, ok := ss.GetPending("s1", "t1"); ok {
		t.Error("the entry beside the log is read twice")
	}
	if _, ok := ss.GetPending("s1", "t2"); ok {
		t.Error("another call's id finds an entry")
	}
}
