package selection

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

const catalog = `active_intents:
  - {id: INT-001, name: Done, status: COMPLETE, owned_scope: ["a/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-002, name: Next, status: PENDING, depends_on: [INT-001], owned_scope: ["b/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-003, name: Waiting, status: PENDING, depends_on: [INT-004], owned_scope: ["c/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-004, name: Stuck, status: BLOCKED, owned_scope: ["d/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-005, name: Broken, status: IN_PROGRESS, owned_scope: [], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-006, name: Going, status: IN_PROGRESS, owned_scope: ["f/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
`

func load(t *testing.T, config string) *workspace.Workspace {
	t.Helper()
	root := t.TempDir()
	for name, content := range map[string]string{".orchestration/active_intents.yaml": catalog, ".orchestration/config.yaml": config} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.Load(root, workspace.Governance(nil), func(string) string { return "" }, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func TestSelect(t *testing.T) {
	tests := []struct {
		id   string
		code string // "" = selected
	}{
		{"INT-404", hook.CodeIntentNotFound},
		{"", hook.CodeIntentNotFound},
		{"INT-001", hook.CodeIntentNotInProgress},
		{"INT-002", ""}, // PENDING, its dependency COMPLETE: started
		{"INT-003", hook.CodeDependencyIncomplete},
		{"INT-004", hook.CodeIntentNotInProgress},
		{"INT-005", hook.CodeCatalogInvalid},
		{"INT-006", ""},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			ws := load(t, "")
			sel := Selector{WS: ws, Editor: lifecycle.NewEditor(ws, "s1", "Bash", "test")}
			res, err := sel.Select(context.Background(), Who{Session: "s1"}, tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if res.Decision.Code != tt.code {
				t.Fatalf("code %q, want %q: %s", res.Decision.Code, tt.code, res.Decision.Message)
			}
			if tt.code != "" {
				if res.Intent != nil || res.Decision.Verdict != hook.Deny {
					t.Errorf("a deny bound %v", res.Intent)
				}
				return
			}
			if res.Decision.Verdict != hook.AllowWithContext || res.Session.Intent != tt.id {
				t.Errorf("not bound: %+v", res)
			}
			got, err := ws.Sessions.Read("s1")
			if err != nil || got.Intent != tt.id {
				t.Errorf("session state %+v, %v", got, err)
			}
		})
	}
}

func TestStartRewritesPending(t *testing.T) {
	ws := load(t, "")
	sel := Selector{WS: ws, Editor: lifecycle.NewEditor(ws, "s1", "Bash", "test")}
	if _, err := sel.Select(context.Background(), Who{Session: "s1"}, "INT-002"); err != nil {
		t.Fatal(err)
	}
	again, err := workspace.Load(ws.Root, ws.Governance, ws.Getenv, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	if in := again.Catalog.Find("INT-002"); in == nil || in.Status != "IN_PROGRESS" {
		t.Errorf("INT-002 after selection: %+v", in)
	}
}

func TestAgentDefaultAndClear(t *testing.T) {
	ws := load(t, "")
	sel := Selector{WS: ws, Editor: lifecycle.NewEditor(ws, "", "", "test")}
	ctx := context.Background()
	if _, err := sel.Select(ctx, Who{Session: "s1", Agent: "a1"}, "INT-006"); err != nil {
		t.Fatal(err)
	}
	s, _ := ws.Sessions.Read("s1")
	if s.Intent != "" || s.AgentIntents["a1"] != "INT-006" {
		t.Errorf("agent selection: %+v", s)
	}
	if _, err := sel.Select(ctx, Who{Default: true}, "INT-006"); err != nil {
		t.Fatal(err)
	}
	if state.ReadDefault(ws.Root) != "INT-006" || ws.Default() != "INT-006" {
		t.Error("default not written")
	}
	if err := sel.Clear(ctx, Who{Default: true}); err != nil || state.ReadDefault(ws.Root) != "" {
		t.Errorf("default not cleared: %v", err)
	}
	if err := sel.Clear(ctx, Who{Session: "s1", Agent: "a1"}); err != nil {
		t.Fatal(err)
	}
	if s, _ := ws.Sessions.Read("s1"); s.AgentIntents["a1"] != "" {
		t.Errorf("agent not cleared: %+v", s)
	}
}

func TestExclusiveClaim(t *testing.T) {
	ws := load(t, "exclusive_intents: true\n")
	ctx := context.Background()
	sel := Selector{WS: ws, Editor: lifecycle.NewEditor(ws, "", "", "test")}
	if res, err := sel.Select(ctx, Who{Session: "s1"}, "INT-006"); err != nil || res.Intent == nil {
		t.Fatalf("first: %+v %v", res, err)
	}
	res, err := sel.Select(ctx, Who{Session: "s2"}, "INT-006")
	if err != nil || res.Decision.Code != hook.CodeIntentClaimed {
		t.Fatalf("second session: %+v %v", res.Decision, err)
	}
	// The holder itself may select again.
	if res, err := sel.Select(ctx, Who{Session: "s1"}, "INT-006"); err != nil || res.Intent == nil {
		t.Errorf("holder again: %+v %v", res.Decision, err)
	}
}
