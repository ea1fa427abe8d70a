package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/safetext"
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
	var scope, granted []string
	var version int
	err = store.Take(ctx, id, approve, func(r scopereq.Request) error {
		// Filed before patterns were checked, or written by hand: what a
		// person cannot read on a terminal is not granted.
		if err := scopereq.CheckPatterns(r); err != nil {
			return fmt.Errorf("scope request %d: %w (reject it: --reject %d)", r.N, err, r.N)
		}
		reason := fmt.Sprintf("scope request %d approved: %s", r.N, safetext.Flat(r.Reason))
		scope, version, err = lifecycle.NewEditor(ws, r.Session, "intenthook", Version).Amend(ctx, id, r.Add, r.Remove, reason)
		granted = changeText(r)
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "%s: scope request %d approved: granted %s; owned_scope now %s (version %d)\n", id, approve, strings.Join(granted, " "), strings.Join(safetext.QuoteAll(scope), ", "), version)
	return nil
}

// changeText is a request's patterns as a person reads them: +added,
// -removed, each quoted when it holds what a terminal would act on.
func changeText(r scopereq.Request) []string {
	var change []string
	for _, p := range r.Add {
		change = append(change, "+"+safetext.Quote(p))
	}
	for _, p := range r.Remove {
		change = append(change, "-"+safetext.Quote(p))
	}
	return change
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
		fmt.Fprintf(w, "  %d %s %s: %s\n", r.N, safetext.Quote(r.IntentID), strings.Join(changeText(r), " "), safetext.Quote(r.Reason))
	}
}
