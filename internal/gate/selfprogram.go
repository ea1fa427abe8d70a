package gate

import (
	"context"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/selfprog"
	"github.com/intenthook/intenthook/internal/shell"
)

// identifySelf finds out which program each call of intenthook in a shell
// command runs (selfprog, SPEC §8), before a selection, submission or
// delegation the whole command makes is performed for the session.
//
// A select, submit or delegation through a runner that may download the
// package, or through any other program, is denied (shell_unsafe): nothing
// is selected. A lever stays a lever wherever it runs from; any other call
// of a program that is not intenthook is taken out of a.Self and left to
// the shell's rules, as any program the agent runs.
//
// Only a command that names intenthook pays for this: a few stats.
func (g *Gate) identifySelf(a *shell.Analysis) (hook.Decision, bool) {
	if len(a.Self) == 0 {
		return hook.Decision{}, false
	}
	home := selfprog.Home{Root: g.Root, Cwd: g.cwd()}
	kept := a.Self[:0:0]
	for _, c := range a.Self {
		ok, why := home.Runs(c)
		if ok {
			kept = append(kept, c)
			continue
		}
		switch c.Kind {
		case shell.SelfSelect, shell.SelfDelegate, shell.SelfSubmit:
			g.explain.step("shell", "self", why)
			return home.Deny(c, why, g.call.Command, g.call.SessionID), true
		case shell.SelfLever:
			kept = append(kept, c) // a lever is refused whatever answers it
		default:
			g.explain.step("shell", "self", why+": judged as any program")
		}
	}
	a.Self = kept
	return hook.Decision{}, false
}

// watchRunner leaves the backstop's and the guard's pictures for the post
// of a selection or delegation the hook performed for a command that runs
// intenthook through a package runner or by a path: the runner reads the
// project's configuration (npm's .npmrc can name the shell that runs the
// command, script-shell), which a program of the agent's may have written,
// so the command is watched like any other. intenthook run by its name
// needs no pictures.
func (g *Gate) watchRunner(ctx context.Context, a shell.Analysis, d hook.Decision, err error) {
	if err != nil || d.Verdict == hook.Deny || len(a.Self) != 1 || a.Self[0].Runner == "" && a.Self[0].Path == "" {
		return
	}
	g.watchCommand(ctx)
}
