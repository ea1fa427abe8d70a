// Package mcpserver is intenthook's MCP server: the tools an agent uses to
// talk to the governance (select an intent, list intents, read an intent's
// context, ask who changed a file, record a lesson, ask for a scope change)
// and the catalog as a resource. It holds no rules of its own: every answer comes from the
// workspace, selection, ledger and lessons packages. It lives outside the
// hook binary so that a hook call never pays for the MCP SDK's start-up.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/intentctx"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/lessons"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/review"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/scopereq"
	"github.com/intenthook/intenthook/internal/selection"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Options configure one server.
type Options struct {
	Root    string // --root; "" walks up from the working directory
	Version string
	// HookMode says the agent runs intenthook's hooks: PreToolUse binds
	// select_active_intent to the agent's session, so the server only
	// answers. Without hooks the server binds a session of its own.
	HookMode bool
	Getenv   func(string) string
	Now      func() time.Time
	// SubmitWait is how long submit_for_review waits for the checks before
	// answering that they are still running (they finish in the
	// background); 0 means 45 s, under the tool timeouts agents use.
	SubmitWait time.Duration
}

// server answers one client. session is the per-client session it names in
// MCP-only mode: never the workspace default, which is a person's lever.
type server struct {
	opt     Options
	session string
}

// New builds the MCP server with its tools and resources.
func New(opt Options) *mcp.Server {
	if opt.Getenv == nil {
		opt.Getenv = os.Getenv
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	s := &server{opt: opt, session: "mcp-" + uuid.NewString()}
	srv := mcp.NewServer(&mcp.Implementation{Name: "intenthook", Version: opt.Version}, nil)
	mcp.AddTool(srv, &mcp.Tool{
		Name: "select_active_intent",
		Description: "Select the intent you will work on before writing any file. " +
			"Writes are only allowed inside the selected intent's owned_scope. " +
			"Answers with the intent's context: scope, constraints, acceptance criteria, recent changes.",
	}, s.selectIntent)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "list_intents",
		Description: "List the intents of this workspace (id, name, status, owned scope). By default every intent that is not ARCHIVED.",
	}, s.listIntents)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "get_intent_context",
		Description: "Read one intent's context (scope, constraints, acceptance criteria, related specs, recent changes) without selecting it.",
	}, s.intentContext)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "why",
		Description: "Explain why a file is the way it is: which intents, sessions and tools changed it, newest first.",
	}, s.why)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "record_lesson",
		Description: "Record a lesson for future sessions (something that failed, a convention you discovered). Keep it to one or two sentences.",
	}, s.recordLesson)
	mcp.AddTool(srv, &mcp.Tool{
		Name: "request_scope_change",
		Description: "Ask a person to widen or narrow an intent's owned_scope when the task needs files outside it. " +
			"This never changes the catalog: it files a pending request that a person approves or rejects; until then writes outside the scope stay denied.",
	}, s.requestScope)
	mcp.AddTool(srv, &mcp.Tool{
		Name: "submit_for_review",
		Description: "Submit the intent you work on for a person's review when its work is done (intents with review: required). " +
			"Its acceptance checks run: all passing, it becomes IN_REVIEW and writes under it stop until a person approves or rejects it; " +
			"a failing check keeps it IN_PROGRESS and is named. Long checks finish in the background.",
	}, s.submit)
	srv.AddResource(&mcp.Resource{
		URI:         "intenthook://catalog",
		Name:        "catalog",
		Description: "The intent catalog, .orchestration/active_intents.yaml",
		MIMEType:    "application/yaml",
	}, s.catalog)
	srv.AddResource(&mcp.Resource{
		URI:         "intenthook://active-intent",
		Name:        "active intent",
		Description: "The <intent_context> of the intent this client selected (MCP-only mode); with hooks, the hook holds the selection and this says so",
		MIMEType:    "text/plain",
	}, s.activeIntent)
	return srv
}

