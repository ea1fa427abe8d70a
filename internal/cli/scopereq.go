package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/replay"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/scopereq"
	"github.com/intenthook/intenthook/internal/workspace"
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
	if err := a.personAct(ctx, ws, "intents scope --approve/--reject", fmt.Sprintf("intents scope %s --approve %d --reject %d", id, approve, reject), id); err != nil {
		return err
	}
	out, err := a.decideScopeRequest(ctx, ws, id, approve, reject)
	if err != nil {
		return err
	}
	fmt.Fprint(a.stdout, out)
	return nil
}

// decideScopeRequest rejects (reject > 0) or approves pending scope
// request approve of intent id, applying an approval through the lifecycle
// editor, and returns what a person is told. The caller has made sure a
// person runs it.
func (a *app) decideScopeRequest(ctx context.Context, ws *workspace.Workspace, id string, approve, reject int) (string, error) {
	store := scopereq.For(ws.Root, ws.Config.LockTimeout)
	if reject > 0 {
		if err := store.Take(ctx, id, reject, func(scopereq.Request) error { return nil }); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s: scope request %d rejected\n", id, reject), nil
	}
	var scope, granted []string
	var flips string
	var version int
	err := store.Take(ctx, id, approve, func(r scopereq.Request) error {
		// Filed before patterns were checked, or written by hand: what a
		// person cannot read on a terminal is not granted.
		if err := scopereq.CheckPatterns(r); err != nil {
			return fmt.Errorf("scope request %d: %w (reject it: --reject %d)", r.N, err, r.N)
		}
		flips = a.scopeFlips(ctx, ws.Root, id, r.Add, r.Remove)
		reason := fmt.Sprintf("scope request %d approved: %s", r.N, safetext.Flat(r.Reason))
		var err error
		scope, version, err = lifecycle.NewEditor(ws, r.Session, "intenthook", Version).Amend(ctx, id, r.Add, r.Remove, reason)
		granted = r.Change()
		return err
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s: scope request %d approved: granted %s; owned_scope now %s (version %d)\n", id, approve, strings.Join(granted, " "), strings.Join(safetext.QuoteAll(scope), ", "), version) + flips, nil
}

// listScopeRequests prints intent id's owned_scope and its pending scope
// requests, each with what it would have flipped: what a person weighs
// before --approve.
func (a *app) listScopeRequests(ctx context.Context, id string) error {
	ws, err := a.openWorkspace()
	if err != nil {
		return err
	}
	in := ws.Catalog.Find(id)
	if in == nil {
		return fmt.Errorf("no intent %s in the catalog", id)
	}
	fmt.Fprintf(a.stdout, "%s: owned_scope %s\n", id, strings.Join(safetext.QuoteAll(in.OwnedScope), ", "))
	reqs, err := scopereq.For(ws.Root, 0).List(id)
	if err != nil {
		return err
	}
	if len(reqs) == 0 {
		fmt.Fprintln(a.stdout, "no pending scope requests")
		return nil
	}
	fmt.Fprintln(a.stdout, "pending scope requests (intenthook intents scope ID --approve N | --reject N):")
	for _, r := range reqs {
		fmt.Fprintf(a.stdout, "  %d %s: %s\n", r.N, strings.Join(r.Change(), " "), safetext.Quote(r.Reason))
		fmt.Fprint(a.stdout, "    "+a.scopeFlips(ctx, ws.Root, id, r.Add, r.Remove))
	}
	return nil
}

// weighScope prints what a scope change would have flipped, changing
// nothing (--dry-run).
func (a *app) weighScope(ctx context.Context, id string, add, remove []string) error {
	root, err := a.workspaceRoot()
	if err != nil {
		return err
	}
	rep, err := replay.Flips(ctx, root, workspace.Governance(agent.Governance()), id, add, remove)
	if err != nil {
		return err
	}
	fmt.Fprintln(a.stdout, rep.FlipLine(id))
	for _, b := range []*replay.Bucket{&rep.NewlyAllowed, &rep.NewlyDenied} {
		for _, it := range b.Items {
			fmt.Fprintf(a.stdout, "  %s: %d write(s), %s, then %s\n", safetext.Quote(it.Path), it.Writes, it.Recorded, it.Would)
		}
	}
	return nil
}

// scopeFlips is the line saying what a scope change would have flipped
// among intent id's records, "" when it cannot be told (a warning says
// why: the change itself goes on).
func (a *app) scopeFlips(ctx context.Context, root, id string, add, remove []string) string {
	rep, err := replay.Flips(ctx, root, workspace.Governance(agent.Governance()), id, add, remove)
	if err != nil {
		fmt.Fprintf(a.stderr, "intenthook: warning: replay of %s's records: %v\n", id, err)
		return ""
	}
	return rep.FlipLine(id) + "\n"
}

// writeScopeRequests lists intent id's pending scope requests ("" for
// every intent's), for intents show and status.
func writeScopeRequests(w io.Writer, root, id string) {
	reqs, err := scopereq.For(root, 0).List(id)
	if err != nil || len(reqs) == 0 {
		return
	}
	fmt.Fprintln(w, "pending scope requests (intenthook intents scope ID --approve N | --reject N):")
	for _, r := range reqs {
		fmt.Fprintf(w, "  %d %s %s: %s\n", r.N, safetext.Quote(r.IntentID), strings.Join(r.Change(), " "), safetext.Quote(r.Reason))
	}
}
