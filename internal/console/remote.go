package console

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/config"
)

// A console on another machine (docs/console.md): hooks whose
// config.yaml names it in ask.console file their pending asks here and
// poll for the answers, with the hook token (Config.HookToken, from the
// person's environment). The token files an ask and reads its answer, and
// nothing else: every /api/ request still needs the person's session, so
// only the person logged into this console answers. The asks live in
// this process's memory until their deadline; the answer is recorded in
// the ledger of the hook that asked, on its machine.

// Hook routes, under their own prefix: the session's check does not apply
// to them, the token's does.
const (
	hookPrefix = "/hook/"
	hookAsks   = "/hook/asks"
)

// MaxRemoteAsks is how many asks filed from elsewhere a console holds at
// once: a token holder cannot fill its memory.
const MaxRemoteAsks = 256

// remoteAsks are the asks filed by hooks on other machines, by id.
type remoteAsks struct {
	mu   sync.Mutex
	byID map[string]*remoteAsk
}

type remoteAsk struct {
	filed  asks.Filed
	answer *asks.Answer
}

// sweep drops the asks whose deadline is a minute gone: their hooks no
// longer wait. The caller holds mu.
func (r *remoteAsks) sweep(now time.Time) {
	for id, ra := range r.byID {
		if now.Sub(ra.filed.Ask.Deadline) > time.Minute {
			delete(r.byID, id)
		}
	}
}

// bearer reports whether r carries the hook token.
func (s *Server) bearer(r *http.Request) bool {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && s.cfg.HookToken != "" && equal(tok, s.cfg.HookToken)
}

// serveHook serves the hook routes: 404 on a console without a hook
// token, then 401 without the token, 421 for a foreign Host.
func (s *Server) serveHook(w http.ResponseWriter, r *http.Request) {
	switch {
	case s.cfg.HookToken == "":
		fail(w, http.StatusNotFound, "this console takes no asks from other machines (intenthook console --hook-token-env NAME)")
	case !s.bearer(r):
		fail(w, http.StatusUnauthorized, "no hook token: send Authorization: Bearer with the token in ask.token_env's variable")
	case !s.hosts[strings.ToLower(r.Host)]:
		fail(w, http.StatusMisdirectedRequest, "this console does not answer to host "+fmt.Sprintf("%q", r.Host))
	case r.URL.Path == hookAsks && r.Method == http.MethodPost:
		s.fileRemote(w, r)
	case strings.HasPrefix(r.URL.Path, hookAsks+"/") && r.Method == http.MethodGet:
		s.remoteStatus(w, strings.TrimPrefix(r.URL.Path, hookAsks+"/"))
	default:
		fail(w, http.StatusNotFound, "no such hook route")
	}
}

// fileRemote takes an ask a hook files: 201, or 409 for an id taken
// already (the hook's helper files it again under another).
func (s *Server) fileRemote(w http.ResponseWriter, r *http.Request) {
	var f asks.Filed
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 256<<10))
	if err := dec.Decode(&f); err != nil {
		fail(w, http.StatusBadRequest, "the body is an ask as intenthook's hook files it: "+err.Error())
		return
	}
	now := s.cfg.Now()
	a := f.Ask
	switch {
	case !asks.ValidID(a.ID):
		fail(w, http.StatusBadRequest, fmt.Sprintf("ask id %q: want 8 hexadecimal digits", a.ID))
		return
	case a.Tool == "" || a.Session == "":
		fail(w, http.StatusBadRequest, "an ask names its session and tool")
		return
	case !a.Deadline.After(now) || a.Deadline.Sub(now) > config.MaxAskTimeout:
		fail(w, http.StatusBadRequest, fmt.Sprintf("the ask's deadline %s is past, or more than %s on (this console's clock: %s)", a.Deadline.UTC().Format(time.RFC3339), config.MaxAskTimeout, now.UTC().Format(time.RFC3339)))
		return
	}
	s.remote.mu.Lock()
	defer s.remote.mu.Unlock()
	if s.remote.byID == nil {
		s.remote.byID = map[string]*remoteAsk{}
	}
	s.remote.sweep(now)
	switch {
	case s.remote.byID[a.ID] != nil:
		fail(w, http.StatusConflict, "ask "+a.ID+" is filed already")
		return
	case len(s.remote.byID) >= MaxRemoteAsks:
		fail(w, http.StatusServiceUnavailable, fmt.Sprintf("this console holds %d asks from other machines already", MaxRemoteAsks))
		return
	}
	s.remote.byID[a.ID] = &remoteAsk{filed: f}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(asks.Status{State: asks.StatePending})
}

// remoteStatus says whether ask id is answered.
func (s *Server) remoteStatus(w http.ResponseWriter, id string) {
	s.remote.mu.Lock()
	ra := s.remote.byID[id]
	var st asks.Status
	if ra != nil {
		st = asks.Status{State: asks.StatePending, Answer: ra.answer}
		if ra.answer != nil {
			st.State = asks.StateAnswered
		}
	}
	s.remote.mu.Unlock()
	if ra == nil {
		fail(w, http.StatusNotFound, "no ask "+fmt.Sprintf("%q", id)+" is filed here, or its deadline is gone")
		return
	}
	writeJSON(w, st)
}

// remotePending lists the filed asks still waiting, oldest first.
func (s *Server) remotePending(now time.Time) []Pending {
	s.remote.mu.Lock()
	defer s.remote.mu.Unlock()
	var out []Pending
	for _, ra := range s.remote.byID {
		if ra.answer == nil && now.Before(ra.filed.Ask.Deadline) {
			p := pendingOf(ra.filed.Ask)
			p.Machine, p.Remote = ra.filed.Machine, true
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(x, y Pending) int { return x.Created.Compare(y.Created) })
	return out
}

// errNotRemote: no ask filed from elsewhere has the id.
var errNotRemote = errors.New("not filed from another machine")

// answerRemote answers ask id filed from another machine, for the person
// Config.Person names: errNotRemote when none is filed under id.
func (s site) answerRemote(r *http.Request, id, verdict, reason string) (asks.Ask, asks.Answer, error) {
	s.remote.mu.Lock()
	ra := s.remote.byID[id]
	s.remote.mu.Unlock()
	if ra == nil {
		return asks.Ask{}, asks.Answer{}, errNotRemote
	}
	if s.cfg.Person == nil {
		return ra.filed.Ask, asks.Answer{}, errors.New("this console cannot name who answers")
	}
	who, err := s.cfg.Person(r.Context(), ra.filed.Ask, verdict)
	if err != nil {
		return ra.filed.Ask, asks.Answer{}, err
	}
	now := s.cfg.Now()
	s.remote.mu.Lock()
	defer s.remote.mu.Unlock()
	switch {
	case ra.answer != nil:
		return ra.filed.Ask, asks.Answer{}, fmt.Errorf("ask %s is answered already", id)
	case !now.Before(ra.filed.Ask.Deadline):
		return ra.filed.Ask, asks.Answer{}, fmt.Errorf("ask %s timed out at %s: the hook no longer waits for it", id, ra.filed.Ask.Deadline.UTC().Format(time.RFC3339))
	}
	ans := asks.Answer{Verdict: verdict, Reason: reason, By: who.By, User: who.User, Via: "console", At: now.UTC()}
	ra.answer = &ans
	return ra.filed.Ask, ans, nil
}
