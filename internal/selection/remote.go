package selection

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/remoteclaims"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// ClaimsCommand is the full binary's hidden command a hook starts,
// detached, to renew or release claims on the remote.
const ClaimsCommand = "__claims"

// remoteTake is a selection's claim on claims.remote, taken before the
// work tree binds it.
type remoteTake struct {
	remote remoteclaims.Remote
	rec    *remoteclaims.Record // to keep once bound; nil: nothing taken
	held   *remoteclaims.Claim  // another machine's live claim
	note   string               // what the selection is told
}

// takeRemote claims id on the workspace's claims.remote for who, within
// remoteclaims.Wait: the only wait on the network a hook makes. A remote
// that cannot be reached leaves a claim on this machine only, and says so.
func (s *Selector) takeRemote(ctx context.Context, who Who, id string) *remoteTake {
	name := s.WS.Config.Claims.Remote
	if name == "" || who.Default {
		return nil
	}
	r, ok := remoteclaims.Open(s.WS.Root, name)
	if !ok {
		return nil
	}
	t := &remoteTake{remote: r}
	ctx, cancel := context.WithTimeout(ctx, remoteclaims.Wait(s.WS.Getenv))
	defer cancel()
	c, err := NewRemoteClaim(ctx, r, who.Session, who.Agent, id, s.WS.Now())
	if err != nil {
		t.rec = &remoteclaims.Record{Claim: c, Remote: name, Error: err.Error()}
		t.note = unreached(id, name, err)
		return t
	}
	out, err := r.Take(ctx, c, s.WS.Now())
	switch {
	case err != nil:
		t.rec = &remoteclaims.Record{Claim: c, Remote: name, Error: safetext.OneLine(err.Error())}
		t.note = unreached(id, name, err)
	case out.Held != nil:
		t.held = out.Held
		t.note = fmt.Sprintf("warning: intent %s is also held by %s (through the remote %s); coordinate to avoid overlapping edits", id, RemoteHolder(*out.Held), name)
	default:
		t.rec = &remoteclaims.Record{Claim: c, Remote: name, Commit: out.Commit, Mode: out.Mode}
	}
	return t
}

// NewRemoteClaim is the claim session (agent) of this clone makes on
// intent at now.
func NewRemoteClaim(ctx context.Context, r remoteclaims.Remote, session, agent, intent string, now time.Time) (remoteclaims.Claim, error) {
	c := remoteclaims.Claim{V: 1, Intent: intent, Session: session, Agent: agent, Machine: remoteclaims.Machine(),
		At: now.UTC().Truncate(time.Second), Expires: now.UTC().Truncate(time.Second).Add(remoteclaims.TTL)}
	clone, err := r.Clone()
	if err != nil {
		return c, err
	}
	c.Clone, c.Who = clone, r.Identity(ctx)
	return c, nil
}

// RemoteHolder names another machine's claim for a message.
func RemoteHolder(c remoteclaims.Claim) string {
	return safetext.Quote(safetext.OneLine(c.Holder()))
}

// remoteClaimed is the deny of a selection another machine's live claim
// holds, with exclusive_intents.
func remoteClaimed(id, session, remote string, c remoteclaims.Claim) hook.Decision {
	return hook.Denial{
		Code:     hook.CodeIntentClaimed,
		Headline: fmt.Sprintf("intent %s is held by another live session", id),
		Why:      fmt.Sprintf("exclusive_intents is on and %s claimed it on the remote %s until %s", RemoteHolder(c), safetext.Quote(remote), c.Expires.UTC().Format(time.RFC3339)),
		Instead:  "select another intent, or ask the user to clear the other machine's claim (intenthook claims clear " + id + ")",
		Evidence: []string{hook.Ev("intent", id), hook.Ev("session", session), hook.Ev("holder", c.Session), hook.Ev("remote", remote)},
	}.Decision()
}

func unreached(id, remote string, err error) string {
	return fmt.Sprintf("warning: intent %s is claimed on this machine only: the remote %s was not reached (%s); teammates' machines do not see the claim until a later call renews it there", id, remote, safetext.OneLine(err.Error()))
}

// keep records the take once the work tree bound the selection, and
// starts the release of the session's earlier remote claims; undo takes
// the claim back when the work tree refused it.
func (t *remoteTake) keep(ws *workspace.Workspace, session string) error {
	if t == nil || t.rec == nil {
		return nil
	}
	rs := remoteclaims.RecordsOf(ws.Root)
	if err := rs.Put(*t.rec); err != nil {
		return err
	}
	for _, rec := range rs.All() {
		if rec.Claim.Session == session && rec.Claim.Intent != t.rec.Claim.Intent {
			StartClaims(ws, "release", session, "")
			break
		}
	}
	return nil
}

func (t *remoteTake) undo(ctx context.Context) {
	if t == nil || t.rec == nil || t.rec.Commit == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, remoteclaims.Bound)
	defer cancel()
	_ = t.remote.Release(ctx, t.rec.Claim.Intent, t.rec.Claim.Clone, t.rec.Claim.Session)
}

// StartClaims starts intenthook-full __claims verb detached, for session
// (and intent, "" for every one of its claims): no hook waits on the
// network but a selection.
func StartClaims(ws *workspace.Workspace, verb, session, intent string) {
	path, err := full.Path()
	if err != nil {
		return
	}
	args := []string{ClaimsCommand, verb, "--root", ws.Root, "--session", session}
	if intent != "" {
		args = append(args, "--intent", intent)
	}
	_ = full.Detach(path, args, ws.Root)
}

