package summary

import (
	"encoding/json"
	"time"

	"github.com/intenthook/intenthook/internal/anchors"
	"github.com/intenthook/intenthook/internal/state"
)

// Result is what was done under an intent, recorded on the ledger record of
// its submission or completion: files changed, checks run and how they
// ended, what was spent, anchors created, the sessions and models that worked on it, when
// the work started (the first thing counted) and when it completed.
type Result struct {
	Files       []string       `json:"files,omitempty"`
	Checks      []Check        `json:"checks,omitempty"`
	Denials     map[string]int `json:"denials,omitempty"`
	Violations  map[string]int `json:"violations,omitempty"`
	Usage       *Spend         `json:"usage,omitempty"`
	Anchors     []string       `json:"anchors,omitempty"`
	Sessions    []string       `json:"sessions,omitempty"`
	Models      []string       `json:"models,omitempty"`
	StartedAt   string         `json:"started_at,omitempty"`
	CompletedAt string         `json:"completed_at,omitempty"`
}

// Gather builds intent's result from the ledger's records of it (Recount:
// denials, violations, checks and files as the ledger holds them, not as
// the sessions' counters say), the anchors' index and the sessions' state.
// completed is when the intent was submitted or completed. It reads the
// whole ledger: a command's work, never a hook's (a hook that moves an
// intent is handed the result its command gathered).
func Gather(root, intent string, completed time.Time) (json.RawMessage, error) {
	s, err := Recount(root, intent)
	if err != nil {
		return nil, err
	}
	s = s.Capped()
	r := Result{Files: s.Files, Checks: s.Checks, Denials: s.Denials, Violations: s.Violations, Usage: s.Usage, Sessions: s.Sessions,
		StartedAt: s.Started, CompletedAt: completed.UTC().Format(time.RFC3339)}
	for _, a := range anchors.Newest(root, intent, 50) {
		if a.Intent == intent {
			r.Anchors = append(r.Anchors, a.Text)
		}
	}
	store := state.Sessions{Root: root}
	for _, id := range s.Sessions {
		if sess, err := store.Read(id); err == nil && sess.Model != "" && !contains(r.Models, sess.Model) {
			r.Models = append(r.Models, sess.Model)
		}
	}
	return json.Marshal(r)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
