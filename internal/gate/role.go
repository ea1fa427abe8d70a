package gate

import (
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/roles"
)

// roleRules is the gate's side of config.yaml's roles: the call's role,
// and the denials of a class or an intent outside it.
type roleRules struct{ *Gate }

// The role gate (config.yaml roles:): what kind of agent makes the call
// decides which tool classes it may use and which intents it may work
// under. A call outside its role is denied role_not_allowed.

// role returns the call's role name and role, when one is configured.
func (g roleRules) role() (string, roles.Role, bool) {
	if len(g.Config.Roles) == 0 {
		return "", roles.Role{}, false
	}
	name := roles.Name(g.call.AgentType, g.call.AgentID)
	r, ok := g.Config.Roles.For(name)
	return name, r, ok
}

// checkRole gates the call's tool class. Writes and deletes are gated per
// target (checkRoleTarget), after their paths are resolved: scratch files in
// a temporary directory stay as free as without roles.
func (g roleRules) checkRole(class hook.Class) *hook.Decision {
	name, r, ok := g.role()
	if !ok || class == hook.ClassWrite || class == hook.ClassDelete {
		return nil
	}
	rc := roles.ClassOf(class)
	if r.Allows(rc) {
		g.explain.step("role", "pass", hook.Ev("role", name), hook.Ev("class", rc))
		return nil
	}
	d := g.roleDenial(name, r, fmt.Sprintf("%s agents may not use %s (%s tools)", name, g.call.ToolName, rc), hook.Ev("tool", g.call.ToolName))
	return &d
}

// name is the call's role name when roles are configured, "" otherwise.
func (g roleRules) name() string {
	if len(g.Config.Roles) == 0 {
		return ""
	}
	return roles.Name(g.call.AgentType, g.call.AgentID)
}

// denyTarget is the deny of a file outside the role (judge.StepRole): the
// class it needed (write or delete) or its paths.
func (g roleRules) denyTarget(t *target, rc string) hook.Decision {
	name, r, _ := g.role()
	if !r.Allows(rc) {
		return g.roleDenial(name, r, fmt.Sprintf("%s agents may not %s files: %s to %q", name, rc, t.tool, t.res.Rel), hook.Ev("path", t.res.Rel), hook.Ev("tool", t.tool))
	}
	return g.roleDenial(name, r, fmt.Sprintf("%s agents may only %s files under %s: %s to %q", name, rc, strings.Join(r.Paths, ", "), t.tool, t.res.Rel), hook.Ev("path", t.res.Rel), hook.Ev("tool", t.tool))
}

// roleIntent needs id among the intents of the call's role (when the role
// names any): for selections, delegations and writes.
func (g *Gate) roleIntent(id string) *hook.Decision {
	rr := roleRules{g}
	name, r, ok := rr.role()
	if !ok || id == "" || r.AllowsIntent(id) {
		return nil
	}
	d := rr.roleDenial(name, r, fmt.Sprintf("%s agents may not work on intent %s", name, id), hook.Ev("intent", id))
	return &d
}

func (g roleRules) roleDenial(name string, r roles.Role, headline string, evidence ...string) hook.Decision {
	tools := orNone(strings.Join(r.Tools, ", "))
	if r.Tools == nil && r.Paths != nil {
		tools = "every tool"
	}
	why := fmt.Sprintf("the workspace's roles (.orchestration/config.yaml) let %s agents use: %s", name, tools)
	if r.Paths != nil {
		why += fmt.Sprintf("; and change only files under %s", orNone(strings.Join(r.Paths, ", ")))
	}
	if len(r.Intents) > 0 {
		why += fmt.Sprintf("; and work only on %s", strings.Join(r.Intents, ", "))
	}
	return hook.Denial{
		Code:     hook.CodeRoleNotAllowed,
		Headline: headline,
		Why:      why,
		Instead:  "stay within your role; report back to the agent that started you (or ask the user) that this step needs an agent whose role allows it",
		Evidence: append(evidence, hook.Ev("agent_type", orDefault(g.call.AgentType, roles.Main)), hook.Ev("agent", g.call.AgentID), hook.Ev("session", g.call.SessionID)),
	}.Decision()
}

func orNone(s string) string {
	if s == "" {
		return "nothing but exempt tools"
	}
	return s
}
