// Package selection binds intents to those who work on them (SPEC §6): a
// session, one agent inside it, or the workspace default. It holds the rules
// (the intent exists, is valid, can start, is not claimed), starts a PENDING
// intent, and answers with the intent's context. Hooks call it when an agent
// selects; a person's `intenthook select` calls it directly. It does not
// record: callers append the select record their own way.
package selection

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/review"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// LiveWindow is how recently a session must have been seen to count as
// holding its intent.
const LiveWindow = 30 * time.Minute

// Who is the holder of a selection.
type Who struct {
	Session string
	Agent   string // one agent inside Session
	Default bool   // the workspace default instead of a session
	// Model and Transcript, when set, are remembered with the session.
	Model, Transcript string
}

// Describe names the holder for messages.
func (w Who) Describe() string {
	switch {
	case w.Default:
		return "the workspace"
	case w.Agent != "":
		return "agent " + w.Agent
	}
	return "this session"
}

// Selector selects intents in one workspace.
type Selector struct {
	WS *workspace.Workspace
	// Editor starts PENDING intents; its session and tool name the change.
	Editor *lifecycle.Editor
}

// Result is a selection's outcome: a deny, or the intent now bound.
type Result struct {
	Decision hook.Decision
	Intent   *intents.Intent // nil on a deny
	// Session is the holder's session state after binding (nil for the
	// workspace default or on a deny).
	Session *state.Session
}

// Select binds intent id to who after the rules of SPEC §6, starting a
// PENDING intent.
func (s *Selector) Select(ctx context.Context, who Who, id string) (Result, error) {
	in, warning, deny, err := s.activate(ctx, who, id)
	if err != nil || deny != nil {
		if deny != nil {
			return Result{Decision: *deny}, nil
		}
		return Result{}, err
	}
	var res Result
	if who.Default {
		if err := s.WS.SetDefault(in.ID); err != nil {
			return Result{}, err
		}
	} else {
		remote := s.takeRemote(ctx, who, in.ID)
		if remote != nil && remote.held != nil && s.WS.Config.ExclusiveIntents {
			return Result{Decision: remoteClaimed(in.ID, who.Session, s.WS.Config.Claims.Remote, *remote.held)}, nil
		}
		sess, claimed, err := s.bind(ctx, who, in)
		if err != nil || claimed != nil {
			remote.undo(ctx)
			if claimed != nil {
				return Result{Decision: *claimed}, nil
			}
			return Result{}, err
		}
		res.Session = sess
		if err := remote.keep(s.WS, who.Session); err != nil {
			return Result{}, err
		}
		if remote != nil && remote.note != "" {
			warning = strings.TrimSpace(warning + "\n" + remote.note)
		}
	}
	res.Intent = in
	msg := fmt.Sprintf("intenthook: %s selected intent %s (%s)", who.Describe(), in.ID, in.Name)
	if who.Default {
		msg = "intenthook: workspace default intent is " + in.ID
	}
	res.Decision = hook.Decision{
		Verdict: hook.AllowWithContext,
		Message: msg,
		Context: s.WS.SelectionContext(in, warning, review.Rejected(s.WS, in), s.WS.Budget()),
	}
	return res, nil
}

// Clear unbinds who's selection.
func (s *Selector) Clear(ctx context.Context, who Who) error {
	if who.Default {
		return s.WS.SetDefault("")
	}
	if _, err := s.selectFor(ctx, who, ""); err != nil {
		return err
	}
	ReleaseLater(s.WS, who.Session)
	return nil
}

// selectFor binds id (or with "" unbinds) for who in its session state,
// then moves who's claim in the repository's claims (state.Claims) from
// the intent it held to id: the session state first, so that a claim file
// never names an intent its session does not hold but for a moment.
func (s *Selector) selectFor(ctx context.Context, who Who, id string) (*state.Session, error) {
	before := ""
	sess, err := s.update(ctx, who, func(ss *state.Session) {
		before = ss.ActiveIntent(who.Agent)
		if who.Agent != "" && ss.AgentIntents[who.Agent] == "" {
			before = "" // the session's own, which stays
		}
		ss.Select(who.Agent, id)
	})
	if err != nil {
		return nil, err
	}
	if err := s.WS.Claims().Put(who.Session, who.Agent, before, id, s.WS.Now()); err != nil {
		return sess, err
	}
	return sess, nil
}

