package roles

import (
	"testing"

	"github.com/intenthook/intenthook/internal/hook"
)

func TestRoles(t *testing.T) {
	rs := Roles{
		"Explore":  {Tools: []string{"read"}},
		"reviewer": {Tools: []string{"read", "shell"}, Intents: []string{"INT-007"}},
		"main":     {Tools: []string{"read", "write", "shell", "select", "mcp"}},
	}
	tests := []struct {
		name             string
		agentType, agent string
		class            hook.Class
		intent           string
		hasRole, allowed bool
		intentAllowed    bool
	}{
		{name: "explore reads", agentType: "Explore", agent: "a", class: hook.ClassRead, hasRole: true, allowed: true, intentAllowed: true},
		{name: "explore may not write", agentType: "Explore", agent: "a", class: hook.ClassWrite, hasRole: true, intentAllowed: true},
		{name: "exempt always", agentType: "Explore", agent: "a", class: hook.ClassExempt, hasRole: true, allowed: true, intentAllowed: true},
		{name: "unclassified is mcp", agentType: "Explore", agent: "a", class: hook.ClassUnclassified, hasRole: true, intentAllowed: true},
		{name: "reviewer shell", agentType: "reviewer", agent: "b", class: hook.ClassShell, intent: "INT-007", hasRole: true, allowed: true, intentAllowed: true},
		{name: "reviewer other intent", agentType: "reviewer", agent: "b", class: hook.ClassShell, intent: "INT-001", hasRole: true, allowed: true},
		{name: "top-level agent is main", class: hook.ClassDelete, hasRole: true, intentAllowed: true},
		{name: "main may use mcp", class: hook.ClassUnclassified, hasRole: true, allowed: true, intentAllowed: true},
		{name: "no entry: unrestricted", agentType: "general-purpose", agent: "c", class: hook.ClassWrite, allowed: true, intentAllowed: true},
		{name: "subagent of unknown type: unrestricted", agent: "d", class: hook.ClassWrite, allowed: true, intentAllowed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := rs.For(Name(tt.agentType, tt.agent))
			if ok != tt.hasRole {
				t.Fatalf("has role = %v", ok)
			}
			allowed := !ok || r.Allows(ClassOf(tt.class))
			if allowed != tt.allowed {
				t.Errorf("allowed = %v", allowed)
			}
			if got := !ok || r.AllowsIntent(tt.intent) || tt.intent == ""; got != tt.intentAllowed {
				t.Errorf("intent allowed = %v", got)
			}
		})
	}
	if err := (Roles{"x": {Tools: []string{"read", "exec"}}}).Check(); err == nil {
		t.Error("Check accepted an unknown class")
	}
	if err := rs.Check(); err != nil {
		t.Error(err)
	}
}