// renewAgain spaces the renewals hook calls start for one claim.
const renewAgain = time.Minute

// RenewDue starts the renewal of the remote claim on the intent agent
// ("" for the session's own) works under in ss when it is within a third
// of its expiry, or was never taken on the remote: one read of the claim's
// record, and no wait on the network. A subagent's delegated intent, which
// no selection of its own claimed there, is taken at its first call.
func RenewDue(ws *workspace.Workspace, ss *state.Session, agent string, now time.Time) bool {
	if ws.Config.Claims.Remote == "" || ss == nil || ss.Released() {
		return false
	}
	intent := ss.ActiveIntent(agent)
	if intent == "" {
		return false
	}
	if intent == ss.Intent {
		agent = ""
	}
	rs := remoteclaims.RecordsOf(ws.Root)
	rec := rs.Get(intent)
	if rec == nil && agent != "" {
		rec = &remoteclaims.Record{Claim: remoteclaims.Claim{Intent: intent, Session: ss.ID, Agent: agent}, Remote: ws.Config.Claims.Remote}
	}
	if rec == nil || rec.Claim.Session != ss.ID || rec.Claim.Agent != agent || now.Sub(rec.Renewing) < renewAgain {
		return false
	}
	if rec.Commit != "" && !rec.Claim.Due(now) {
		return false
	}
	rec.Renewing = now.UTC()
	if rs.Put(*rec) != nil {
		return false
	}
	StartClaims(ws, "renew", ss.ID, intent)
	return true
}

// holdsLocally reports whether session state ss still selects intent for
// agent ("" for the session's own) and has not let it go.
func holdsLocally(ss *state.Session, agent, intent string) bool {
	if ss == nil || ss.Released() {
		return false
	}
	if agent != "" {
		return ss.AgentIntents[agent] == intent
	}
	return ss.Intent == intent
}

// Renew writes session's claim on intent again on claims.remote, with a
// fresh expiry, while the session still holds the intent here: the
// detached side of RenewDue. A claim the remote did not take before is
// taken now when no other machine holds the intent; one another machine
// holds (ours lapsed meanwhile) is recorded as lost.
func Renew(ctx context.Context, ws *workspace.Workspace, session, intent string) error {
	r, ok := remoteclaims.Open(ws.Root, ws.Config.Claims.Remote)
	if !ok {
		return nil
	}
	rs := remoteclaims.RecordsOf(ws.Root)
	rec := rs.Get(intent)
	if rec == nil {
		// A resumed session's selection, whose claim its end released.
		rec = &remoteclaims.Record{Claim: remoteclaims.Claim{Intent: intent, Session: session}}
	}
	ss, err := ws.Sessions.Read(session)
	if err != nil || rec.Claim.Session != session || !holdsLocally(ss, rec.Claim.Agent, intent) {
		return err
	}
	now := ws.Now()
	c, err := NewRemoteClaim(ctx, r, session, rec.Claim.Agent, intent, now)
	if err != nil {
		return err
	}
	out, err := r.Take(ctx, c, now)
	switch {
	case err != nil:
		rec.Error = safetext.OneLine(err.Error())
	case out.Held != nil:
		rec.Commit, rec.Mode = "", ""
		rec.Error = "held on the remote by " + safetext.OneLine(out.Held.Holder())
	default:
		*rec = remoteclaims.Record{Claim: c, Remote: r.Name, Commit: out.Commit, Mode: out.Mode}
	}
	return rs.Put(*rec)
}

// ReleaseRemote takes off claims.remote every claim of session (on
// intent, "" for any) that the session no longer holds here: it ended,
// or selected another intent. A claim it still holds stays, so that the
// command releases nothing for whoever runs it with a live session.
func ReleaseRemote(ctx context.Context, ws *workspace.Workspace, session, intent string) error {
	r, ok := remoteclaims.Open(ws.Root, ws.Config.Claims.Remote)
	if !ok {
		return nil
	}
	rs := remoteclaims.RecordsOf(ws.Root)
	ss, err := ws.Sessions.Read(session)
	if err != nil {
		return err
	}
	var errs []error
	for _, rec := range rs.All() {
		c := rec.Claim
		if c.Session != session || intent != "" && c.Intent != intent || holdsLocally(ss, c.Agent, c.Intent) {
			continue
		}
		if rec.Commit != "" {
			if err := r.Release(ctx, c.Intent, c.Clone, c.Session); err != nil {
				rec.Error = "release: " + safetext.OneLine(err.Error())
				errs = append(errs, rs.Put(rec), err)
				continue
			}
		}
		errs = append(errs, rs.Drop(c.Intent))
	}
	return errors.Join(errs...)
}

// RemoteRecords are this clone's records of its claims on the remote
// (status, doctor); nil when claims.remote is off.
func RemoteRecords(ws *workspace.Workspace) []remoteclaims.Record {
	if ws.Config.Claims.Remote == "" {
		return nil
	}
	return remoteclaims.RecordsOf(ws.Root).All()
}

// ReleaseLater starts, detached, the release of session's claims on
// claims.remote that it no longer holds (ReleaseRemote), when this clone
// has a record of one: a session's end or a selection of another intent.
func ReleaseLater(ws *workspace.Workspace, session string) {
	for _, rec := range RemoteRecords(ws) {
		if rec.Claim.Session == session {
			StartClaims(ws, "release", session, "")
			return
		}
	}
}
