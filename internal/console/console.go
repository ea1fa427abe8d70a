// Package console serves a person's live view of one workspace on
// 127.0.0.1 (intenthook console): the pending asks, answerable, and the
// decisions as the hooks record them, through a small JSON API and a page
// built on it. It holds the login and the session in memory (nothing
// secret is written to disk) and refuses a request from anything but the
// person's logged-in browser or script: no session, a missing CSRF token,
// a foreign Host or Origin. It decides nothing and answers nothing itself:
// an answer goes through the Answer function its caller gives, the one
// intenthook ask allow|deny runs.
package console

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
)

//go:embed page/index.html page/app.js
var page embed.FS

// LoginTTL is how long the login URL works, once.
const LoginTTL = 5 * time.Minute

// Cookie names: the session's (HttpOnly) and the CSRF token's, which the
// page and a script read and echo in the X-CSRF-Token header.
const (
	SessionCookie = "intenthook_session"
	CSRFCookie    = "csrf"
	CSRFHeader    = "X-CSRF-Token"
)

// DefaultPoll is how often a live feed looks for new records and asks:
// one read of the ledger's head file, one stat, one read of the asks'
// directory.
const DefaultPoll = 250 * time.Millisecond

// AnswerFunc answers the pending ask id for the person running the
// console, as intenthook ask allow|deny does, and returns the ask and the
// answer recorded. An error wrapping asks.ErrNoAsk is a 404.
type AnswerFunc func(ctx context.Context, id, verdict, reason string) (asks.Ask, asks.Answer, error)

// Repo is one repository a console serves: a workspace root, and the
// person's answers and reviews there, recorded.
type Repo struct {
	Name   string     // how the API and the page name it (?repo=NAME)
	Root   string     // the workspace root
	Answer AnswerFunc // a person's answer, recorded
	Review ReviewFunc // a person's approval or rejection, recorded; nil: none
}

// Config is what a console serves and how.
type Config struct {
	// Repos are the repositories served (at least one; more with
	// --repos), the first the one a request naming none gets.
	Repos []Repo
	// Addr is the address the console listens on (host:port), the one
	// Host a request may name; a loopback address also answers to
	// localhost and the other loopback spellings of its port.
	Addr   string
	TLS    bool             // served over TLS: cookies are Secure, URLs https
	Now    func() time.Time // nil: time.Now
	Poll   time.Duration    // zero: DefaultPoll
	Random io.Reader        // nil: crypto/rand
	// HookToken, when not "", lets hooks on other machines file asks and
	// read their answers with it (remote.go); "" refuses them.
	HookToken string
	// Person names who answers an ask filed from another machine with
	// verdict (the person's checks, run again for each answer): By and
	// User of the answer. Nil: such asks cannot be answered.
	Person func(ctx context.Context, asked asks.Ask, verdict string) (asks.Answer, error)
}

// Server is one console: its login, its session, its handler.
type Server struct {
	cfg   Config
	hosts map[string]bool

	mu      sync.Mutex
	login   string    // the one-time login token; "" once used
	issued  time.Time // when the login URL was made
	session string    // the logged-in session's token; "" before login
	csrf    string

	answering sync.Mutex // one answer at a time

	remote remoteAsks // the asks hooks on other machines filed
}