// activeIntent reads the context of the intent bound to this client's
// session. In hook mode the server does not know the agent's session: the
// hook injects the context itself, and the resource says where to look.
func (s *server) activeIntent(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	ws, err := s.workspace()
	if err != nil {
		return nil, err
	}
	body := "No intent is selected for this client: call select_active_intent (list_intents shows the ids)."
	if s.opt.HookMode {
		body = "This agent runs intenthook's hooks: the selection belongs to the agent's session, and its context arrives with the hook's answers. Call get_intent_context for any intent."
	} else if sess, err := ws.Sessions.Read(s.session); err == nil && sess.Intent != "" {
		if in := ws.Catalog.Find(sess.Intent); in != nil {
			body = ws.IntentContext(in, "", review.Rejected(ws, in), ws.Budget())
		}
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: body}}}, nil
}

// SelectIn is select_active_intent's input.
type SelectIn struct {
	IntentID  string `json:"intent_id" jsonschema:"the id of the intent to work on, e.g. INT-001"`
	Reasoning string `json:"reasoning,omitempty" jsonschema:"why this intent fits the task (one sentence)"`
}

// ListIn is list_intents' input.
type ListIn struct {
	Status string `json:"status,omitempty" jsonschema:"only intents with this status: PENDING, IN_PROGRESS, IN_REVIEW, COMPLETE, BLOCKED or ARCHIVED"`
}

// IntentIn names one intent.
type IntentIn struct {
	IntentID string `json:"intent_id" jsonschema:"the id of the intent, e.g. INT-001"`
}

// WhyIn is why's input.
type WhyIn struct {
	Path string `json:"path" jsonschema:"the file, relative to the workspace root or absolute"`
}

// LessonIn is record_lesson's input.
type LessonIn struct {
	Text     string `json:"text" jsonschema:"the lesson, one or two sentences"`
	IntentID string `json:"intent_id,omitempty" jsonschema:"the intent the lesson belongs to"`
}

// ScopeIn is request_scope_change's input.
type ScopeIn struct {
	IntentID string   `json:"intent_id" jsonschema:"the intent whose owned_scope should change"`
	Add      []string `json:"add,omitempty" jsonschema:"glob patterns to add, e.g. src/api/**"`
	Remove   []string `json:"remove,omitempty" jsonschema:"glob patterns to remove"`
	Reason   string   `json:"reason" jsonschema:"why the task needs this change, for the person who decides"`
}

// IntentSummary is one intent as list_intents reports it.
type IntentSummary struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Status     string   `json:"status"`
	OwnedScope []string `json:"owned_scope"`
	Valid      bool     `json:"valid"`
}

// ListOut is list_intents' output.
type ListOut struct {
	Intents []IntentSummary `json:"intents"`
}

// Change is one ledger record as why reports it.
type Change struct {
	Timestamp string `json:"timestamp"`
	Intent    string `json:"intent,omitempty"`
	Session   string `json:"session,omitempty"`
	Tool      string `json:"tool,omitempty"`
}

// WhyOut is why's output.
type WhyOut struct {
	Path    string   `json:"path"`
	Changes []Change `json:"changes"`
}

// root is the governed root of every call, looked up afresh so that a
// workspace initialised after the server started is found.
func (s *server) root() (string, error) {
	wd, _ := os.Getwd()
	return workspace.Locate(s.opt.Root, wd)
}

func (s *server) workspace() (*workspace.Workspace, error) {
	root, err := s.root()
	if err != nil {
		return nil, err
	}
	return workspace.Load(root, workspace.Governance(agent.Governance()), s.opt.Getenv, s.opt.Now)
}

