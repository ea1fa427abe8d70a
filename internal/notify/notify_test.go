package notify

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
)

func TestSendRetries(t *testing.T) {
	tests := []struct {
		name     string
		statuses []int // answered in turn; the last repeats
		tries    int   // made
		err      string
	}{
		{"delivered", []int{200}, 1, ""},
		{"a 202 is delivered", []int{202}, 1, ""},
		{"a server error is tried again", []int{500, 502, 204}, 3, ""},
		{"too many requests is tried again", []int{429, 200}, 2, ""},
		{"given up after four", []int{503}, 4, "the webhook answered 503 Service Unavailable"},
		{"a refusal is final", []int{404}, 1, "the webhook answered 404 Not Found"},
		{"unauthorised is final", []int{401, 200}, 1, "the webhook answered 401 Unauthorized"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				i := int(n.Add(1)) - 1
				w.WriteHeader(tt.statuses[min(i, len(tt.statuses)-1)])
			}))
			defer srv.Close()
			s, err := NewSender(srv.URL + "/secret-path")
			if err != nil {
				t.Fatal(err)
			}
			s.Backoff = time.Millisecond
			err = s.Send(context.Background(), Message{Version: Version})
			if got := int(n.Load()); got != tt.tries {
				t.Errorf("tried %d times, want %d", got, tt.tries)
			}
			if (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Errorf("error %v, want %q", err, tt.err)
			}
		})
	}
}

func TestSendKeepsTheURLOutOfErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // nobody listens there now
	s, err := NewSender(srv.URL + "/T0KEN")
	if err != nil {
		t.Fatal(err)
	}
	s.Tries, s.Backoff = 1, time.Millisecond
	err = s.Send(context.Background(), Message{})
	if err == nil || strings.Contains(err.Error(), "T0KEN") {
		t.Errorf("error %v: want one without the URL's path", err)
	}
}

func TestNewSenderURLs(t *testing.T) {
	for _, u := range []string{"", "ftp://x/y", "file:///etc/passwd", "http://", "not a url", "//host/path"} {
		if _, err := NewSender(u); err == nil {
			t.Errorf("NewSender(%q) accepted it", u)
		}
	}
	for _, u := range []string{"http://127.0.0.1:8080/h", "https://hooks.example.com/services/T/B/X"} {
		if _, err := NewSender(u); err != nil {
			t.Errorf("NewSender(%q): %v", u, err)
		}
	}
}

func TestMessageKeepsAgentTextOutOfTheLine(t *testing.T) {
	now := time.Date(2026, 12, 31, 23, 59, 0, 0, time.UTC)
	a := asks.Ask{ID: "0123abcd", Session: "s1 <!channel> *bold*\n`x`", Agent: "claude", Intent: "INT-001", Tool: "Bash",
		Code: "destructive_command", Target: "rm -rf / <!here>", Why: "intenthook: destructive command: rm -rf / <!here>",
		Created: now, Deadline: now.Add(2 * time.Minute)}
	m := Of("/repo", a)
	for _, bad := range []string{"rm -rf", "<!", "*bold*", "`", "\n"} {
		if strings.Contains(m.Text, bad) {
			t.Errorf("text %q holds %q", m.Text, bad)
		}
	}
	if !strings.Contains(m.Text, "ask 0123abcd waits for a person until 2027-01-01T00:01:00Z") {
		t.Errorf("text %q", m.Text)
	}
	data, _ := json.Marshal(m)
	for _, want := range []string{`"version":1`, `"target":{"text":"rm -rf / \u003c!here\u003e","written_by":"agent"}`, `"why":{"text":"intenthook: destructive command: rm -rf / \u003c!here\u003e","written_by":"agent"}`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("message lacks %s:\n%s", want, data)
		}
	}
}
