package cli

import (
	"fmt"

	"github.com/intenthook/intenthook/internal/agent"
)

// personOnly refuses a command that changes governance (the human's levers:
// transitions, verification, scope, binding sessions, init) when the
// environment says an agent's shell runs it. The hooks deny these commands
// by name; this catches a renamed copy of the binary too. It is a speed
// bump, not a wall: a program can clear the variables.
func (a *app) personOnly(what string) error {
	title, variable, ok := agent.InShell(a.getenv)
	if !ok {
		return nil
	}
	return withHint(fmt.Errorf("%s is a person's command, and this runs in %s's shell (%s is set)", what, title, variable),
		"run it from your own terminal; an agent asks the user instead")
}