// intent finds id in a catalog that can be trusted.
func intent(ws *workspace.Workspace, id string) (*intents.Intent, error) {
	if id == "" {
		return nil, errors.New("intent_id is required; call list_intents to see the ids")
	}
	in := ws.Catalog.Find(id)
	if in == nil {
		return nil, fmt.Errorf("unknown intent %q; call list_intents to see the ids", id)
	}
	if !in.Valid() {
		return nil, fmt.Errorf("intent %s is invalid in %s: %s; a person must fix the catalog", id, intents.File, strings.Join(in.Errors(), "; "))
	}
	return in, nil
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func (s *server) selectIntent(ctx context.Context, _ *mcp.CallToolRequest, in SelectIn) (*mcp.CallToolResult, any, error) {
	ws, err := s.workspace()
	if err != nil {
		return nil, nil, err
	}
	if s.opt.HookMode {
		// The PreToolUse hook bound the intent before this call reached us
		// (or denied it, and the call never came): answer with the context.
		it, err := intent(ws, in.IntentID)
		if err != nil {
			return nil, nil, err
		}
		return text(ws.SelectionContext(it, "", review.Rejected(ws, it), ws.Budget())), nil, nil
	}
	sel := selection.Selector{WS: ws, Editor: lifecycle.NewEditor(ws, s.session, "mcp__intenthook__select_active_intent", s.opt.Version)}
	res, err := sel.Select(ctx, selection.Who{Session: s.session}, in.IntentID)
	if err != nil {
		return nil, nil, err
	}
	if res.Intent == nil {
		return nil, nil, errors.New(full.Speak(res.Decision.Message))
	}
	// No hook runs in this agent: the server appends the select record a
	// hook would have (SPEC §6). A record that cannot be written leaves the
	// selection standing, as it does for a hook.
	rec := ledger.NewRecord(ws.Revision(), ledger.Meta{
		Event: ledger.EventSelect, IntentID: ledger.NullString(res.Intent.ID), SessionID: s.session, ToolName: "select_active_intent",
		ScopeValidation: "EXEMPT", Decision: "allow", Reason: selection.Reasoning(in.Reasoning),
	})
	warn := ""
	if err := ws.Ledger(s.opt.Version).Append(ctx, rec); err != nil {
		warn = fmt.Sprintf("intenthook: warning: the select record could not be written: %v\n", err)
	}
	note := warn + fmt.Sprintf("Selected %s for this MCP client's session %s (no hooks run in this agent, so the server holds the selection).\n", res.Intent.ID, s.session)
	return text(note + full.Speak(res.Decision.Context)), nil, nil
}

func (s *server) listIntents(_ context.Context, _ *mcp.CallToolRequest, in ListIn) (*mcp.CallToolResult, ListOut, error) {
	want := intents.Status(strings.ToUpper(in.Status))
	if want != "" && !want.Valid() {
		return nil, ListOut{}, fmt.Errorf("unknown status %q: use %s", in.Status, intents.StatusNames)
	}
	ws, err := s.workspace()
	if err != nil {
		return nil, ListOut{}, err
	}
	out := ListOut{Intents: []IntentSummary{}}
	for _, it := range ws.Catalog.All() {
		if (want == "" && it.Status == intents.Archived) || (want != "" && it.Status != want) {
			continue
		}
		out.Intents = append(out.Intents, IntentSummary{ID: it.ID, Name: it.Name, Status: string(it.Status), OwnedScope: it.OwnedScope, Valid: it.Valid()})
	}
	return nil, out, nil
}

func (s *server) intentContext(_ context.Context, _ *mcp.CallToolRequest, in IntentIn) (*mcp.CallToolResult, any, error) {
	ws, err := s.workspace()
	if err != nil {
		return nil, nil, err
	}
	it, err := intent(ws, in.IntentID)
	if err != nil {
		return nil, nil, err
	}
	return text(ws.IntentContext(it, "", review.Rejected(ws, it), ws.Budget())), nil, nil
}

func (s *server) why(_ context.Context, _ *mcp.CallToolRequest, in WhyIn) (*mcp.CallToolResult, WhyOut, error) {
	root, err := s.root()
	if err != nil {
		return nil, WhyOut{}, err
	}
	rel, err := relative(root, in.Path)
	if err != nil {
		return nil, WhyOut{}, err
	}
	recs, err := ledger.Blame(root, rel)
	if err != nil {
		return nil, WhyOut{}, err
	}
	out := WhyOut{Path: rel, Changes: []Change{}}
	for i := range recs {
		r := &recs[i]
		c := Change{Timestamp: r.Timestamp, Intent: r.Intent(), Session: r.Metadata.Intenthook.SessionID}
		if r.Metadata.Intenthook.ToolName != "" {
			c.Tool = r.Metadata.Intenthook.ToolName
		}
		out.Changes = append(out.Changes, c)
	}
	return nil, out, nil
}

// relative turns the path a model names into the root-relative, slash form
// the ledger keeps; a path outside the root has no history here.
func relative(root, p string) (string, error) {
	if p == "" {
		return "", errors.New("path is required")
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the workspace %s", p, root)
	}
	return filepath.ToSlash(rel), nil
}

func (s *server) recordLesson(ctx context.Context, _ *mcp.CallToolRequest, in LessonIn) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(in.Text) == "" {
		return nil, nil, errors.New("text is required")
	}
	ws, err := s.workspace()
	if err != nil {
		return nil, nil, err
	}
	if in.IntentID != "" {
		if _, err := intent(ws, in.IntentID); err != nil {
			return nil, nil, err
		}
	}
	if err := lessons.Note(ctx, ws.Root, ws.Config.LessonsFile, ws.Config.LockTimeout, in.Text, in.IntentID, "an agent over MCP", ws.Config.LessonsMax, s.opt.Now()); err != nil {
		return nil, nil, err
	}
	return text("lesson recorded in " + ws.Config.LessonsFile), nil, nil
}

