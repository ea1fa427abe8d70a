package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/intenthook/intenthook/internal/scopereq"
)

// answerScopeRequest approves (applies through the lifecycle editor) or
// rejects pending scope request n of intent id. Approving is a person's
// decision like any scope amendment.
func (a *app) answerScopeRequest(ctx context.Context, id string, approve, reject int) error {
	if err := a.personOnly("intents scope --approve/--reject"); err != nil {
		return err
	}
	ws, err := a.openWorkspace()
	if err != nil {
		return err
	}
	store := scopereq.Store{Root: ws.Root, Timeout: ws.Config.LockTimeout}
	if reject > 0 {
		if err := store.Take(ctx, id, reject, func(scopereq.Request) error { return nil }); err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "%s: scope request %d rejected\n", id, reject)
		return nil
	}
	var scope []string
	var version int
	err = store.Take(ctx, id, approve, func(r scopereq.Request) error {
		reason := fmt.Sprintf("scope request %d approved: %s", r.N, r.Reason)
		scope, version, err = ws.Editor(r.Session, "intenthook", Version).Amend(ctx, id, r.Add, r.Remove, reason)
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "%s: scope request %d approved: owned_scope %s (version %d)\n", id, approve, strings.Join(scope, ", "), version)
	return nil
}

// writeScopeRequests lists intent id's pending scope requests ("" for
// every intent's), for intents show and status.
func writeScopeRequests(w io.Writer, root, id string) {
	reqs, err := scopereq.Store{Root: root}.List(id)
	if err != nil || len(reqs) == 0 {
		return
	}
	fmt.Fprintln(w, "pending scope requests (intenthook intents scope ID --approve N | --reject N):")
	for _, r := range reqs {
		var change []string
		for _, p := range r.Add {
			change = append(change, "+"+p)
		}
		for _, p := range r.Remove {
			change = append(change, "-"+p)
		}
		fmt.Fprintf(w, "  %d %s %s: %s\n", r.N, r.IntentID, strings.Join(change, " "), r.Reason)
	}
}