// New makes a console for cfg, with a fresh login token.
func New(cfg Config) (*Server, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Poll <= 0 {
		cfg.Poll = DefaultPoll
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	if len(cfg.Repos) == 0 {
		return nil, errors.New("console: no repository to serve")
	}
	seen := map[string]bool{}
	for _, rp := range cfg.Repos {
		if rp.Name == "" || seen[rp.Name] {
			return nil, fmt.Errorf("console: the repositories' names must be distinct and not empty: %q", rp.Name)
		}
		seen[rp.Name] = true
	}
	s := &Server{cfg: cfg, hosts: allowedHosts(cfg.Addr)}
	var err error
	if s.login, err = s.token(); err != nil {
		return nil, err
	}
	s.issued = cfg.Now()
	return s, nil
}

// token is 32 random bytes, hexadecimal.
func (s *Server) token() (string, error) {
	var b [32]byte
	if _, err := io.ReadFull(s.cfg.Random, b[:]); err != nil {
		return "", fmt.Errorf("console token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// LoginURL is the one-time URL that logs a browser (or curl -c) in.
func (s *Server) LoginURL() string {
	scheme := "http"
	if s.cfg.TLS {
		scheme = "https"
	}
	return scheme + "://" + s.cfg.Addr + "/login?token=" + s.login
}

// Serve serves the console on ln until ctx ends, then closes every
// connection, the live feeds' (which never end by themselves) included:
// over TLS with the certificate and key files when certFile is not "" (a
// Config with TLS set), else plain HTTP. An end through ctx is no error.
func (s *Server) Serve(ctx context.Context, ln net.Listener, certFile, keyFile string) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	stop := context.AfterFunc(ctx, func() { hs.Close() })
	defer stop()
	var err error
	if certFile != "" {
		err = hs.ServeTLS(ln, certFile, keyFile)
	} else {
		err = hs.Serve(ln)
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// allowedHosts are the Host values a request may carry: the address, and
// for a loopback one the other names of the same port (DNS rebinding
// brings a foreign name to 127.0.0.1).
func allowedHosts(addr string) map[string]bool {
	hosts := map[string]bool{strings.ToLower(addr): true}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return hosts
	}
	if IsLoopback(host) {
		for _, h := range []string{"127.0.0.1", "localhost", "::1"} {
			hosts[net.JoinHostPort(h, port)] = true
		}
	}
	return hosts
}

// IsLoopback reports whether host (a name or an address) is this
// machine's own: a console there needs no TLS.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ServeHTTP refuses, in this order: an API request without the session
// (401), a foreign Host (421) or Origin (403), a state-changing request
// without the CSRF token (403); then serves.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	if strings.HasPrefix(r.URL.Path, hookPrefix) {
		s.serveHook(w, r)
		return
	}
	api := strings.HasPrefix(r.URL.Path, "/api/")
	in := s.loggedIn(r)
	switch {
	case api && !in:
		fail(w, http.StatusUnauthorized, "no session: open the login URL intenthook console printed")
	case !s.hosts[strings.ToLower(r.Host)]:
		fail(w, http.StatusMisdirectedRequest, "this console does not answer to host "+fmt.Sprintf("%q", r.Host))
	case r.Header.Get("Origin") != "" && !s.sameOrigin(r.Header.Get("Origin")):
		fail(w, http.StatusForbidden, "request from another origin")
	case r.URL.Path == "/login":
		s.serveLogin(w, r)
	case !in:
		fail(w, http.StatusUnauthorized, "no session: open the login URL intenthook console printed")
	case r.Method != http.MethodGet && r.Method != http.MethodHead && !s.csrfOK(r):
		fail(w, http.StatusForbidden, "missing or wrong "+CSRFHeader+" header: echo the csrf cookie")
	default:
		s.route(w, r)
	}
}

// site is the console seen from one of its repositories: what a request
// naming it (?repo=NAME, else the first) is served from.
type site struct {
	*Server
	repo Repo
}

// siteOf is the site r names; false for a repository the console does not
// serve.
func (s *Server) siteOf(r *http.Request) (site, bool) {
	name := r.URL.Query().Get("repo")
	if name == "" {
		return site{s, s.cfg.Repos[0]}, true
	}
	for _, rp := range s.cfg.Repos {
		if rp.Name == name {
			return site{s, rp}, true
		}
	}
	return site{}, false
}

// RepoInfo is a repository of GET /api/repos: the repositories served,
// the first the default.
type RepoInfo struct {
	Name string `json:"name"`
	Root string `json:"root"`
}

func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	switch {
	case path == "/" && r.Method == http.MethodGet:
		asset(w, "page/index.html", "text/html; charset=utf-8")
		return
	case path == "/app.js" && r.Method == http.MethodGet:
		asset(w, "page/app.js", "text/javascript; charset=utf-8")
		return
	case path == "/api/repos" && r.Method == http.MethodGet:
		out := make([]RepoInfo, 0, len(s.cfg.Repos))
		for _, rp := range s.cfg.Repos {
			out = append(out, RepoInfo{Name: rp.Name, Root: rp.Root})
		}
		writeJSON(w, out)
		return
	}
	st, ok := s.siteOf(r)
	if !ok {
		fail(w, http.StatusNotFound, "no such repository: "+fmt.Sprintf("%q", r.URL.Query().Get("repo")))
		return
	}
	st.route(w, r, path)
}

func (s site) route(w http.ResponseWriter, r *http.Request, path string) {
	switch {
	case path == "/api/pending" && r.Method == http.MethodGet:
		s.servePending(w)
	case strings.HasPrefix(path, "/api/pending/") && r.Method == http.MethodPost:
		s.serveAnswer(w, r, strings.TrimPrefix(path, "/api/pending/"))
	case path == "/api/intents" && r.Method == http.MethodGet:
		s.serveIntents(w)
	case path == "/api/reviews" && r.Method == http.MethodGet:
		s.serveReviews(w, r)
	case strings.HasPrefix(path, "/api/reviews/") && r.Method == http.MethodPost:
		s.serveReview(w, r, strings.TrimPrefix(path, "/api/reviews/"))
	case path == "/api/rollup" && r.Method == http.MethodGet:
		s.serveRollup(w, r)
	case path == "/api/blame" && r.Method == http.MethodGet:
		s.serveBlame(w, r)
	case path == "/api/events" && r.Method == http.MethodGet:
		s.serveEvents(w, r)
	default:
		fail(w, http.StatusNotFound, "no such page")
	}
}

// asset serves an embedded file: the page and its script, nothing from
// elsewhere (the policy allows no other origin, no inline script).
func asset(w http.ResponseWriter, name, contentType string) {
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
	w.Header().Set("Content-Type", contentType)
	b, _ := page.ReadFile(name)
	w.Write(b)
}

// sameOrigin reports whether origin is the console's own.
func (s *Server) sameOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Path != "" || u.User != nil {
		return false
	}
	want := "http"
	if s.cfg.TLS {
		want = "https"
	}
	return u.Scheme == want && s.hosts[strings.ToLower(u.Host)]
}

