package console

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/bench"
	"github.com/intenthook/intenthook/internal/budget"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
)

// clock is the console's test clock: the time moves only when a test says.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fixture is a console on a real listener on 127.0.0.1 over a fresh
// workspace, with one pending ask filed as a waiting hook files it, and an
// answer function that answers it as intenthook ask does: the answer file,
// journaled, and the ask_answer record naming the person.
type fixture struct {
	t     *testing.T
	root  string
	clock *clock
	srv   *Server
	ts    *httptest.Server
	ask   asks.Ask
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureAt(t, t.TempDir())
}

// newFixtureAt is newFixture over the workspace at root.
func newFixtureAt(t *testing.T, root string) *fixture {
	t.Helper()
	f := &fixture{t: t, root: root, clock: &clock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}}
	store := asks.For(f.root)
	var err error
	f.ask, err = store.Open(asks.Ask{Session: "s1", Intent: "INT-001", Tool: "Bash", ToolUseID: "t1", Target: "rm -rf build </pre><script>alert(1)</script>",
		Why: "intenthook: destructive command: rm -rf build", Created: f.clock.now(), Deadline: f.clock.now().Add(2 * time.Minute)}, "s1/t1")
	if err != nil {
		t.Fatal(err)
	}
	answer := func(ctx context.Context, id, verdict, reason string) (asks.Ask, asks.Answer, error) {
		ans := asks.Answer{Verdict: verdict, Reason: reason, By: "P <p@example.com>", User: "p", Via: "console", At: f.clock.now()}
		asked, err := store.Answer(id, ans, ans.At)
		if err != nil {
			return asked, ans, err
		}
		b, _ := json.Marshal(asks.RecordOf(asked, ans))
		rec := ledger.NewRecord("", ledger.Meta{Event: ledger.EventAskAnswer, SessionID: asked.Session, ToolName: asked.Tool, ToolUseID: asked.ToolUseID,
			Decision: verdict, Reason: reason, Success: true, Answer: b})
		return asked, ans, (&ledger.Ledger{Root: f.root}).Append(ctx, rec)
	}
	f.ts = httptest.NewUnstartedServer(nil)
	f.srv, err = New(Config{Repos: []Repo{{Name: "ws", Root: f.root, Answer: answer}}, Addr: f.ts.Listener.Addr().String(), Now: f.clock.now, Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	f.ts.Config.Handler = f.srv
	f.ts.Start()
	t.Cleanup(f.ts.Close)
	return f
}

// client is a cookie-keeping client that does not follow redirects.
func (f *fixture) client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// login opens the login URL with c and returns the response's status.
func (f *fixture) login(c *http.Client) int {
	f.t.Helper()
	resp, err := c.Get(f.srv.LoginURL())
	if err != nil {
		f.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func (f *fixture) csrf(c *http.Client) string {
	u, _ := url.Parse(f.ts.URL)
	for _, k := range c.Jar.Cookies(u) {
		if k.Name == CSRFCookie {
			return k.Value
		}
	}
	return ""
}

func (f *fixture) do(c *http.Client, method, path, body string, header map[string]string) (*http.Response, string) {
	f.t.Helper()
	req, err := http.NewRequest(method, f.ts.URL+path, strings.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			// The client's jar keys cookies by the Host: send the
			// session's as a browser would to the name it asked for.
			req.Host = v
			u, _ := url.Parse(f.ts.URL)
			for _, k := range c.Jar.Cookies(u) {
				req.AddCookie(k)
			}
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestLogin(t *testing.T) {
	f := newFixture(t)
	if !strings.HasPrefix(f.srv.LoginURL(), "http://127.0.0.1:") {
		t.Fatalf("login URL %s", f.srv.LoginURL())
	}
	c := f.client()
	resp, err := c.Get(f.srv.LoginURL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("login: %d to %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
	cookies := map[string]*http.Cookie{}
	for _, k := range resp.Cookies() {
		cookies[k.Name] = k
	}
	s, x := cookies[SessionCookie], cookies[CSRFCookie]
	if s == nil || !s.HttpOnly || s.SameSite != http.SameSiteStrictMode || s.Secure || len(s.Value) != 64 {
		t.Errorf("session cookie %+v: want HttpOnly, SameSite=Strict, not Secure without TLS, 32 random bytes", s)
	}
	if x == nil || x.HttpOnly || x.SameSite != http.SameSiteStrictMode || x.Value == s.Value {
		t.Errorf("csrf cookie %+v: want one scripts read, SameSite=Strict, not the session's", x)
	}
	if resp, body := f.do(c, "GET", "/", "", nil); resp.StatusCode != 200 || !strings.Contains(body, "intenthook console") {
		t.Errorf("the page after login: %d", resp.StatusCode)
	}
	// Once only: a second browser, or the same URL again, is refused.
	if code := f.login(f.client()); code != http.StatusForbidden {
		t.Errorf("the login URL a second time: %d, want 403", code)
	}
}

func TestLoginExpires(t *testing.T) {
	f := newFixture(t)
	f.clock.add(LoginTTL + time.Second)
	c := f.client()
	if code := f.login(c); code != http.StatusForbidden {
		t.Fatalf("login after five minutes: %d, want 403", code)
	}
	if resp, _ := f.do(c, "GET", "/api/pending", "", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no session after an expired login: %d", resp.StatusCode)
	}
}

func TestRefusals(t *testing.T) {
	f := newFixture(t)
	anon := f.client()
	c := f.client()
	if code := f.login(c); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	csrf := f.csrf(c)
	allow := `{"decision":"allow"}`
	host := strings.TrimPrefix(f.ts.URL, "http://")
	tests := []struct {
		name   string
		c      *http.Client
		method string
		path   string
		header map[string]string
		want   int
	}{
		{"no session: the API is 401", anon, "GET", "/api/pending", nil, 401},
		{"no session: 401 before the host is looked at", anon, "GET", "/api/events", map[string]string{"Host": "evil.example:80"}, 401},
		{"no session: a POST is 401, not 403", anon, "POST", "/api/pending/" + f.ask.ID, map[string]string{CSRFHeader: csrf}, 401},
		{"no session: the page is 401", anon, "GET", "/", nil, 401},
		{"a forged session cookie", anon, "GET", "/api/pending", map[string]string{"Cookie": SessionCookie + "=" + strings.Repeat("0", 64)}, 401},
		{"POST without the CSRF header", c, "POST", "/api/pending/" + f.ask.ID, nil, 403},
		{"POST with a wrong CSRF header", c, "POST", "/api/pending/" + f.ask.ID, map[string]string{CSRFHeader: strings.Repeat("a", 64)}, 403},
		{"a foreign Host (DNS rebinding)", c, "GET", "/api/pending", map[string]string{"Host": "evil.example:" + strings.Split(host, ":")[1]}, 421},
		{"a foreign Host on the page", c, "GET", "/", map[string]string{"Host": "evil.example"}, 421},
		{"a foreign Origin", c, "POST", "/api/pending/" + f.ask.ID, map[string]string{CSRFHeader: csrf, "Origin": "http://evil.example"}, 403},
		{"a foreign Origin on a GET", c, "GET", "/api/pending", map[string]string{"Origin": "https://" + host}, 403},
		{"localhost is the same console", c, "GET", "/api/pending", map[string]string{"Host": "localhost:" + strings.Split(host, ":")[1]}, 200},
		{"its own Origin", c, "GET", "/api/pending", map[string]string{"Origin": "http://" + host}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := f.do(tt.c, tt.method, tt.path, allow, tt.header)
			if resp.StatusCode != tt.want {
				t.Errorf("%s %s: %d %s, want %d", tt.method, tt.path, resp.StatusCode, body, tt.want)
			}
		})
	}
	// Nothing was answered by the refused requests.
	if _, err := asks.For(f.root).Get(f.ask.ID, f.clock.now()); err != nil {
		t.Errorf("the ask after the refusals: %v", err)
	}
}

func TestAnswer(t *testing.T) {
	for _, tt := range []struct {
		verdict, reason string
	}{{asks.Allow, ""}, {asks.Deny, "not before the release"}} {
		t.Run(tt.verdict, func(t *testing.T) {
			f := newFixture(t)
			c := f.client()
			f.login(c)
			resp, body := f.do(c, "GET", "/api/pending", "", nil)
			var list []Pending
			if err := json.Unmarshal([]byte(body), &list); err != nil || resp.StatusCode != 200 || len(list) != 1 {
				t.Fatalf("pending: %d %s", resp.StatusCode, body)
			}
			p := list[0]
			if p.ID != f.ask.ID || p.AgentText.WrittenBy != "agent" || p.AgentText.Target != f.ask.Target || p.Why != f.ask.Why {
				t.Errorf("pending ask %+v: want the ask, the agent's text apart and labelled", p)
			}
			f.clock.add(3 * time.Second)
			b, _ := json.Marshal(map[string]string{"decision": tt.verdict, "reason": tt.reason})
			resp, body = f.do(c, "POST", "/api/pending/"+p.ID, string(b), map[string]string{CSRFHeader: f.csrf(c), "Content-Type": "application/json"})
			var got Answered
			if err := json.Unmarshal([]byte(body), &got); err != nil || resp.StatusCode != 200 {
				t.Fatalf("answer: %d %s", resp.StatusCode, body)
			}
			if got.Decision != tt.verdict || got.By != "P <p@example.com>" || got.WaitedMS != 3000 {
				t.Errorf("answered %+v", got)
			}
			// The waiting hook finds the answer (a journaled one).
			ans, ok := asks.For(f.root).Wait(context.Background(), f.ask, time.Millisecond, f.clock.now, func(time.Duration) {})
			if !ok || ans.Verdict != tt.verdict || ans.Reason != tt.reason {
				t.Errorf("the hook reads %+v %v", ans, ok)
			}
			recs, _ := ledger.ReadTail(f.root, 1<<20)
			if len(recs) != 1 || recs[0].Metadata.Intenthook.Event != ledger.EventAskAnswer || !strings.Contains(string(recs[0].Metadata.Intenthook.Answer), `"via":"console"`) {
				t.Errorf("ledger: %+v", recs)
			}
			// Answered once: again is a conflict; an unknown id is 404.
			if resp, _ := f.do(c, "POST", "/api/pending/"+p.ID, string(b), map[string]string{CSRFHeader: f.csrf(c)}); resp.StatusCode != http.StatusConflict {
				t.Errorf("answered twice: %d", resp.StatusCode)
			}
			if resp, _ := f.do(c, "POST", "/api/pending/0123abcd", string(b), map[string]string{CSRFHeader: f.csrf(c)}); resp.StatusCode != http.StatusNotFound {
				t.Errorf("no such ask: %d", resp.StatusCode)
			}
		})
	}
}

func TestAnswerBadBody(t *testing.T) {
	f := newFixture(t)
	c := f.client()
	f.login(c)
	for _, body := range []string{`{"decision":"maybe"}`, `{"decision":"deny"}`, `{"decision":"deny","reason":"  "}`, `not json`, `{"decision":"allow","by":"someone else"}`} {
		if resp, got := f.do(c, "POST", "/api/pending/"+f.ask.ID, body, map[string]string{CSRFHeader: f.csrf(c)}); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", body, resp.StatusCode, got)
		}
	}
}

// TestEvents: the feed sends the pending asks at once, then a record the
// hooks append after it connected, and the pending asks again once one is
// answered; never a record from before it connected.
func TestEvents(t *testing.T) {
	f := newFixture(t)
	l := &ledger.Ledger{Root: f.root}
	old := ledger.NewRecord("", ledger.Meta{Event: ledger.EventPreToolUse, SessionID: "before", ToolName: "Write", Decision: "deny"})
	if err := l.Append(context.Background(), old); err != nil {
		t.Fatal(err)
	}
	c := f.client()
	f.login(c)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	next := f.stream(ctx, c)
	if e := next(); e[0] != "pending" || !strings.Contains(e[1], `"id":"`+f.ask.ID+`"`) || !strings.Contains(e[1], `"written_by":"agent"`) {
		t.Fatalf("first event %v: want the pending asks", e)
	}
	if e := next(); e[0] != "decision" || !strings.Contains(e[1], `"session":"before"`) {
		t.Fatalf("second event %v: want the decision made before the page connected", e)
	}
	rec := ledger.NewRecord("", ledger.Meta{Event: ledger.EventPreToolUse, SessionID: "s2", ToolName: "Bash", Decision: "deny", Code: "protected_path", Command: "rm x", Reason: "intenthook: x is protected"})
	if err := l.Append(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	e := next()
	var d Decision
	if e[0] != "decision" || json.Unmarshal([]byte(e[1]), &d) != nil || d.Session != "s2" || d.Code != "protected_path" || d.AgentText.Target != "rm x" || d.WhyBy != "intenthook" {
		t.Fatalf("event %v: want the record appended after connecting", e)
	}
	b := `{"decision":"deny","reason":"no"}`
	if resp, body := f.do(c, "POST", "/api/pending/"+f.ask.ID, b, map[string]string{CSRFHeader: f.csrf(c)}); resp.StatusCode != 200 {
		t.Fatalf("answer: %d %s", resp.StatusCode, body)
	}
	// The answer's record and the emptied list, in either order.
	seen := map[string]string{}
	for len(seen) < 2 {
		e := next()
		seen[e[0]] = e[1]
	}
	if seen["pending"] != "[]" || !strings.Contains(seen["decision"], `"event":"ask_answer"`) || !strings.Contains(seen["decision"], `"why_by":"person"`) {
		t.Errorf("after the answer: %v", seen)
	}
}

// stream opens GET /api/events with c and returns a function giving its
// events, name and data, one by one (failing the test when ctx ends first).
func (f *fixture) stream(ctx context.Context, c *http.Client) func() [2]string {
	f.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.ts.URL+"/api/events", nil)
	resp, err := c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { resp.Body.Close() })
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		f.t.Fatalf("GET /api/events: %d, content type %q", resp.StatusCode, ct)
	}
	events := make(chan [2]string, 16)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		var name string
		for sc.Scan() {
			line := sc.Text()
			if n, ok := strings.CutPrefix(line, "event: "); ok {
				name = n
			} else if d, ok := strings.CutPrefix(line, "data: "); ok {
				select {
				case events <- [2]string{name, d}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return func() [2]string {
		f.t.Helper()
		select {
		case e, ok := <-events:
			if !ok {
				f.t.Fatal("the feed ended")
			}
			return e
		case <-ctx.Done():
			f.t.Fatal("no event in time")
		}
		return [2]string{}
	}
}

// readChars is how many bytes this process has read so far, by any read
// call (Linux's /proc/self/io rchar): files and sockets alike.
func readChars(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skipf("no /proc/self/io here (%v): the bytes the console reads cannot be counted", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no rchar in /proc/self/io")
	return 0
}

// TestEventsRecentOnBigLedger: on a ledger of many segments (about 90 MB)
// the feed's first decisions are the newest RecentDecisions records, oldest
// first, then what is appended; and opening it reads a few megabytes at
// most, all reads of this process counted (the server's and the client's):
// the tail of the newest segments, not the ledger.
func TestEventsRecentOnBigLedger(t *testing.T) {
	f := newFixture(t)
	const records = 100_000
	if err := bench.Workspace(f.root, 1, records); err != nil {
		t.Fatal(err)
	}
	var size int64
	filepath.WalkDir(filepath.Join(f.root, ".orchestration", "ledger"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				size += fi.Size()
			}
		}
		return nil
	})
	const bound = 4 << 20
	if size < 10*bound {
		t.Fatalf("the ledger is %d bytes: too small to tell a bounded read from a whole one", size)
	}
	c := f.client()
	f.login(c)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	before := readChars(t)
	next := f.stream(ctx, c)
	if e := next(); e[0] != "pending" {
		t.Fatalf("first event %v: want the pending asks", e)
	}
	for i := records - RecentDecisions + 1; i <= records; i++ {
		e := next()
		var d Decision
		if e[0] != "decision" || json.Unmarshal([]byte(e[1]), &d) != nil || d.ToolUseID != fmt.Sprintf("toolu_%d", i) {
			t.Fatalf("decision %d: got %v, want the record of toolu_%d (the newest %d, oldest first)", i, e, i, RecentDecisions)
		}
	}
	read := readChars(t) - before
	t.Logf("opening the feed read %d bytes of a %d-byte ledger", read, size)
	if read > bound {
		t.Errorf("opening the feed read %d bytes of a %d-byte ledger: want at most %d", read, size, bound)
	}
	rec := ledger.NewRecord("", ledger.Meta{Event: ledger.EventPreToolUse, SessionID: "live", ToolName: "Write", Decision: "deny"})
	if err := (&ledger.Ledger{Root: f.root}).Append(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	if e := next(); e[0] != "decision" || !strings.Contains(e[1], `"session":"live"`) {
		t.Fatalf("after the recent ones: %v, want the record appended", e)
	}
}

// TestDecisionsOnce: a record appended after the feed starts following
// and before it reads the ledger's tail is in both, and given once; the
// recent ones come first, in order, then what is appended, then nothing.
func TestDecisionsOnce(t *testing.T) {
	root := t.TempDir()
	l := &ledger.Ledger{Root: root}
	appendRec := func(session string) {
		t.Helper()
		if err := l.Append(context.Background(), ledger.NewRecord("", ledger.Meta{Event: ledger.EventPreToolUse, SessionID: session, ToolName: "Write", Decision: "deny"})); err != nil {
			t.Fatal(err)
		}
	}
	sessions := func(recs []ledger.Record) []string {
		var out []string
		for _, r := range recs {
			out = append(out, r.Metadata.Intenthook.SessionID)
		}
		return out
	}
	s := site{&Server{}, Repo{Root: root}}
	appendRec("before")
	d := &decisionFeed{follow: ledger.Follow(root)}
	appendRec("between") // after the follower's start, before the tail's read
	d.recent = s.recent()
	appendRec("after")
	if got := sessions(d.next()); !slices.Equal(got, []string{"before", "between", "after"}) {
		t.Errorf("first: %q, want before, between and after once each", got)
	}
	if got := d.next(); len(got) != 0 {
		t.Errorf("then: %q, want nothing", sessions(got))
	}
	appendRec("later")
	if got := sessions(d.next()); !slices.Equal(got, []string{"later"}) {
		t.Errorf("after another: %q, want later", got)
	}
}

// TestIntents: the board lists the catalog's intents in its order, each
// with its status and scope, and from the recent records how many name it,
// the files its successful writes changed (once each, as the agent named
// them, labelled as the agent's), and when it was last worked on.
func TestIntents(t *testing.T) {
	f := newFixture(t)
	c := f.client()
	f.login(c)
	if resp, body := f.do(c, "GET", "/api/intents", "", nil); resp.StatusCode != 200 || strings.TrimSpace(body) != `{"intents":[],"window":{"records":0}}` {
		t.Fatalf("no catalog: %d %s", resp.StatusCode, body)
	}
	catalog := `active_intents:
  - id: "INT-001"
    name: "Payments"
    status: "IN_PROGRESS"
    owned_scope: ["src/**"]
    constraints: []
    acceptance_criteria: []
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
  - id: "INT-002"
    name: "Docs"
    status: "PENDING"
    owned_scope: ["docs/**"]
    constraints: []
    acceptance_criteria: []
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
`
	if err := os.WriteFile(filepath.Join(f.root, ".orchestration", "active_intents.yaml"), []byte(catalog), 0o644); err != nil {
		t.Fatal(err)
	}
	l := &ledger.Ledger{Root: f.root}
	write := func(intent, event string, success bool, paths ...string) {
		t.Helper()
		rec := ledger.NewRecord("", ledger.Meta{Event: event, IntentID: ledger.NullString(intent), SessionID: "s1", ToolName: "Write"})
		rec.Metadata.Intenthook.Success = success
		for _, p := range paths {
			rec.Files = append(rec.Files, ledger.File{Path: p})
		}
		if err := l.Append(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
	}
	write("INT-001", ledger.EventPostToolUse, true, "src/a.go", "src/</td><script>.go")
	write("INT-001", ledger.EventPostToolUse, true, "src/a.go")
	write("INT-001", ledger.EventPostToolUseFailure, false, "src/failed.go")
	write("INT-001", ledger.EventPreToolUse, true, "README.md")
	write("", ledger.EventSelect, true)
	resp, body := f.do(c, "GET", "/api/intents", "", nil)
	var b Board
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &b) != nil {
		t.Fatalf("GET /api/intents: %d %s", resp.StatusCode, body)
	}
	if b.Window.Records != 5 || b.Window.Since == "" || len(b.Intents) != 2 {
		t.Fatalf("board %s: want 2 intents over 5 records", body)
	}
	one, two := b.Intents[0], b.Intents[1]
	if one.ID != "INT-001" || one.Name != "Payments" || one.Status != "IN_PROGRESS" || !slices.Equal(one.OwnedScope, []string{"src/**"}) ||
		one.Records != 4 || one.FilesChanged != 2 || one.Last == "" || one.AgentText.WrittenBy != "agent" ||
		!slices.Equal(one.AgentText.Files, []string{"src/a.go", "src/</td><script>.go"}) {
		t.Errorf("INT-001 on the board: %+v", one)
	}
	if two.ID != "INT-002" || two.Status != "PENDING" || two.Records != 0 || two.FilesChanged != 0 || two.Last != "" || len(two.AgentText.Files) != 0 {
		t.Errorf("INT-002 on the board: %+v", two)
	}
	if strings.Contains(body, "<script>") {
		t.Errorf("the board's JSON carries markup unescaped: %s", body)
	}
	if resp, _ := f.do(f.client(), "GET", "/api/intents", "", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the board without a session: %d, want 401", resp.StatusCode)
	}
}

// TestIntentsSpend: the board gives each intent with counters or a budget
// what its counters hold (the hooks' figures) and, for each kind its
// budget limits, what was spent, the limit with raises and what is left;
// a budget reached says so. An intent with neither has no spend. Over the
// board's window, each intent's records' usage in all and per model,
// session and agent.
func TestIntentsSpend(t *testing.T) {
	f := newFixture(t)
	c := f.client()
	f.login(c)
	catalog := `active_intents:
  - id: "INT-001"
    name: "Payments"
    status: "IN_PROGRESS"
    owned_scope: ["src/**"]
    constraints: []
    acceptance_criteria: []
    budget: {calls: 3, usd: 1.50}
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
  - id: "INT-002"
    name: "Docs"
    status: "IN_PROGRESS"
    owned_scope: ["docs/**"]
    constraints: []
    acceptance_criteria: []
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
  - id: "INT-003"
    name: "Idle"
    status: "PENDING"
    owned_scope: ["lib/**"]
    constraints: []
    acceptance_criteria: []
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
`
	if err := os.WriteFile(filepath.Join(f.root, ".orchestration", "active_intents.yaml"), []byte(catalog), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, now := context.Background(), time.Unix(1_800_000_000, 0)
	for _, add := range []struct {
		intent string
		d      budget.Spent
	}{
		{"INT-001", budget.Spent{Calls: 1, Tokens: 1200, MicroUSD: 400_000}},
		{"INT-001", budget.Spent{Calls: 1, Tokens: 800, MicroUSD: 1_100_000}},
		{"INT-001", budget.Spent{Raised: intents.Budget{Calls: 2}}},
		{"INT-002", budget.Spent{Calls: 4, Tokens: 10}},
	} {
		if _, err := budget.Add(ctx, f.root, add.intent, add.d, now, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	// The records' usage: two sessions, a subagent, two models.
	l := &ledger.Ledger{Root: f.root}
	for _, m := range []ledger.Meta{
		{SessionID: "s1", Usage: &ledger.Usage{Model: "claude-x", Calls: 1, InputTokens: 10, OutputTokens: 5, USD: 300}},
		{SessionID: "s1", AgentID: "ag1", Usage: &ledger.Usage{Model: "claude-y", Calls: 1, OutputTokens: 20, USD: 1000}},
		{SessionID: "s2", Usage: &ledger.Usage{Model: "claude-x", Calls: 1}},
		{SessionID: "s2"},
	} {
		m.Event, m.IntentID, m.ToolName, m.Decision, m.Success = ledger.EventPostToolUse, "INT-001", "Write", "allow", true
		if err := l.Append(ctx, ledger.NewRecord("", m)); err != nil {
			t.Fatal(err)
		}
	}
	resp, body := f.do(c, "GET", "/api/intents", "", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("GET /api/intents: %d %s", resp.StatusCode, body)
	}
	var b struct {
		Intents []struct {
			ID          string          `json:"id"`
			Spend       json.RawMessage `json:"spend"`
			WindowSpend json.RawMessage `json:"window_spend"`
		} `json:"intents"`
	}
	if err := json.Unmarshal([]byte(body), &b); err != nil || len(b.Intents) != 3 {
		t.Fatalf("board %s: %v", body, err)
	}
	want := map[string]string{
		"INT-001": `{"calls":2,"tokens":2000,"usd":1.5,"budget":[{"kind":"calls","spent":2,"limit":5,"left":3},{"kind":"usd","spent":1.5,"limit":1.5,"left":0}],"exceeded":true}`,
		"INT-002": `{"calls":4,"tokens":10,"usd":0}`,
		"INT-003": ``,
	}
	wantWindow := map[string]string{
		"INT-001": `{"calls":3,"tokens":35,"usd":0.0013,` +
			`"models":[{"model":"claude-x","calls":2,"tokens":15,"usd":0.0003},{"model":"claude-y","calls":1,"tokens":20,"usd":0.001}],` +
			`"sessions":[{"session":"s1","calls":2,"tokens":35,"usd":0.0013},{"session":"s2","calls":1,"tokens":0,"usd":0}],` +
			`"agents":[{"agent":"ag1","calls":1,"tokens":20,"usd":0.001},{"agent":"main","calls":2,"tokens":15,"usd":0.0003}]}`,
	}
	for _, in := range b.Intents {
		if got := string(in.Spend); got != want[in.ID] {
			t.Errorf("%s's spend = %s\nwant %s", in.ID, got, want[in.ID])
		}
		if got := string(in.WindowSpend); got != wantWindow[in.ID] {
			t.Errorf("%s's window spend = %s\nwant %s", in.ID, got, wantWindow[in.ID])
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "::1": true, "localhost": true, "127.1.2.3": true, "0.0.0.0": false, "192.168.1.2": false, "example.com": false, "": false} {
		if got := IsLoopback(host); got != want {
			t.Errorf("IsLoopback(%q) = %v", host, got)
		}
	}
}
