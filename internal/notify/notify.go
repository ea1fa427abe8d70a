// Package notify sends each new pending ask to a person where they are: a
// POST of versioned JSON to a webhook (a chat's incoming webhook, a team's
// bot), from a person's process (intenthook ask serve-notify, intenthook
// console), never from a hook: the hooks never wait on the network. It is
// linked by intenthook-console only.
package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/safetext"
)

// Version is the message format's version; a receiver checks it.
const Version = 1

// Message is what is POSTed for one pending ask. Text is one line a chat
// shows as it is (Slack's incoming webhooks read "text"), free of anything
// the agent wrote; the agent's words are in Ask.Target and Ask.Why,
// labelled as such.
type Message struct {
	Version int    `json:"version"`
	Kind    string `json:"kind"` // ask
	Text    string `json:"text"`
	Ask     Ask    `json:"ask"`
}

// Ask is a pending ask as a receiver sees it.
type Ask struct {
	ID       string    `json:"id"`
	Session  string    `json:"session"`
	Agent    string    `json:"agent,omitempty"`
	AgentID  string    `json:"agent_id,omitempty"`
	Intent   string    `json:"intent,omitempty"`
	Tool     string    `json:"tool"`
	Code     string    `json:"code,omitempty"`
	Created  time.Time `json:"created"`
	Deadline time.Time `json:"deadline"`
	// Why is intenthook's message, which quotes the agent's call: it is
	// labelled as holding agent text.
	Why AgentText `json:"why"`
	// Target is the call's command or files, as the agent wrote them.
	Target *AgentText `json:"target,omitempty"`
	// Answer says how a person answers.
	Answer string `json:"answer"`
	// Repository is the workspace's root on the sending machine.
	Repository string `json:"repository"`
}

// AgentText is text an agent wrote, or that quotes it, labelled so.
type AgentText struct {
	Text      string `json:"text"`
	WrittenBy string `json:"written_by"` // agent
}

// Of is the message for pending ask a of the workspace at root.
func Of(root string, a asks.Ask) Message {
	m := Message{Version: Version, Kind: "ask", Ask: Ask{
		ID: a.ID, Session: a.Session, Agent: a.Agent, AgentID: a.AgentID, Intent: a.Intent, Tool: a.Tool, Code: a.Code,
		Created: a.Created.UTC(), Deadline: a.Deadline.UTC(), Why: AgentText{Text: a.Why, WrittenBy: "agent"},
		Answer:     fmt.Sprintf("intenthook ask allow %s | intenthook ask deny %s --reason …", a.ID, a.ID),
		Repository: root,
	}}
	if a.Target != "" {
		m.Ask.Target = &AgentText{Text: a.Target, WrittenBy: "agent"}
	}
	what := a.Code
	if what == "" {
		what = "a call"
	}
	intent := a.Intent
	if intent == "" {
		intent = "no intent"
	}
	m.Text = fmt.Sprintf("intenthook: ask %s waits for a person until %s: session %s, %s, %s, %s. Answer: intenthook ask allow %s | intenthook ask deny %s --reason …",
		a.ID, a.Deadline.UTC().Format(time.RFC3339), plain(a.Session), plain(intent), plain(a.Tool), what, a.ID, a.ID)
	return m
}

// plain is a value a host reported (a session id, a tool's name) made safe
// for a chat line: one line, no markup a chat would act on, bounded.
func plain(s string) string {
	s = safetext.Flat(safetext.OneLine(s))
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '<', '>', '&', '*', '_', '`', '~', '|', '[', ']':
			continue
		}
		b.WriteRune(r)
		if b.Len() >= 80 {
			b.WriteString("…")
			break
		}
	}
	if b.Len() == 0 {
		return "?"
	}
	return b.String()
}

// Sender POSTs messages to one URL, with bounded retries.
type Sender struct {
	URL    string
	Client *http.Client
	// Tries is how many times a message is sent before it is given up
	// (a 2xx ends them; so does a 4xx other than 408 and 429).
	Tries int
	// Backoff is the wait after the first failed try; it doubles.
	Backoff time.Duration
}

// NewSender is a Sender for rawURL, which must be an http or https URL.
func NewSender(rawURL string) (*Sender, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("not an http or https URL")
	}
	return &Sender{URL: rawURL, Client: &http.Client{Timeout: 10 * time.Second}, Tries: 4, Backoff: time.Second}, nil
}

// Send POSTs m, retrying a failure Tries times in all.
func (s *Sender) Send(ctx context.Context, m Message) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	wait := s.Backoff
	for try := 1; ; try++ {
		err = s.post(ctx, body)
		var final finalError
		if err == nil || errors.As(err, &final) || try >= s.Tries {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// finalError is a refusal a retry does not change.
type finalError struct{ error }

func (s *Sender) post(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(body))
	if err != nil {
		return finalError{err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "intenthook-notify/1")
	resp, err := s.Client.Do(req)
	if err != nil {
		return redact(err)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	switch c := resp.StatusCode; {
	case c >= 200 && c < 300:
		return nil
	case c >= 400 && c < 500 && c != http.StatusRequestTimeout && c != http.StatusTooManyRequests:
		return finalError{fmt.Errorf("the webhook answered %s", resp.Status)}
	default:
		return fmt.Errorf("the webhook answered %s", resp.Status)
	}
}

// redact keeps the webhook's URL, whose path is its secret, out of an
// error: what failed, and how, without the address.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s the webhook: %w", ue.Op, ue.Err)
	}
	return errors.New("the webhook could not be reached")
}

// Watch sends every pending ask of the workspace at root once, as it
// appears, until ctx ends: it looks every poll. report hears of each send
// and failure; sends run one at a time, so a slow webhook delays the next
// message, never a hook.
func Watch(ctx context.Context, root string, s *Sender, poll time.Duration, now func() time.Time, report func(a asks.Ask, err error)) {
	store := asks.For(root)
	sent := map[string]bool{}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		pending, _ := store.Pending(now())
		still := map[string]bool{}
		for _, a := range pending {
			still[a.ID] = true
			if sent[a.ID] {
				continue
			}
			sent[a.ID] = true
			report(a, s.Send(ctx, Of(root, a)))
		}
		for id := range sent {
			if !still[id] {
				delete(sent, id)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
