// Package agent lists the coding agents intenthook speaks to, one package
// each under it, and tells which one sent an event: by --agent, else by the
// event's shape where it is unambiguous, else Claude Code.
package agent

import (
	"fmt"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/claude"
	"github.com/intenthook/intenthook/internal/agent/protocol"
)

// Default is the agent assumed when nothing says otherwise.
const Default = claude.Name

// All returns every agent, Claude Code first, then by name.
func All() []protocol.Agent {
	list := []protocol.Agent{
		claude.Agent(),
	}
	sort.SliceStable(list[1:], func(i, j int) bool { return list[1+i].Name < list[1+j].Name })
	return list
}

// Lookup returns the agent named name.
func Lookup(name string) (protocol.Agent, error) {
	for _, a := range All() {
		if a.Name == name {
			return a, nil
		}
	}
	return protocol.Agent{}, fmt.Errorf("unknown agent %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the agents' names.
func Names() []string {
	var out []string
	for _, a := range All() {
		out = append(out, a.Name)
	}
	return out
}

// Detect names the agent an event comes from when its shape says so
// unambiguously, else Default.
func Detect(ev protocol.Object) string {
	return Default
}