// lockClaims takes the work tree's catalog lock, then the repository's
// claims lock (state.Claims.Lock): a selection in another work tree of
// the same repository waits on the second.
func (s *Selector) lockClaims(ctx context.Context) (state.Unlock, error) {
	unlock, err := state.Lock(ctx, s.WS.Root, state.LockCatalog, s.WS.Config.LockTimeout)
	if err != nil {
		return nil, err
	}
	unlockRepo, err := s.WS.Claims().Lock(ctx, s.WS.Config.LockTimeout)
	if err != nil {
		unlock()
		return nil, err
	}
	return func() { unlockRepo(); unlock() }, nil
}

// activate checks that id can be worked on, starting it when PENDING. It
// returns a warning when other live sessions hold the intent.
func (s *Selector) activate(ctx context.Context, who Who, id string) (*intents.Intent, string, *hook.Decision, error) {
	evidence := []string{hook.Ev("intent", id), hook.Ev("session", who.Session)}
	deny := func(d hook.Decision) (*intents.Intent, string, *hook.Decision, error) { return nil, "", &d, nil }
	cat := s.WS.Catalog
	if id == "" {
		return deny(hook.Denial{
			Code:     hook.CodeIntentNotFound,
			Headline: "no intent id given",
			Why:      "intents you can select:\n" + Selectable(cat, s.WS.Budget()/2),
			Instead:  "run `intenthook select <ID>` with one of those ids",
			Evidence: evidence,
		}.Decision())
	}
	in := cat.Find(id)
	switch {
	case in == nil:
		return deny(NotFound(cat, id, s.WS.Budget(), evidence))
	case !in.Valid():
		return deny(Invalid(in, evidence))
	case in.Status == intents.Pending:
		if d, ok := dependenciesIncomplete(cat, in, evidence); ok {
			return deny(d)
		}
	case in.Status != intents.InProgress:
		return deny(NotInProgress(in, evidence))
	}
	holders, err := s.liveHolders(who, id)
	if err != nil {
		return nil, "", nil, err
	}
	if len(holders) > 0 && s.WS.Config.ExclusiveIntents {
		return deny(claimed(id, holders, evidence))
	}
	if in.Status == intents.Pending {
		if err := s.start(ctx, in); err != nil {
			return nil, "", nil, err
		}
	}
	warning := ""
	if len(holders) > 0 {
		warning = fmt.Sprintf("warning: intent %s is also held by %s; coordinate to avoid overlapping edits", id, strings.Join(holders, ", "))
	}
	return in, warning, nil, nil
}

func claimed(id string, holders, evidence []string) hook.Decision {
	return hook.Denial{
		Code:     hook.CodeIntentClaimed,
		Headline: fmt.Sprintf("intent %s is held by another live session", id),
		Why:      "exclusive_intents is on and " + strings.Join(holders, ", ") + " selected it in the last 30 minutes",
		Instead:  "select another intent, or ask the user to clear the other session (intenthook select --clear --session <SID>)",
		Evidence: evidence,
	}.Decision()
}

