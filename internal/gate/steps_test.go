package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/roles"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

const testCatalog = `active_intents:
  - {id: INT-001, name: Hooks, status: IN_PROGRESS, owned_scope: ["src/hooks/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-002, name: Pending, status: PENDING, owned_scope: ["x/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-003, name: Edits only, status: IN_PROGRESS, owned_scope: ["**"], allowed_tools: [Edit], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-004, name: Careful, status: IN_PROGRESS, owned_scope: ["**"], requires_approval: true, constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-005, name: Broken, status: IN_PROGRESS, owned_scope: [], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-006, name: Reviewed, status: IN_REVIEW, review: required, owned_scope: ["**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
`

// testGate builds a Gate over a snapshot without touching a workspace:
// the steps are pure over it (the file hash is given).
func testGate(t *testing.T, session *state.Session) *Gate {
	t.Helper()
	root := t.TempDir()
	c, err := intents.Parse([]byte(testCatalog))
	if err != nil {
		t.Fatal(err)
	}
	governance := workspace.Governance(agent.Governance())
	prot, _ := workspace.NewProtected(governance, true, nil)
	if session == nil {
		session = &state.Session{}
	}
	ws := &workspace.Workspace{
		Root:       root,
		Governance: governance,
		Config:     config.Default(),
		Catalog:    c,
		Protected:  prot,
		Ignore:     workspace.ParseIgnore([]byte("*.log\n")),
		Getenv:     os.Getenv,
		Now:        time.Now,
	}
	return &Gate{
		Workspace: ws,
		env:       &Env{},
		call:      &hook.Call{SessionID: "s1"},
		resolver:  workspace.NewResolver(root, root, []string{"/tmp/**"}, os.Getenv),
		session:   session,
	}
}

func TestCheckPath(t *testing.T) {
	g := testGate(t, nil)
	tests := []struct {
		path     string
		decided  bool
		verdict  hook.Verdict
		governed bool
	}{
		{"src/a.go", false, 0, true},
		{filepath.Join(g.Root, "src/a.go"), false, 0, true},
		{"/etc/passwd", true, hook.Deny, false},
		{"../../../../../../etc/passwd", true, hook.Deny, false},
		{"/tmp/scratch", true, hook.Allow, false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			tg := &target{given: tt.path, tool: "Write"}
			d := g.checkPath(tg)
			if (d != nil) != tt.decided || (d != nil && d.Verdict != tt.verdict) || tg.governed != tt.governed {
				t.Fatalf("checkPath = %+v governed=%v", d, tg.governed)
			}
			if d != nil && d.Verdict == hook.Deny && d.Code != hook.CodePathOutsideWorkspace {
				t.Errorf("code %s", d.Code)
			}
		})
	}
	g.Config.OutsideWorkspace = config.Allow
	if d := g.checkPath(&target{given: "/etc/passwd"}); d != allowStop {
		t.Errorf("outside_workspace: allow gave %+v", d)
	}
}