// serveLogin takes the one-time token: once, within LoginTTL; it sets the
// session and CSRF cookies and sends the browser to the page.
func (s *Server) serveLogin(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		fail(w, http.StatusMethodNotAllowed, "the login URL is opened with GET")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	got := r.URL.Query().Get("token")
	switch {
	case s.login == "" || !equal(got, s.login):
		fail(w, http.StatusForbidden, "this login URL is not valid, or was used already: restart intenthook console for a new one")
		return
	case s.cfg.Now().Sub(s.issued) > LoginTTL:
		s.login = ""
		fail(w, http.StatusForbidden, "this login URL expired (it works for 5 minutes): restart intenthook console for a new one")
		return
	}
	session, err := s.token()
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	csrf, err := s.token()
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	s.login, s.session, s.csrf = "", session, csrf
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: session, Path: "/", HttpOnly: true, Secure: s.cfg.TLS, SameSite: http.SameSiteStrictMode})
	http.SetCookie(w, &http.Cookie{Name: CSRFCookie, Value: csrf, Path: "/", Secure: s.cfg.TLS, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) loggedIn(r *http.Request) bool {
	c, err := r.Cookie(SessionCookie)
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.session != "" && equal(c.Value, s.session)
}

// csrfOK: the header echoes the session's CSRF token.
func (s *Server) csrfOK(r *http.Request) bool {
	h := r.Header.Get(CSRFHeader)
	s.mu.Lock()
	defer s.mu.Unlock()
	return h != "" && s.csrf != "" && equal(h, s.csrf)
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// fail answers with status and a JSON error.
func fail(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// Pending is a pending ask as the API gives it: intenthook's fields, and
// what the agent wrote (its command, its files) apart and labelled.
type Pending struct {
	ID       string    `json:"id"`
	Session  string    `json:"session"`
	Agent    string    `json:"agent,omitempty"`
	AgentID  string    `json:"agent_id,omitempty"`
	Intent   string    `json:"intent,omitempty"`
	Tool     string    `json:"tool"`
	Code     string    `json:"code,omitempty"`
	Why      string    `json:"why"` // intenthook's message
	Created  time.Time `json:"created"`
	Deadline time.Time `json:"deadline"`
	// Remote: a hook on another machine filed the ask (ask.console),
	// named Machine; its answer is recorded there.
	Remote  bool   `json:"remote,omitempty"`
	Machine string `json:"machine,omitempty"`
	// AgentText is the call as the agent wrote it.
	AgentText AgentText `json:"agent_text"`
}

// AgentText is text an agent wrote, labelled as such (written_by:
// "agent"): a page shows it fenced, never as markup.
type AgentText struct {
	WrittenBy string `json:"written_by"`
	Target    string `json:"target,omitempty"`
	// Files are the files an agent's writes changed (the intents board, a
	// review's submission).
	Files []string `json:"files,omitempty"`
	// Diff is a review's diff of those files.
	Diff string `json:"diff,omitempty"`
	// Lines are a file's lines, each with its newline (GET /api/blame):
	// agents wrote some of them.
	Lines []string `json:"lines,omitempty"`
}

func pendingOf(a asks.Ask) Pending {
	return Pending{ID: a.ID, Session: a.Session, Agent: a.Agent, AgentID: a.AgentID, Intent: a.Intent, Tool: a.Tool, Code: a.Code,
		Why: a.Why, Created: a.Created, Deadline: a.Deadline, AgentText: AgentText{WrittenBy: "agent", Target: a.Target}}
}

func (s site) pending() ([]Pending, error) {
	now := s.cfg.Now()
	list, err := asks.For(s.repo.Root).Pending(now)
	out := make([]Pending, 0, len(list))
	for _, a := range list {
		out = append(out, pendingOf(a))
	}
	if s.repo.Name == s.cfg.Repos[0].Name {
		// Asks filed from other machines name no repository of this
		// console's: the first one shows them.
		out = append(out, s.remotePending(now)...)
	}
	return out, err
}

func (s site) servePending(w http.ResponseWriter) {
	list, err := s.pending()
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, list)
}

// decisionBody is the body of POST /api/pending/{id} and POST
// /api/reviews/{id}: a person's decision, and the reason told to the agent.
type decisionBody struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// readDecision reads a decisionBody whose decision is yes or no, a no
// needing a reason (named noun in the error); false when it answered the
// request with the error.
func readDecision(w http.ResponseWriter, r *http.Request, yes, no, noun string) (decisionBody, bool) {
	var body decisionBody
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		fail(w, http.StatusBadRequest, fmt.Sprintf("the body is {\"decision\": \"%s\"|\"%s\", \"reason\": \"…\"}: %v", yes, no, err))
		return body, false
	}
	body.Reason = strings.TrimSpace(body.Reason)
	switch {
	case body.Decision != yes && body.Decision != no:
		fail(w, http.StatusBadRequest, fmt.Sprintf("decision is %q, want %s or %s", body.Decision, yes, no))
		return body, false
	case body.Decision == no && body.Reason == "":
		fail(w, http.StatusBadRequest, "a "+noun+" needs a reason: the agent is told why")
		return body, false
	}
	return body, true
}

// Answered is what POST /api/pending/{id} returns: the ask answered and
// who answered it.
type Answered struct {
	ID       string `json:"id"`
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
	By       string `json:"by,omitempty"`
	User     string `json:"user,omitempty"`
	WaitedMS int64  `json:"waited_ms"`
}

func (s site) serveAnswer(w http.ResponseWriter, r *http.Request, id string) {
	body, ok := readDecision(w, r, asks.Allow, asks.Deny, "deny")
	if !ok {
		return
	}
	s.answering.Lock()
	asked, ans, err := s.answerRemote(r, id, body.Decision, body.Reason)
	if errors.Is(err, errNotRemote) {
		asked, ans, err = s.repo.Answer(r.Context(), id, body.Decision, body.Reason)
	}
	s.answering.Unlock()
	switch {
	case errors.Is(err, asks.ErrNoAsk):
		fail(w, http.StatusNotFound, err.Error())
		return
	case err != nil:
		fail(w, http.StatusConflict, err.Error())
		return
	}
	rec := asks.RecordOf(asked, ans)
	writeJSON(w, Answered{ID: asked.ID, Decision: ans.Verdict, Reason: ans.Reason, By: ans.By, User: ans.User, WaitedMS: rec.WaitedMS})
}