// bind records the selection in the session's state. With
// exclusive_intents, the check that no other live session holds the intent
// and the binding happen under the catalog lock, so two sessions selecting
// at once cannot both win.
func (s *Selector) bind(ctx context.Context, who Who, in *intents.Intent) (*state.Session, *hook.Decision, error) {
	set := func() (*state.Session, *hook.Decision, error) {
		sess, err := s.selectFor(ctx, who, in.ID)
		return sess, nil, err
	}
	if !s.WS.Config.ExclusiveIntents {
		return set()
	}
	unlock, err := s.lockClaims(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	holders, err := s.liveHolders(who, in.ID)
	if err != nil {
		return nil, nil, err
	}
	if len(holders) > 0 {
		d := claimed(in.ID, holders, []string{hook.Ev("intent", in.ID), hook.Ev("session", who.Session)})
		return nil, &d, nil
	}
	return set()
}

// update changes who's session state under its lock, remembering the model
// and transcript when given.
func (s *Selector) update(ctx context.Context, who Who, fn func(*state.Session)) (*state.Session, error) {
	var out *state.Session
	err := s.WS.Sessions.Update(ctx, who.Session, s.WS.Now(), func(ss *state.Session) error {
		if who.Model != "" {
			ss.Model = who.Model
		}
		if who.Transcript != "" {
			ss.Transcript = who.Transcript
		}
		fn(ss)
		out = ss
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("session state: %w", err)
	}
	return out, nil
}

func dependenciesIncomplete(cat *intents.Catalog, in *intents.Intent, evidence []string) (hook.Decision, bool) {
	var open, abandoned []string
	for _, dep := range in.DependsOn {
		d := cat.Find(dep)
		switch {
		case d == nil:
			open = append(open, dep+" (missing)")
		case d.Abandoned():
			open = append(open, dep+" (ARCHIVED without completing: abandoned)")
			abandoned = append(abandoned, dep)
		case !d.Done():
			if _, root, ok := cat.Stranded(d); ok {
				open = append(open, fmt.Sprintf("%s (%s, waiting on abandoned %s: it will never start)", dep, d.Status, root))
				abandoned = append(abandoned, dep)
			} else {
				open = append(open, dep+" ("+string(d.Status)+")")
			}
		}
	}
	if len(open) == 0 {
		return hook.Decision{}, false
	}
	instead := "work on the intents it depends on first, or ask the user"
	if len(abandoned) > 0 {
		deps := strings.Join(abandoned, ", ")
		instead = fmt.Sprintf("do not wait for %s: ask the user; a person removes %s from %s's depends_on (then %s can start), or archives %s (an intent finished before completed_at existed: intenthook intents validate --fix)", deps, deps, in.ID, in.ID, in.ID)
	}
	return hook.Denial{
		Code:     hook.CodeDependencyIncomplete,
		Headline: fmt.Sprintf("intent %s cannot start: it depends on unfinished work", in.ID),
		Why:      "depends_on must be COMPLETE first: " + strings.Join(open, ", "),
		Instead:  instead,
		Evidence: evidence,
	}.Decision(), true
}

// start moves a PENDING intent to IN_PROGRESS in the catalog file, changing
// only its status and updated_at, under the catalog lock. Another process
// may have started it meanwhile: then there is nothing to do.
func (s *Selector) start(ctx context.Context, in *intents.Intent) error {
	_, err := s.Editor.Apply(ctx, lifecycle.Transition{ID: in.ID, To: intents.InProgress, From: intents.Pending, Reason: "selected"})
	if err != nil {
		return fmt.Errorf("start %s: %w", in.ID, err)
	}
	in.Status = intents.InProgress
	return nil
}

// liveHolders names the other sessions that hold id against who's: see
// holds.
func (s *Selector) liveHolders(who Who, id string) ([]string, error) {
	all, err := s.WS.Sessions.List()
	if err != nil {
		return nil, err
	}
	now := s.WS.Now()
	var out []string
	for _, ss := range all {
		name, ok := holds(ss, who.Session, now)
		if !ok {
			continue
		}
		if ss.Intent == id {
			out = append(out, name)
			continue
		}
		for _, agent := range slices.Sorted(maps.Keys(ss.AgentIntents)) {
			if ss.AgentIntents[agent] == id {
				out = append(out, name+" agent "+agent)
				break
			}
		}
	}
	cl := s.WS.Claims()
	for _, c := range cl.Of(id) {
		if name, ok := ClaimHolds(c, who.Session, now); ok {
			out = append(out, name)
		} else if c.Session != who.Session {
			// Its holder let go of it (an end, another selection, 30
			// minutes unseen) or is gone: a resume puts it back.
			_ = state.Claims{Dir: cl.Dir, Root: c.Root}.Drop(c.Session, c.Agent, c.Intent)
		}
	}
	return out, nil
}

// Release takes back the repository's claims of session's selections
// (its own and its agents'): its end released them. A resume puts back
// those it keeps.
func Release(ws *workspace.Workspace, ss *state.Session) {
	cs := claims(ss)
	if len(cs) == 0 {
		return
	}
	cl := ws.Claims()
	for _, c := range cs {
		_ = cl.Drop(ss.ID, c.Agent, c.Intent)
	}
}

// ClaimHolds reports whether c, a claim another work tree of the
// repository made, holds its intent against session who at now, and names
// its holder with the work tree for a message: the holder's session state
// in that work tree must still select the intent, and hold it (holds).
// A work tree or a session that is gone holds nothing.
func ClaimHolds(c state.Claim, who string, now time.Time) (string, bool) {
	ss := state.Claims{}.Holder(c)
	if ss == nil || ss.ActiveIntent(c.Agent) != c.Intent || c.Agent != "" && ss.AgentIntents[c.Agent] != c.Intent {
		return "", false
	}
	name, ok := holds(ss, who, now)
	if !ok {
		return "", false
	}
	if c.Agent != "" {
		name += " agent " + c.Agent
	}
	return name + " in the work tree " + safetext.Quote(c.Root), true
}

// holds reports whether ss's selections hold their intents against
// session who at now, and names ss for a message. A session holds them
// while it was seen in the last LiveWindow, until its end releases them
// (state.Session.Released): an end that came while another session's
// shell command ran releases nothing, and the name says so.
func holds(ss *state.Session, who string, now time.Time) (string, bool) {
	if ss.ID == who || now.Sub(ss.LastSeen) > LiveWindow || ss.Released() {
		return "", false
	}
	name := "session " + ss.ID
	if ss.Ended() {
		of := "session "
		if len(ss.EndedDuring) > 1 {
			of = "sessions "
		}
		name += " (whose end came while a shell command of " + of + strings.Join(ss.EndedDuring, ", ") + " ran, so it released nothing)"
	}
	return name, true
}

// Resume takes a resumed session's selections back (source resume of
// SessionStart, the same session id): its end, if it had one, no longer
// counts, and each intent it or one of its agents selected is its again
// unless another live session holds it. With exclusive_intents such an
// intent is given up, under the catalog lock as a selection is made;
// without, it is kept with the warning a selection gets. told is what the
// session is to be told, one line per intent held by others.
func (s *Selector) Resume(ctx context.Context, who Who) (sess *state.Session, told []string, err error) {
	exclusive := s.WS.Config.ExclusiveIntents
	if exclusive {
		unlock, err := s.lockClaims(ctx)
		if err != nil {
			return nil, nil, err
		}
		defer unlock()
	}
	cur, err := s.WS.Sessions.Read(who.Session)
	if err != nil {
		return nil, nil, fmt.Errorf("session state: %w", err)
	}
	cs := claims(cur)
	holders := map[string][]string{}
	for _, c := range cs {
		if _, done := holders[c.Intent]; done {
			continue
		}
		if holders[c.Intent], err = s.liveHolders(who, c.Intent); err != nil {
			return nil, nil, err
		}
	}
	drop, told := reclaim(cs, holders, exclusive)
	sess, err = s.update(ctx, who, func(ss *state.Session) {
		ss.Resume()
		for _, c := range drop {
			if ss.ActiveIntent(c.Agent) == c.Intent {
				ss.Select(c.Agent, "")
			}
		}
	})
	if err != nil {
		return sess, told, err
	}
	cl := s.WS.Claims()
	for _, c := range cs {
		var err error
		if slices.Contains(drop, c) {
			err = cl.Drop(who.Session, c.Agent, c.Intent)
		} else {
			err = cl.Put(who.Session, c.Agent, "", c.Intent, s.WS.Now())
			if c.Agent == "" && s.WS.Config.Claims.Remote != "" {
				// Its end released its claim on the remote: taken again
				// there, detached.
				StartClaims(s.WS, "renew", who.Session, c.Intent)
			}
		}
		if err != nil {
			return sess, told, err
		}
	}
	return sess, told, nil
}

// claim is one selection a session holds: its own (Agent "") or one of
// its agents'.
type claim struct{ Agent, Intent string }

// claims lists ss's selections, the session's first, then its agents' by
// id.
func claims(ss *state.Session) []claim {
	var out []claim
	if ss.Intent != "" {
		out = append(out, claim{Intent: ss.Intent})
	}
	for _, agent := range slices.Sorted(maps.Keys(ss.AgentIntents)) {
		if id := ss.AgentIntents[agent]; id != "" {
			out = append(out, claim{Agent: agent, Intent: id})
		}
	}
	return out
}

// reclaim decides a resumed session's claims, given the other live
// sessions holding each intent: a claim on an intent others hold is
// dropped with exclusive_intents, else kept with a warning. told says so
// to the session, one line per claim.
func reclaim(cs []claim, holders map[string][]string, exclusive bool) (drop []claim, told []string) {
	for _, c := range cs {
		hs := holders[c.Intent]
		if len(hs) == 0 {
			continue
		}
		by := strings.Join(hs, ", ")
		if !exclusive {
			told = append(told, fmt.Sprintf("warning: intent %s is also held by %s; coordinate to avoid overlapping edits", c.Intent, by))
			continue
		}
		whose := "this session"
		if c.Agent != "" {
			whose = "agent " + c.Agent
		}
		drop = append(drop, c)
		told = append(told, fmt.Sprintf("intenthook: intent %s, selected for %s before this session ended, is held by %s now, so %s no longer holds it: select another intent (intenthook select <ID>), or ask the user to clear the other session (intenthook select --clear --session <SID>)", c.Intent, whose, by, whose))
	}
	return drop, told
}
