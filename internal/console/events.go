package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/ledger"
)

// Decision is one ledger record as the live feed gives it: when, who,
// what, and the decision. Why is labelled with its writer (why_by): a
// person's reason (an answer, a review), an agent's words (an anchor), or
// intenthook's own; the agent's command and files are apart, labelled.
type Decision struct {
	Time      string          `json:"time"`
	Event     string          `json:"event"`
	Session   string          `json:"session,omitempty"`
	AgentID   string          `json:"agent_id,omitempty"`
	Intent    string          `json:"intent,omitempty"`
	Tool      string          `json:"tool,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Decision  string          `json:"decision,omitempty"`
	Code      string          `json:"code,omitempty"`
	Why       string          `json:"why,omitempty"`
	WhyBy     string          `json:"why_by,omitempty"` // intenthook, person, agent
	Answer    json.RawMessage `json:"answer,omitempty"` // an ask_answer's who and how long
	AgentText AgentText       `json:"agent_text"`
	// WorkTree is the top of the work tree whose ledger holds the record
	// (git worktree add makes one ledger per work tree); the workspace's
	// root outside git.
	WorkTree string `json:"work_tree,omitempty"`
}

// whyBy names who wrote a record's reason, by its event.
func whyBy(event string) string {
	switch event {
	case ledger.EventAskAnswer, ledger.EventApprove, ledger.EventReject, ledger.EventTransition:
		return "person"
	case ledger.EventAnchor:
		return "agent"
	}
	return "intenthook"
}

func decisionOf(r ledger.Record) Decision {
	m := r.Metadata.Intenthook
	target := m.Command
	if target == "" {
		var paths []string
		for _, f := range r.Files {
			paths = append(paths, f.Path)
		}
		target = strings.Join(append(paths, m.Paths...), " ")
	}
	d := Decision{Time: r.Timestamp, Event: m.Event, Session: m.SessionID, AgentID: string(m.AgentID), Intent: string(m.IntentID),
		Tool: m.ToolName, ToolUseID: m.ToolUseID, Decision: m.Decision, Code: string(m.Code), Why: m.Reason, Answer: m.Answer,
		AgentText: AgentText{WrittenBy: "agent", Target: target}}
	if d.Why != "" {
		d.WhyBy = whyBy(m.Event)
	}
	return d
}

// keepAlive is how often an idle feed sends a comment, so that a proxy
// or the browser keeps the connection.
const keepAlive = 15 * time.Second

// RecentDecisions is how many of the newest records GET /api/events sends
// before it follows the ledger: the decisions made before the page
// connected.
const RecentDecisions = 200

// recentBytes bounds what the recent decisions are read from: the last
// recentBytes of each of the ledger's newest few files (ledger.ReadTail),
// however long the ledger.
const recentBytes = 512 << 10

// recent returns the newest RecentDecisions records of the console's own
// work tree, oldest first, from the ledger's tail.
func (s site) recent() []ledger.Record { return recentOf(s.repo.Root) }

// recentOf returns the newest RecentDecisions records of the ledger of the
// workspace at root, oldest first, from the ledger's tail.
func recentOf(root string) []ledger.Record {
	recs, _ := ledger.ReadTail(root, recentBytes)
	if len(recs) > RecentDecisions {
		recs = recs[len(recs)-RecentDecisions:]
	}
	return recs
}

// decisionFeed is one ledger's records for a stream: the newest ones,
// once, then each one appended.
type decisionFeed struct {
	follow *ledger.Follower
	recent []ledger.Record // not given yet; nil once given
	given  map[string]bool // the recent records' ids
}

// next returns the records not given yet, in order: the first time the
// recent ones, then those appended since, each once.
func (d *decisionFeed) next() []ledger.Record {
	out := d.recent
	if d.given == nil {
		d.given = make(map[string]bool, len(out))
		for _, rec := range out {
			d.given[rec.ID] = rec.ID != ""
		}
	}
	d.recent = nil
	recs, _ := d.follow.Next()
	for _, rec := range recs {
		if !d.given[rec.ID] {
			out = append(out, rec)
		}
	}
	return out
}

// serveEvents is GET /api/events, server-sent events: "pending" with the
// pending asks at once and whenever they change, "decision" with the
// newest RecentDecisions records (oldest first) of every work tree's
// ledger, then each record the hooks append from now on, each naming its
// work tree. The recent ones come from the last bytes of each ledger's
// newest files (ledger.ReadTail); then it follows each ledger's active
// segment from its end (ledger.Follow): a stat per work tree and poll,
// never a ledger's history.
func (s site) serveEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		fail(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	feed := s.decisions()
	var last []string // the pending asks' ids last sent
	first := true
	tick := time.NewTicker(s.cfg.Poll)
	defer tick.Stop()
	idle := time.Now()
	for {
		sent := false
		if list, err := s.pending(); err == nil {
			ids := make([]string, 0, len(list))
			for _, p := range list {
				ids = append(ids, p.ID)
			}
			if first || !slices.Equal(ids, last) {
				send(w, "pending", list)
				last, first, sent = ids, false, true
			}
		}
		for _, d := range feed.next() {
			send(w, "decision", d)
			sent = true
		}
		if !sent && time.Since(idle) > keepAlive {
			fmt.Fprint(w, ": keep-alive\n\n")
			sent = true
		}
		if sent {
			flusher.Flush()
			idle = time.Now()
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}

// send writes one server-sent event: its name and its data, one JSON line.
func send(w http.ResponseWriter, event string, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
}
