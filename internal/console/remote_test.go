package console

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/config"
)

const testHookToken = "0123456789abcdef0123456789abcdef"

// remoteFixture is a console over TLS taking other machines' asks with
// testHookToken, on the test clock, and the pin of its certificate.
func remoteFixture(t *testing.T, token string) (*fixture, string) {
	t.Helper()
	f := &fixture{t: t, root: t.TempDir(), clock: &clock{t: time.Now().Truncate(time.Second)}}
	f.ts = httptest.NewUnstartedServer(nil)
	var err error
	f.srv, err = New(Config{Repos: []Repo{{Name: "ws", Root: f.root}}, Addr: f.ts.Listener.Addr().String(), TLS: true, Now: f.clock.now, HookToken: token,
		Person: func(context.Context, asks.Ask, string) (asks.Answer, error) {
			return asks.Answer{By: "P <p@example.com>", User: "p"}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	f.ts.Config.Handler = f.srv
	f.ts.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes the client test makes
	f.ts.StartTLS()
	t.Cleanup(f.ts.Close)
	sum := sha256.Sum256(f.ts.Certificate().Raw)
	return f, "sha256:" + hex.EncodeToString(sum[:])
}

// tlsClient is a cookie-keeping client that trusts the fixture's
// certificate, as a person's browser told to would.
func (f *fixture) tlsClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Transport: f.ts.Client().Transport, Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// bare is a client trusting the fixture's certificate, with no cookies: a
// hook's.
func (f *fixture) bare() *http.Client { return &http.Client{Transport: f.ts.Client().Transport} }

func filed(now time.Time, wait time.Duration) asks.Filed {
	return asks.Filed{Ask: asks.Ask{Session: "s1", Tool: "Write", Target: "src/a.go", Why: "intenthook: requires approval", Created: now, Deadline: now.Add(wait)}, Machine: "laptop"}
}

func TestRemoteAskAnswered(t *testing.T) {
	f, pin := remoteFixture(t, testHookToken)
	c, err := NewRemoteClient(f.ts.URL, pin, testHookToken)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := c.File(ctx, filed(f.clock.now(), time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	person := f.tlsClient()
	if got := f.loginWith(person); got != http.StatusSeeOther {
		t.Fatalf("login: %d", got)
	}
	_, body := f.do(person, "GET", "/api/pending", "", nil)
	if want := fmt.Sprintf(`[{"id":%q,"session":"s1","tool":"Write",`, a.ID); !strings.HasPrefix(body, want) || !strings.Contains(body, `"remote":true,"machine":"laptop"`) {
		t.Fatalf("pending: %s", body)
	}
	// The token cannot answer, nor read the person's API.
	for _, h := range []map[string]string{
		{"Authorization": "Bearer " + testHookToken, CSRFHeader: f.csrf(person)},
		{"Authorization": "Bearer " + testHookToken},
	} {
		resp, _ := f.do(f.bare(), "POST", "/api/pending/"+a.ID, `{"decision":"allow"}`, h)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("answer with the token: %d, want 401", resp.StatusCode)
		}
	}
	resp, body := f.do(person, "POST", "/api/pending/"+a.ID, `{"decision":"deny","reason":"not now"}`, map[string]string{CSRFHeader: f.csrf(person)})
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"decision":"deny","reason":"not now","by":"P \u003cp@example.com\u003e","user":"p"`) {
		t.Fatalf("answer: %d %s", resp.StatusCode, body)
	}
	ans, ok := c.Wait(ctx, a.ID, a.Deadline, 10*time.Millisecond)
	if !ok || ans.Verdict != asks.Deny || ans.Reason != "not now" || ans.By != "P <p@example.com>" || ans.Via != "console" {
		t.Fatalf("wait: %v %+v", ok, ans)
	}
	resp, _ = f.do(person, "POST", "/api/pending/"+a.ID, `{"decision":"allow"}`, map[string]string{CSRFHeader: f.csrf(person)})
	if resp.StatusCode != http.StatusConflict {
		t.Fatalf("second answer: %d, want 409", resp.StatusCode)
	}
	// Past its deadline and the minute after, the console forgets it: the
	// hook's helper stops waiting.
	f.clock.add(3 * time.Minute)
	if _, err := c.File(ctx, filed(f.clock.now(), time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Wait(ctx, a.ID, time.Now().Add(time.Minute), 10*time.Millisecond); ok {
		t.Fatal("an ask past its deadline was still answered")
	}
}

func (f *fixture) loginWith(c *http.Client) int {
	f.t.Helper()
	resp, err := c.Get(strings.Replace(f.srv.LoginURL(), "https://"+f.srv.cfg.Addr, f.ts.URL, 1))
	if err != nil {
		f.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestRemoteRefusals(t *testing.T) {
	f, pin := remoteFixture(t, testHookToken)
	now := f.clock.now()
	hook := func(token, method, path, body string) (int, string) {
		resp, b := f.do(f.bare(), method, path, body, map[string]string{"Authorization": "Bearer " + token})
		return resp.StatusCode, b
	}
	good := `{"ask":{"id":"0000000a","session":"s1","tool":"Write","why":"w","created":%q,"deadline":%q}}`
	at := func(d time.Duration) string { return now.Add(d).UTC().Format(time.RFC3339) }
	for _, c := range []struct {
		name, token, method, path, body string
		want                            int
	}{
		{"no token", "", "POST", "/hook/asks", fmt.Sprintf(good, at(0), at(time.Minute)), 401},
		{"wrong token", "x" + testHookToken[1:], "POST", "/hook/asks", fmt.Sprintf(good, at(0), at(time.Minute)), 401},
		{"deadline past", testHookToken, "POST", "/hook/asks", fmt.Sprintf(good, at(-time.Hour), at(-time.Minute)), 400},
		{"deadline too far", testHookToken, "POST", "/hook/asks", fmt.Sprintf(good, at(0), at(config.MaxAskTimeout+time.Minute)), 400},
		{"bad id", testHookToken, "POST", "/hook/asks", strings.Replace(fmt.Sprintf(good, at(0), at(time.Minute)), "0000000a", "../x", 1), 400},
		{"not json", testHookToken, "POST", "/hook/asks", "{", 400},
		{"filed", testHookToken, "POST", "/hook/asks", fmt.Sprintf(good, at(0), at(time.Minute)), 201},
		{"filed again", testHookToken, "POST", "/hook/asks", fmt.Sprintf(good, at(0), at(time.Minute)), 409},
		{"unknown ask", testHookToken, "GET", "/hook/asks/0000000b", "", 404},
		{"no such route", testHookToken, "GET", "/hook/other", "", 404},
	} {
		if got, body := hook(c.token, c.method, c.path, c.body); got != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, got, body, c.want)
		}
	}
	// A token holder fills no more than MaxRemoteAsks.
	for i := range MaxRemoteAsks {
		hook(testHookToken, "POST", "/hook/asks", strings.Replace(fmt.Sprintf(good, at(0), at(time.Minute)), "0000000a", fmt.Sprintf("%08x", 0x100+i), 1))
	}
	if got, body := hook(testHookToken, "POST", "/hook/asks", strings.Replace(fmt.Sprintf(good, at(0), at(time.Minute)), "0000000a", "ffffffff", 1)); got != http.StatusServiceUnavailable {
		t.Errorf("over MaxRemoteAsks: %d %s", got, body)
	}
	// The client checks the certificate: another pin, or the system's
	// roots, which do not hold the test's.
	for _, p := range []string{"sha256:" + strings.Repeat("0", 64), ""} {
		c, err := NewRemoteClient(f.ts.URL, p, testHookToken)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.File(context.Background(), filed(now, time.Minute)); err == nil {
			t.Errorf("pin %q: filed with a console whose certificate it does not trust", p)
		}
	}
	// A console that no longer takes the token ends the wait: no answer
	// will come (its deadline is a minute on; the context's end is not
	// what stops it).
	stranger, err := NewRemoteClient(f.ts.URL, pin, strings.Repeat("y", 32))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, ok := stranger.Wait(ctx, "0000000a", time.Now().Add(time.Minute), 10*time.Millisecond); ok || ctx.Err() != nil {
		t.Errorf("a wait with a token the console refuses: answered %v, or went on to the context's end (%v)", ok, ctx.Err())
	}
	if _, err := NewRemoteClient("http://"+strings.TrimPrefix(f.ts.URL, "https://"), pin, testHookToken); err == nil {
		t.Error("a client over plain HTTP")
	}
	if _, err := NewRemoteClient(f.ts.URL, pin, ""); err == nil {
		t.Error("a client with no token")
	}
}

func TestRemoteOff(t *testing.T) {
	f, _ := remoteFixture(t, "")
	resp, _ := f.do(f.bare(), "POST", "/hook/asks", "{}", map[string]string{"Authorization": "Bearer "})
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a console without a hook token: %d, want 404", resp.StatusCode)
	}
}
