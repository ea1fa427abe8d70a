package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/intenthook/intenthook/internal/ledger"
)

const catalog = `active_intents:
  - {id: INT-001, name: Hooks, status: IN_PROGRESS, owned_scope: ["src/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-002, name: Old, status: ARCHIVED, owned_scope: ["old/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
`

// build compiles the real server once per test binary run.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "intenthook-mcp")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func workspaceWith(t *testing.T, cat string) string {
	t.Helper()
	root := t.TempDir()
	if cat == "" {
		return root
	}
	if err := os.MkdirAll(filepath.Join(root, ".orchestration"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".orchestration", "active_intents.yaml"), []byte(cat), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func connect(t *testing.T, bin, root string, args ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cmd := exec.Command(bin, args...)
	cmd.Dir = root
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func TestToolsList(t *testing.T) {
	bin := build(t)
	cs := connect(t, bin, workspaceWith(t, catalog))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"select_active_intent": {"intent_id"},
		"list_intents":         nil,
		"get_intent_context":   {"intent_id"},
		"why":                  {"path"},
		"record_lesson":        {"text"},
		"request_scope_change": {"intent_id", "reason"},
		"submit_for_review":    {"intent_id"},
	}
	if len(res.Tools) != len(want) {
		t.Errorf("got %d tools, want %d", len(res.Tools), len(want))
	}
	for _, tool := range res.Tools {
		required, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Type     string   `json:"type"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(schema, &s); err != nil || s.Type != "object" {
			t.Errorf("%s schema %s", tool.Name, schema)
		}
		if strings.Join(s.Required, ",") != strings.Join(required, ",") {
			t.Errorf("%s requires %v, want %v", tool.Name, s.Required, required)
		}
	}
}

func TestTools(t *testing.T) {
	bin := build(t)
	root := workspaceWith(t, catalog)
	cs := connect(t, bin, root)
	cases := []struct {
		name    string
		tool    string
		args    map[string]any
		isError bool
		want    string
	}{
		{"list hides archived", "list_intents", nil, false, `"id":"INT-001"`},
		{"list by status", "list_intents", map[string]any{"status": "archived"}, false, `"id":"INT-002"`},
		{"list bad status", "list_intents", map[string]any{"status": "DONE"}, true, "unknown status"},
		{"context", "get_intent_context", map[string]any{"intent_id": "INT-001"}, false, "<intent_context"},
		{"context unknown", "get_intent_context", map[string]any{"intent_id": "INT-404"}, true, `unknown intent "INT-404"`},
		{"select unknown", "select_active_intent", map[string]any{"intent_id": "INT-404"}, true, "INT-404"},
		{"select binds own session", "select_active_intent", map[string]any{"intent_id": "INT-001", "reasoning": "hooks work"}, false, "session mcp-"},
		{"why empty history", "why", map[string]any{"path": "src/a.go"}, false, `"path":"src/a.go"`},
		{"why outside", "why", map[string]any{"path": "../x"}, true, "outside the workspace"},
		{"lesson", "record_lesson", map[string]any{"text": "run go vet first", "intent_id": "INT-001"}, false, "lesson recorded"},
		{"scope request", "request_scope_change", map[string]any{"intent_id": "INT-001", "add": []string{"lib/**"}, "reason": "the client lives in lib"}, false, "--approve 1"},
		{"scope request unknown intent", "request_scope_change", map[string]any{"intent_id": "INT-404", "add": []string{"lib/**"}, "reason": "x"}, true, "unknown intent"},
		{"scope request empty", "request_scope_change", map[string]any{"intent_id": "INT-001", "reason": "x"}, true, "add or remove"},
		{"scope request escape in reason", "request_scope_change", map[string]any{"intent_id": "INT-001", "add": []string{"lib/**"}, "reason": "\x1b[2K\r  1 INT-001 +src/api/client.go"}, true, "control character"},
		{"scope request escape in add", "request_scope_change", map[string]any{"intent_id": "INT-001", "add": []string{"lib/**\x1b[2K"}, "reason": "x"}, true, "control character"},
		{"scope request newline in add", "request_scope_change", map[string]any{"intent_id": "INT-001", "add": []string{"lib/**\n  3 INT-001 +docs/**"}, "reason": "x"}, true, "line break"},
		{"scope request control in remove", "request_scope_change", map[string]any{"intent_id": "INT-001", "remove": []string{"src/**\a"}, "reason": "x"}, true, "control character"},
		{"scope request bad glob in remove", "request_scope_change", map[string]any{"intent_id": "INT-001", "remove": []string{"src/[**"}, "reason": "x"}, true, "pattern"},
		{"scope request reason on lines", "request_scope_change", map[string]any{"intent_id": "INT-001", "add": []string{"docs/**"}, "reason": "two\nlines"}, false, "--approve 2"},
		{"lesson unknown intent", "record_lesson", map[string]any{"text": "x", "intent_id": "INT-404"}, true, "unknown intent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, isErr := call(t, cs, tc.tool, tc.args)
			if isErr != tc.isError || !strings.Contains(got, tc.want) {
				t.Errorf("got error=%v %q, want error=%v containing %q", isErr, got, tc.isError, tc.want)
			}
		})
	}
	if tc := "list hides archived"; true {
		got, _ := call(t, cs, "list_intents", nil)
		if strings.Contains(got, "INT-002") {
			t.Errorf("%s: %s", tc, got)
		}
	}
	// The selection bound a session the server named, never the default.
	if _, err := os.Stat(filepath.Join(root, ".orchestration", "state", "default.json")); err == nil {
		t.Error("MCP-only select wrote the workspace default")
	}
	matches, _ := filepath.Glob(filepath.Join(root, ".orchestration", "state", "sessions", "mcp-*.json"))
	if len(matches) != 1 {
		t.Errorf("sessions bound: %v", matches)
	}
	lessons, _ := os.ReadFile(filepath.Join(root, ".orchestration", "CLAUDE.md"))
	if !strings.Contains(string(lessons), "] note (by an agent over MCP) on INT-001: run go vet first\n") {
		t.Errorf("lessons file: %s", lessons)
	}
	if data, _ := os.ReadFile(filepath.Join(root, ".orchestration", "state", "scope_requests.json")); !strings.Contains(string(data), `"reason": "two lines"`) {
		t.Errorf("a reason's line break was kept:\n%s", data)
	}
	if data, _ := os.ReadFile(filepath.Join(root, ".orchestration", "active_intents.yaml")); string(data) != catalog {
		t.Errorf("a scope request changed the catalog:\n%s", data)
	}
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "intenthook://catalog"})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != catalog {
		t.Errorf("catalog resource: %v %+v", err, res)
	}
	// The client selected INT-001 above: the resource is its context.
	res, err = cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "intenthook://active-intent"})
	if err != nil || len(res.Contents) != 1 || !strings.HasPrefix(res.Contents[0].Text, `<intent_context id="INT-001"`) {
		t.Errorf("active-intent resource: %v %+v", err, res)
	}
}

func TestActiveIntentBeforeSelection(t *testing.T) {
	bin := build(t)
	for _, mode := range []struct {
		args []string
		want string
	}{{nil, "No intent is selected for this client"}, {[]string{"-hooks"}, "the selection belongs to the agent's session"}} {
		cs := connect(t, bin, workspaceWith(t, catalog), mode.args...)
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "intenthook://active-intent"})
		if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, mode.want) {
			t.Errorf("%v: %v %+v", mode.args, err, res)
		}
	}
}

func TestHookModeOnlyAnswers(t *testing.T) {
	bin := build(t)
	root := workspaceWith(t, catalog)
	cs := connect(t, bin, root, "-hooks")
	got, isErr := call(t, cs, "select_active_intent", map[string]any{"intent_id": "INT-001"})
	if isErr || !strings.Contains(got, "<intent_context") {
		t.Fatalf("got error=%v %q", isErr, got)
	}
	if m, _ := filepath.Glob(filepath.Join(root, ".orchestration", "state", "sessions", "*.json")); len(m) != 0 {
		t.Errorf("hook mode bound sessions itself: %v", m)
	}
}

func TestErrors(t *testing.T) {
	bin := build(t)
	cases := []struct {
		name, catalog, tool, want string
		args                      map[string]any
	}{
		{"no governed root", "", "list_intents", "active_intents.yaml", nil},
		{"invalid catalog", "active_intents: [\n", "list_intents", "", nil},
		{"invalid intent", "active_intents:\n  - {id: INT-001, status: NOPE, owned_scope: []}\n", "get_intent_context", "INT-001", map[string]any{"intent_id": "INT-001"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cs := connect(t, bin, workspaceWith(t, tc.catalog))
			got, isErr := call(t, cs, tc.tool, tc.args)
			if !isErr || !strings.Contains(got, tc.want) {
				t.Errorf("got error=%v %q, want an error containing %q", isErr, got, tc.want)
			}
		})
	}
}

const reviewCatalog = `active_intents:
  - {id: INT-001, name: Reviewed, status: IN_PROGRESS, review: required, owned_scope: ["src/**"], constraints: [], acceptance_criteria: [{description: done, check: "test -f done"}], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-002, name: Slow, status: IN_PROGRESS, review: required, owned_scope: ["lib/**"], constraints: [], acceptance_criteria: [{description: slow, check: "sleep 1"}], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-003, name: Free, status: IN_PROGRESS, owned_scope: ["doc/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
`

// submit_for_review runs the checks: failing, the intent stays IN_PROGRESS
// and the check is named; passing, IN_REVIEW. Checks that outlast the wait
// are answered "checks running" and finish in the background.
func TestSubmitForReview(t *testing.T) {
	bin := build(t)
	root := workspaceWith(t, reviewCatalog)
	cs := connect(t, bin, root, "-submit-wait", "300ms")
	catalog := func() string {
		b, _ := os.ReadFile(filepath.Join(root, ".orchestration", "active_intents.yaml"))
		return string(b)
	}
	if got, isErr := call(t, cs, "submit_for_review", map[string]any{"intent_id": "INT-001"}); !isErr || !strings.Contains(got, "works on no intent INT-001") {
		t.Errorf("unselected: error=%v %q", isErr, got)
	}
	call(t, cs, "select_active_intent", map[string]any{"intent_id": "INT-001"})
	got, isErr := call(t, cs, "submit_for_review", map[string]any{"intent_id": "INT-001"})
	if isErr || !strings.Contains(got, "✗ done: failed") || !strings.Contains(got, "INT-001 stays IN_PROGRESS: not met: done") {
		t.Errorf("failing check: error=%v %q", isErr, got)
	}
	if err := os.WriteFile(filepath.Join(root, "done"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, isErr = call(t, cs, "submit_for_review", map[string]any{"intent_id": "INT-001"})
	if isErr || !strings.Contains(got, "INT-001: IN_PROGRESS -> IN_REVIEW") || !strings.Contains(catalog(), "id: INT-001, name: Reviewed, status: IN_REVIEW") {
		t.Errorf("passing check: error=%v %q\n%s", isErr, got, catalog())
	}

	call(t, cs, "select_active_intent", map[string]any{"intent_id": "INT-002"})
	got, isErr = call(t, cs, "submit_for_review", map[string]any{"intent_id": "INT-002"})
	if isErr || !strings.HasPrefix(got, "Checks running: INT-002's acceptance checks take longer than 300ms") {
		t.Errorf("slow check: error=%v %q", isErr, got)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(catalog(), "name: Slow, status: IN_REVIEW") {
		if time.Now().After(deadline) {
			t.Fatalf("the background submission never finished:\n%s", catalog())
		}
		time.Sleep(100 * time.Millisecond)
	}

	call(t, cs, "select_active_intent", map[string]any{"intent_id": "INT-003"})
	if got, isErr := call(t, cs, "submit_for_review", map[string]any{"intent_id": "INT-003"}); !isErr || !strings.Contains(got, "does not require review") {
		t.Errorf("no review: error=%v %q", isErr, got)
	}
}

// With hooks, the server acts only on a submission the hook recorded.
func TestSubmitForReviewNeedsTheHook(t *testing.T) {
	bin := build(t)
	root := workspaceWith(t, reviewCatalog)
	cs := connect(t, bin, root, "-hooks")
	got, isErr := call(t, cs, "submit_for_review", map[string]any{"intent_id": "INT-001"})
	if !isErr || !strings.Contains(got, "no submission of INT-001 was seen by the hook") {
		t.Errorf("error=%v %q", isErr, got)
	}
}

// TestSelectRecord: a selection made by the server alone (no hooks run in
// the agent) appends a select record, with the reasoning kept as agent
// text; in hook mode the hook appended it, and the server adds none.
func TestSelectRecord(t *testing.T) {
	bin := build(t)
	for _, mode := range []struct {
		args []string
		want int
	}{{nil, 1}, {[]string{"-hooks"}, 0}} {
		root := workspaceWith(t, catalog)
		cs := connect(t, bin, root, mode.args...)
		if got, isErr := call(t, cs, "select_active_intent", map[string]any{"intent_id": "INT-001", "reasoning": "hooks work\nnext line"}); isErr {
			t.Fatalf("%v: select: %s", mode.args, got)
		}
		var selects []ledger.Record
		err := ledger.Scan(root, func(_ []byte, rec *ledger.Record, err error) error {
			if err != nil {
				return err
			}
			if rec.Metadata.Intenthook.Event == ledger.EventSelect {
				selects = append(selects, *rec)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%v: scan: %v", mode.args, err)
		}
		if len(selects) != mode.want {
			t.Fatalf("%v: %d select records, want %d", mode.args, len(selects), mode.want)
		}
		if mode.want == 0 {
			continue
		}
		m := selects[0].Metadata.Intenthook
		if m.IntentID != "INT-001" || !strings.HasPrefix(m.SessionID, "mcp-") || m.ToolName != "select_active_intent" ||
			m.Reason != `reasoning written by the agent: "hooks work\nnext line"` {
			t.Errorf("select record: %+v", m)
		}
	}
}

// buildPerson compiles the person's intenthook (and intenthook-full, which
// it hands people's commands to) into one directory.
func buildPerson(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, pkg := range []string{"../intenthook", "../intenthook-full"} {
		out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator), pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	return filepath.Join(dir, "intenthook")
}

// TestScopeRequestWaitsForAPerson: with ask.via: wait, request_scope_change
// files a pending ask and holds the call until a person answers it with
// intenthook ask from a process of their own: allow approves the request
// (the catalog gains the pattern, the agent is told the new scope), deny
// rejects it (the catalog is unchanged, the agent reads the person's
// reason); no answer in time leaves the request filed, as without the
// setting.
func TestScopeRequestWaitsForAPerson(t *testing.T) {
	bin, person := build(t), buildPerson(t)
	root := workspaceWith(t, catalog)
	for _, args := range [][]string{{"init", "-q"}, {"config", "user.email", "p@example.com"}, {"config", "user.name", "P"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	config := filepath.Join(root, ".orchestration", "config.yaml")
	if err := os.WriteFile(config, []byte("ask:\n  via: wait\n  timeout: 30s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, bin, root, "-hooks")

	intenthook := func(args ...string) (string, error) {
		cmd := exec.Command(person, args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	// answer waits for the one pending ask, checks what a person is
	// shown, and answers it.
	answer := func(want string, verdict ...string) string {
		t.Helper()
		for range 400 {
			out, err := intenthook("ask", "--json")
			if err != nil {
				t.Fatalf("intenthook ask --json: %v\n%s", err, out)
			}
			var pending []struct {
				ID           string `json:"id"`
				Code         string `json:"code"`
				Target       string `json:"target"`
				ScopeRequest int    `json:"scope_request"`
			}
			if err := json.Unmarshal([]byte(out), &pending); err != nil {
				t.Fatalf("intenthook ask --json: %v\n%s", err, out)
			}
			if len(pending) == 0 {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			p := pending[0]
			if p.Code != "scope_request" || p.Target != want || p.ScopeRequest == 0 {
				t.Fatalf("pending ask %+v, want a scope_request for %q", p, want)
			}
			listed, _ := intenthook("ask")
			if !strings.Contains(listed, "an agent asks that intent INT-001 (Hooks) own "+want) {
				t.Errorf("intenthook ask shows:\n%s", listed)
			}
			out, err = intenthook(append([]string{"ask"}, append(verdict, p.ID)...)...)
			if err != nil {
				t.Fatalf("intenthook ask %v: %v\n%s", verdict, err, out)
			}
			return out
		}
		t.Fatal("no pending ask appeared")
		return ""
	}
	catalogNow := func() string {
		data, err := os.ReadFile(filepath.Join(root, ".orchestration", "active_intents.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}

	// Allowed: approved by the answer itself.
	done := make(chan string, 1)
	go func() {
		got, _ := call(t, cs, "request_scope_change", map[string]any{"intent_id": "INT-001", "add": []string{"lib/**"}, "reason": "the client lives in lib"})
		done <- got
	}()
	out := answer("+lib/**", "allow")
	if !strings.Contains(out, "INT-001: scope request 1 approved: granted +lib/**; owned_scope now src/**, lib/**") {
		t.Errorf("ask allow printed:\n%s", out)
	}
	got := <-done
	if !strings.Contains(got, "Scope request 1 for INT-001 approved by P <p@example.com>, OS user ") || !strings.Contains(got, "owned_scope is now src/**, lib/**") {
		t.Errorf("the agent was told %q", got)
	}
	if !strings.Contains(catalogNow(), "lib/**") {
		t.Errorf("the catalog did not gain lib/**:\n%s", catalogNow())
	}

	// Denied: rejected, with the person's reason.
	go func() {
		got, _ := call(t, cs, "request_scope_change", map[string]any{"intent_id": "INT-001", "add": []string{"docs/**"}, "reason": "the docs too"})
		done <- got
	}()
	out = answer("+docs/**", "deny", "--reason", "docs belong to INT-009")
	if !strings.Contains(out, "INT-001: scope request 2 rejected") {
		t.Errorf("ask deny printed:\n%s", out)
	}
	got = <-done
	if !strings.Contains(got, "Scope request 2 for INT-001 rejected by P <p@example.com>") ||
		!strings.Contains(got, "<ask_answer ask=") || !strings.Contains(got, "docs belong to INT-009") {
		t.Errorf("the agent was told %q", got)
	}
	if strings.Contains(catalogNow(), "docs/**") {
		t.Errorf("a rejected request changed the catalog:\n%s", catalogNow())
	}
	if out, _ := intenthook("intents", "scope", "INT-001"); !strings.Contains(out, "no pending scope requests") {
		t.Errorf("requests left pending:\n%s", out)
	}

	// No answer in time: the request stays filed for a person to decide.
	if err := os.WriteFile(config, []byte("ask:\n  via: wait\n  timeout: 1s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _ = call(t, cs, "request_scope_change", map[string]any{"intent_id": "INT-001", "add": []string{"tests/**"}, "reason": "tests"})
	if !strings.Contains(got, "No one answered ask ") || !strings.Contains(got, "intenthook intents scope INT-001 --approve 3") {
		t.Errorf("the agent was told %q", got)
	}
	if out, _ := intenthook("intents", "scope", "INT-001"); !strings.Contains(out, "  3 +tests/**") {
		t.Errorf("the request is not pending:\n%s", out)
	}
	if out, _ := intenthook("ask"); !strings.Contains(out, "no pending asks") {
		t.Errorf("the lapsed ask is still listed:\n%s", out)
	}

	// The ledger names who approved and who rejected.
	out, err := intenthook("ledger", "query", "--json")
	if err != nil {
		t.Fatalf("ledger query: %v\n%s", err, out)
	}
	for _, want := range []string{`"event":"amend"`, `"event":"ask_answer"`, `"decision":"deny",`, `"reason":"docs belong to INT-009","answer":{"ask":`, `"by":"P <p@example.com>"`} {
		if !strings.Contains(out, want) {
			t.Errorf("ledger lacks %s:\n%s", want, out)
		}
	}
}