func (s *server) requestScope(ctx context.Context, _ *mcp.CallToolRequest, in ScopeIn) (*mcp.CallToolResult, any, error) {
	ws, err := s.workspace()
	if err != nil {
		return nil, nil, err
	}
	if _, err := intent(ws, in.IntentID); err != nil {
		return nil, nil, err
	}
	req := scopereq.Request{IntentID: in.IntentID, Add: in.Add, Remove: in.Remove, Reason: in.Reason}
	if err := scopereq.CheckPatterns(req); err != nil {
		return nil, nil, err
	}
	for _, p := range append(slices.Clone(in.Add), in.Remove...) {
		if _, err := intents.MatchGlob(p, ""); err != nil {
			return nil, nil, fmt.Errorf("pattern %q: %w", p, err)
		}
	}
	session := ""
	if !s.opt.HookMode {
		session = s.session
	}
	store := scopereq.For(ws.Root, ws.Config.LockTimeout)
	req.Session = session
	r, err := store.Add(ctx, req, s.opt.Now())
	if err != nil {
		return nil, nil, err
	}
	filed := fmt.Sprintf("Scope request %d for %s filed; the catalog is unchanged.", r.N, r.IntentID)
	later := fmt.Sprintf(" A person decides with `intenthook intents scope %s --approve %d` (or --reject %d); until then writes outside the scope stay denied.", r.IntentID, r.N, r.N)
	if !ws.Config.Ask.Waits() {
		return text(filed + later), nil, nil
	}
	return text(s.awaitScopeAnswer(ctx, ws, r, filed, later)), nil, nil
}

// awaitScopeAnswer files scope request r as a pending ask (ask.via wait or
// console) and waits, up to ask.timeout, for a person's answer: given with
// intenthook ask or in the console, it approves or rejects the request
// itself, in the person's process. It returns what the agent is told.
func (s *server) awaitScopeAnswer(ctx context.Context, ws *workspace.Workspace, r scopereq.Request, filed, later string) string {
	now := s.opt.Now().UTC().Truncate(time.Millisecond)
	name := r.IntentID
	if in := ws.Catalog.Find(r.IntentID); in != nil && in.Name != "" {
		name += " (" + safetext.OneLine(in.Name) + ")"
	}
	store := asks.For(ws.Root)
	a, err := store.Open(asks.Ask{
		Session: r.Session, Intent: r.IntentID, Tool: "request_scope_change", Target: strings.Join(r.Change(), " "),
		Code: asks.CodeScopeRequest, ScopeRequest: r.N,
		Why:     fmt.Sprintf("intenthook: scope request %d: an agent asks that intent %s own %s\nthe agent's reason: %s", r.N, name, strings.Join(r.Change(), " "), r.Reason),
		Created: now, Deadline: now.Add(ws.Config.Ask.Timeout), PID: os.Getpid(), WorkTree: ws.Root,
	}, "")
	if err != nil {
		return filed + later + fmt.Sprintf(" (It could not wait for a person: %v.)", err)
	}
	defer store.Close(a.ID)
	ans, ok := store.Wait(ctx, a, asks.Poll, s.opt.Now, time.Sleep)
	switch {
	case !ok:
		return filed + fmt.Sprintf(" No one answered ask %s within %s (ask.timeout).", a.ID, ws.Config.Ask.Timeout) + later
	case ans.Verdict == asks.Allow:
		scope := "as the catalog now says"
		if fresh, err := s.workspace(); err == nil {
			if in := fresh.Catalog.Find(r.IntentID); in != nil {
				scope = strings.Join(safetext.QuoteAll(in.OwnedScope), ", ")
			}
		}
		return fmt.Sprintf("Scope request %d for %s approved by %s (ask %s): owned_scope is now %s. Your next calls are judged against it.", r.N, r.IntentID, ans.Who(), a.ID, scope)
	}
	msg := fmt.Sprintf("Scope request %d for %s rejected by %s (ask %s); the catalog is unchanged and writes outside the scope stay denied.", r.N, r.IntentID, ans.Who(), a.ID)
	if reason := strings.TrimSpace(ans.Reason); reason != "" {
		msg += fmt.Sprintf(" Their reason, in their own words:\n<ask_answer ask=%q written_by=\"person\">\n%s\n</ask_answer>", a.ID, intentctx.Text(safetext.Clip(reason, 2000)))
	}
	return msg + "\nDo not ask again for the same change; do what the reason asks, or ask the user how to go on."
}

