package judge

import (
	"testing"

	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/roles"
	"github.com/intenthook/intenthook/internal/workspace"
)

const catalog = `active_intents:
  - {id: INT-001, name: Hooks, status: IN_PROGRESS, owned_scope: ["src/hooks/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-002, name: Done, status: COMPLETE, owned_scope: ["x/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-003, name: Edits only, status: IN_PROGRESS, owned_scope: ["**"], allowed_tools: [Edit], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
  - {id: INT-005, name: Broken, status: IN_PROGRESS, owned_scope: [], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
`

func TestJudge(t *testing.T) {
	c, err := intents.Parse([]byte(catalog))
	if err != nil {
		t.Fatal(err)
	}
	table := governed.Table{{Path: ".orchestration/active_intents.yaml", Use: governed.Protected}}
	prot, err := workspace.NewProtected(table, true, []string{"secrets/**"})
	if err != nil {
		t.Fatal(err)
	}
	r := &Rules{
		Catalog:   c,
		Protected: prot,
		Ignore:    workspace.ParseIgnore([]byte("*.log\n")),
		Roles: roles.Roles{
			"Executor": {Paths: []string{"src/**"}},
			"reader":   {Tools: []string{"read"}},
			"hooks":    {Tools: []string{"write"}, Intents: []string{"INT-003"}},
		},
		Alias: func(rel string) (string, bool) {
			return ".orchestration/active_intents.yaml", rel == "src/hooks/linked"
		},
	}
	tests := []struct {
		name string
		w    Write
		step string
		code string
	}{
		{"in scope", Write{Path: "src/hooks/a.go", Tool: "Write", Intent: "INT-001"}, "", ""},
		{"out of scope", Write{Path: "src/api/a.go", Tool: "Write", Intent: "INT-001"}, StepScope, hook.CodeScopeViolation},
		{"protected in scope", Write{Path: ".orchestration/active_intents.yaml", Tool: "Write", Intent: "INT-003"}, StepProtected, hook.CodeProtectedPath},
		{"protected by config", Write{Path: "secrets/k", Tool: "Edit", Intent: "INT-003"}, StepProtected, hook.CodeProtectedPath},
		{"nested governance", Write{Path: "lib/.orchestration/x", Tool: "Edit", Intent: "INT-003"}, StepProtected, hook.CodeProtectedPath},
		{"hard link", Write{Path: "src/hooks/linked", Tool: "Edit", Intent: "INT-001"}, StepProtected, hook.CodeProtectedPath},
		{"ignored without intent", Write{Path: "build/x.log", Tool: "Write"}, StepIgnored, ""},
		{"revert", Write{Path: "src/api/a.go", Tool: "Write", Intent: "INT-001", Revert: true}, StepRevert, ""},
		{"no intent", Write{Path: "src/hooks/a.go", Tool: "Write"}, StepIntent, hook.CodeIntentRequired},
		{"missing intent", Write{Path: "src/hooks/a.go", Tool: "Write", Intent: "INT-404"}, StepStatus, hook.CodeIntentNotFound},
		{"invalid intent", Write{Path: "a", Tool: "Write", Intent: "INT-005"}, StepStatus, hook.CodeCatalogInvalid},
		{"complete in the catalog", Write{Path: "x/a", Tool: "Write", Intent: "INT-002"}, StepStatus, hook.CodeIntentNotInProgress},
		{"in progress as recorded", Write{Path: "x/a", Tool: "Write", Intent: "INT-002", Status: intents.InProgress}, "", ""},
		{"in review as recorded", Write{Path: "src/hooks/a.go", Tool: "Write", Intent: "INT-001", Status: intents.InReview}, StepStatus, hook.CodeIntentNotInProgress},
		{"tool not allowed", Write{Path: "a", Tool: "Write", Intent: "INT-003"}, StepTools, hook.CodeToolNotAllowed},
		{"role path", Write{Path: "docs/a.md", Tool: "Edit", Intent: "INT-003", Role: "Executor"}, StepRole, hook.CodeRoleNotAllowed},
		{"role path before protection", Write{Path: ".orchestration/active_intents.yaml", Tool: "Edit", Intent: "INT-003", Role: "Executor"}, StepRole, hook.CodeRoleNotAllowed},
		{"role inside its paths", Write{Path: "src/a.go", Tool: "Edit", Intent: "INT-003", Role: "Executor"}, "", ""},
		{"role class", Write{Path: "src/a.go", Tool: "Edit", Intent: "INT-003", Role: "reader"}, StepRole, hook.CodeRoleNotAllowed},
		{"role intent", Write{Path: "src/hooks/a.go", Tool: "Edit", Intent: "INT-001", Role: "hooks"}, StepRoleIntent, hook.CodeRoleNotAllowed},
		{"no role configured for the name", Write{Path: "src/hooks/a.go", Tool: "Edit", Intent: "INT-001", Role: "other"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Judge(r, tt.w)
			if v.Step != tt.step || v.Code != tt.code {
				t.Errorf("got step %q code %q, want %q %q", v.Step, v.Code, tt.step, tt.code)
			}
			if v.Denied() != (tt.code != "") {
				t.Errorf("Denied() = %v", v.Denied())
			}
		})
	}
}