func TestCheckProtectedAndIgnored(t *testing.T) {
	g := testGate(t, nil)
	tests := []struct {
		rel  string
		step func(*Gate, *target) *hook.Decision
		want string // "" pass, "allow", or a deny code
	}{
		{".orchestration/active_intents.yaml", (*Gate).checkRules, hook.CodeProtectedPath},
		{".git/HEAD", (*Gate).checkRules, hook.CodeProtectedPath},
		{"lib/.orchestration/x", (*Gate).checkRules, hook.CodeProtectedPath},
		{"src/a.go", (*Gate).checkRules, hook.CodeIntentRequired}, // passed protected and ignored
		{"debug.log", (*Gate).checkRules, "allow"},
	}
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			tg := &target{tool: "Write", res: workspace.Resolved{Rel: tt.rel}}
			if got := outcome(tt.step(g, tg)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func outcome(d *hook.Decision) string {
	switch {
	case d == nil:
		return ""
	case d.Verdict == hook.Deny:
		return d.Code
	default:
		return d.Verdict.String()
	}
}

func TestIntentSteps(t *testing.T) {
	tests := []struct {
		name    string
		intent  string // the session's selection
		agent   string
		agentID string // the agent's own selection
		tool    string
		rel     string
		del     bool
		want    string
	}{
		{name: "no intent", rel: "src/hooks/a.go", tool: "Write", want: hook.CodeIntentRequired},
		{name: "unknown intent", intent: "INT-404", rel: "src/hooks/a.go", tool: "Write", want: hook.CodeIntentNotFound},
		{name: "pending", intent: "INT-002", rel: "x/a", tool: "Write", want: hook.CodeIntentNotInProgress},
		{name: "in review", intent: "INT-006", rel: "x/a", tool: "Write", want: hook.CodeIntentNotInProgress},
		{name: "invalid", intent: "INT-005", rel: "x/a", tool: "Write", want: hook.CodeCatalogInvalid},
		{name: "tool not allowed", intent: "INT-003", rel: "a", tool: "Write", want: hook.CodeToolNotAllowed},
		{name: "tool allowed", intent: "INT-003", rel: "a", tool: "Edit", want: "allow"},
		{name: "out of scope", intent: "INT-001", rel: "src/api/a.go", tool: "Write", want: hook.CodeScopeViolation},
		{name: "in scope", intent: "INT-001", rel: "src/hooks/deep/a.go", tool: "Write", want: "allow"},
		{name: "approval", intent: "INT-004", rel: "a", tool: "Write", want: "ask"},
		{name: "delete tool asks", intent: "INT-001", rel: "src/hooks/a.go", tool: "delete_file", del: true, want: "ask"},
		{name: "agent selection overrides", intent: "INT-001", agent: "sub", agentID: "INT-004", rel: "src/api/a.go", tool: "Write", want: "ask"},
		{name: "other agent keeps session's", intent: "INT-001", agent: "other", rel: "src/api/a.go", tool: "Write", want: hook.CodeScopeViolation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &state.Session{Intent: tt.intent}
			if tt.agentID != "" {
				s.Select(tt.agent, tt.agentID)
			}
			g := testGate(t, s)
			g.seen = map[string]string{}
			g.call.AgentID = tt.agent
			tg := &target{tool: tt.tool, delete: tt.del, res: workspace.Resolved{Rel: tt.rel}, governed: true, hash: func() string { return "" }}
			got := "allow"
			for _, st := range []step{{"", (*Gate).checkRules}, {"", (*Gate).checkStale}, {"", (*Gate).checkApproval}} {
				if d := st.fn(g, tg); d != nil {
					got = outcome(d)
					break
				}
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCheckRoleTarget(t *testing.T) {
	rs := roles.Roles{
		"Executor": {Paths: []string{"src/**", "tests/**"}},
		"reviewer": {Tools: []string{"read", "shell"}},
		"writer":   {Tools: []string{"write"}, Paths: []string{"docs/**"}},
		"nowhere":  {Paths: []string{}},
	}
	tests := []struct {
		agentType, rel string
		removes        bool
		want           string
	}{
		{"Executor", "src/a.go", false, ""},
		{"Executor", "src", false, ""},
		{"Executor", "tests/deep/a_test.go", true, ""},
		{"Executor", "docs/x.md", false, hook.CodeRoleNotAllowed},
		{"Executor", "srcx/a.go", false, hook.CodeRoleNotAllowed},
		{"Executor", "docs/x.md", true, hook.CodeRoleNotAllowed},
		{"reviewer", "src/a.go", false, hook.CodeRoleNotAllowed},
		{"writer", "docs/a.md", false, ""},
		{"writer", "docs/a.md", true, hook.CodeRoleNotAllowed}, // may write, not delete
		{"writer", "src/a.go", false, hook.CodeRoleNotAllowed},
		{"nowhere", "src/a.go", false, hook.CodeRoleNotAllowed},
		{"general-purpose", "anything/at/all", false, ""}, // no role: unrestricted
	}
	for _, tt := range tests {
		t.Run(tt.agentType+" "+tt.rel, func(t *testing.T) {
			g := testGate(t, nil)
			g.Config.Roles = rs
			g.call.AgentType, g.call.AgentID = tt.agentType, "a1"
			tg := &target{tool: "Write", removes: tt.removes, res: workspace.Resolved{Rel: tt.rel}}
			g.session.Intent = "INT-003" // everything in scope: only the role decides
			tg.tool = "Edit"
			if got := outcome(g.checkRules(tg)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCheckStale(t *testing.T) {
	tests := []struct {
		name, recorded, current string
		record                  bool
		off                     bool
		want                    string
	}{
		{name: "never seen", current: "sha256:b", want: ""},
		{name: "unchanged", record: true, recorded: "sha256:a", current: "sha256:a", want: ""},
		{name: "changed", record: true, recorded: "sha256:a", current: "sha256:b", want: hook.CodeStaleFile},
		{name: "deleted since", record: true, recorded: "sha256:a", current: "", want: ""},
		{name: "check off", record: true, recorded: "sha256:a", current: "sha256:b", off: true, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := testGate(t, nil)
			g.seen = map[string]string{}
			if tt.record {
				g.seen["src/a.go"] = tt.recorded
			}
			g.Config.StaleCheck = !tt.off
			tg := &target{tool: "Edit", res: workspace.Resolved{Rel: "src/a.go"}, hash: func() string { return tt.current }}
			d := g.checkStale(tg)
			if got := outcome(d); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			if d != nil && !strings.Contains(d.Message, "re-read the file, then retry") {
				t.Errorf("message %q", d.Message)
			}
		})
	}
}
