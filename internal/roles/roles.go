// Package roles holds config.yaml's roles: what each kind of agent may do.
// A role maps an agent type (the agent_type of the events; "main" for the
// top-level agent) to the tool classes it may use and, optionally, the
// intents it may work under. It answers questions; the gate turns a "no"
// into a role_not_allowed deny.
package roles

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/glob"
	"github.com/intenthook/intenthook/internal/hook"
)

// Main names the top-level agent: events without an agent id or type.
const Main = "main"

// Classes a role may list. mcp covers MCP tools and any other tool no
// table classifies; exempt tools (search, listing, planning, spawning
// subagents) need no class.
var Classes = []string{"read", "write", "delete", "shell", "select", "mcp"}

// Role is what one agent type may do.
type Role struct {
	Tools   []string `yaml:"tools"`
	Intents []string `yaml:"intents"` // empty: any intent
	// Paths, when set, fence the files the agent type may write or delete
	// (root-relative globs), even inside its intent's scope. A role with
	// paths and no tools may use every tool class.
	Paths []string `yaml:"paths"`
}

// Roles maps agent types to roles; a type with no entry is unrestricted.
type Roles map[string]Role

// Name is the role name of a call: its agent type, "main" for the top-level
// agent, and "" for a subagent whose type the event does not say (no role
// applies to it).
func Name(agentType, agentID string) string {
	switch {
	case agentType != "":
		return agentType
	case agentID == "":
		return Main
	}
	return ""
}

// For returns the role of name, and whether one is configured.
func (rs Roles) For(name string) (Role, bool) {
	if name == "" {
		return Role{}, false
	}
	r, ok := rs[name]
	return r, ok
}

// ClassOf is the role class of a tool class: "" for exempt tools, which
// every role may use.
func ClassOf(c hook.Class) string {
	switch c {
	case hook.ClassExempt:
		return ""
	case hook.ClassUnclassified, "":
		return "mcp"
	case hook.ClassSubmit:
		return "select" // who may take up an intent may hand it in
	}
	return string(c)
}

// Allows reports whether the role may use tools of class (a role class).
func (r Role) Allows(class string) bool {
	if r.Tools == nil && r.Paths != nil {
		return true
	}
	return class == "" || slices.Contains(r.Tools, class)
}

// AllowsPath reports whether the role may change rel (root-relative), and
// the pattern that let it. A role without paths allows every path.
func (r Role) AllowsPath(rel string) (string, bool) {
	if r.Paths == nil {
		return "", true
	}
	for _, p := range r.Paths {
		if ok, err := glob.Match(p, rel); err == nil && ok {
			return p, true
		}
	}
	return "", false
}

// CheckPath says what is wrong with a roles.*.paths glob: it must be
// root-relative and compile.
func CheckPath(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("an empty pattern")
	case path.IsAbs(p) || strings.HasPrefix(p, "../") || p == "..":
		return fmt.Errorf("pattern %q is not root-relative", p)
	}
	if _, err := glob.Compile(p); err != nil {
		return fmt.Errorf("pattern %q: %v", p, err)
	}
	return nil
}

// AllowsIntent reports whether the role may work under intent id.
func (r Role) AllowsIntent(id string) bool {
	return len(r.Intents) == 0 || slices.Contains(r.Intents, id)
}

// Check validates the roles read from config.yaml.
func (rs Roles) Check() error {
	names := make([]string, 0, len(rs))
	for n := range rs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if n == "" {
			return fmt.Errorf("roles: an agent type is empty")
		}
		for _, c := range rs[n].Tools {
			if !slices.Contains(Classes, c) {
				return fmt.Errorf("roles.%s.tools: %q is not one of %v", n, c, Classes)
			}
		}
	}
	return nil
}