// submit runs a submission: with hooks, the hook checked that the agent's
// session holds the intent and recorded the request this takes; without
// them, this client's session must hold it. The checks run apart from the
// call: when they outlast SubmitWait the answer says so, and they finish
// (and the transition is made) in the background.
func (s *server) submit(ctx context.Context, _ *mcp.CallToolRequest, in IntentIn) (*mcp.CallToolResult, any, error) {
	ws, err := s.workspace()
	if err != nil {
		return nil, nil, err
	}
	it, err := intent(ws, in.IntentID)
	if err != nil {
		return nil, nil, err
	}
	session := s.session
	if s.opt.HookMode {
		req, err := review.NewStore(ws).Take(ctx, it.ID, s.opt.Now())
		if err != nil {
			return nil, nil, fmt.Errorf("no submission of %s was seen by the hook: the agent's session must hold the intent (select it first)", it.ID)
		}
		session = req.Session
	} else if sess, err := ws.Sessions.Read(s.session); err != nil || sess.Intent != it.ID {
		return nil, nil, fmt.Errorf("this client works on no intent %s: select it with select_active_intent first", it.ID)
	}
	switch err := review.Submittable(it, ws.Config.Review.Default); {
	case errors.Is(err, review.ErrNoReview):
		return nil, nil, fmt.Errorf("%w: tell the user the work is done (a person runs intenthook intents verify %s)", err, it.ID)
	case err != nil:
		return nil, nil, err
	}
	ed := lifecycle.NewEditor(ws, session, "mcp__intenthook__submit_for_review", s.opt.Version)
	type outcome struct {
		out review.Outcome
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		// Not the call's context: the checks outlive an answered call.
		out, err := review.Submit(context.Background(), ed, ws.Root, it, 10*time.Minute)
		done <- outcome{out, err}
	}()
	wait := s.opt.SubmitWait
	if wait <= 0 {
		wait = 45 * time.Second
	}
	select {
	case o := <-done:
		if o.err != nil {
			return nil, nil, o.err
		}
		return text(submitText(it.ID, o.out)), nil, nil
	case <-time.After(wait):
		return text(fmt.Sprintf("Checks running: %s's acceptance checks take longer than %s and go on in the background. When they pass it becomes IN_REVIEW; a failing one keeps it IN_PROGRESS. See the outcome with `intenthook intents show %s` (or list_intents); do not change its files meanwhile.", it.ID, wait, it.ID)), nil, nil
	}
}

func submitText(id string, out review.Outcome) string {
	var b strings.Builder
	for _, r := range out.Results {
		fmt.Fprintf(&b, "%s %s: %s\n", r.Mark(), r.Description, r.Outcome)
	}
	if !out.Passed {
		fmt.Fprintf(&b, "%s stays IN_PROGRESS: not met: %s", id, strings.Join(review.Failing(out.Results), "; "))
		return b.String()
	}
	fmt.Fprintf(&b, "%s: IN_PROGRESS -> IN_REVIEW. A person approves it or rejects it with a reason, which you will be told; until then its files are not written.", id)
	return b.String()
}

func (s *server) catalog(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	root, err := s.root()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(intents.File)))
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/yaml", Text: string(data)}}}, nil
}
