package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/shell"
)

// packages judges what a shell command asks npm, pnpm, yarn or bun to put
// into node_modules, where an npm install keeps the program every hook call
// runs (shell.PackageCalls). Installing, removing, linking, updating or
// rebuilding intenthook's own packages is a person's command, as npm ci is
// (and a rebuild of every package) where the hooks run an npm install: each
// replaces that program. A package from a local path, a tarball or a git
// URL is a question to the person: its install scripts and bin links run
// with nothing a registry vouches for (a package or a bin named intenthook
// among them). A registry install of another package passes.
type packages struct{ g *Gate }

// preShell runs the shell step with the package managers' commands
// judged around it: a person's command is denied before anything else; a
// question is asked once the rest of the step allows the command (its
// pictures taken, so that an approved command is judged after like any).
func (p packages) preShell(ctx context.Context) (hook.Decision, error) {
	g := p.g
	calls := shell.PackageCalls(g.call.Command)
	if d, ok := p.personal(calls); ok {
		return d, nil
	}
	d, err := g.preShell(ctx)
	if err != nil || d.Verdict == hook.Deny {
		return d, err
	}
	if q, ok := p.question(calls); ok && q.Stricter(d) {
		p.markAsked(ctx)
		return q, nil
	}
	return d, nil
}

func (p packages) evidence() []string {
	g := p.g
	return []string{hook.Ev("command", safetext.OneLine(g.call.Command)), hook.Ev("session", g.call.SessionID)}
}

// personal denies a command that changes intenthook's own packages, or
// reinstalls every package where the hooks run an npm install.
func (p packages) personal(calls []shell.PackageCall) (hook.Decision, bool) {
	g := p.g
	for _, pc := range calls {
		switch {
		case len(pc.Self) > 0:
			g.explain.step("packages", "deny", pc.Command+" names "+strings.Join(pc.Self, ", "))
			return hook.Denial{
				Code:     hook.CodeProtectedPath,
				Headline: pc.Command + " " + strings.Join(pc.Self, " ") + " is for the user, not for agents",
				Why:      "an npm install runs the hooks from " + hookconfig.NPMPackage + ": installing, removing, linking, updating or rebuilding intenthook's packages changes the program every later hook call is",
				Instead:  "ask the user to run it from their own terminal",
				Evidence: p.evidence(),
			}.Decision(), true
		case pc.All && p.npmInstalled():
			g.explain.step("packages", "deny", pc.Command+" reinstalls every package")
			return hook.Denial{
				Code:     hook.CodeProtectedPath,
				Headline: pc.Command + " is for the user, not for agents",
				Why:      "it reinstalls every package, intenthook's among them (" + hookconfig.NPMPackage + " holds the program every hook call runs), from package.json and a lock file an agent can edit",
				Instead:  "install or update the packages you need by name (npm install <package>), or ask the user to run " + pc.Command,
				Evidence: p.evidence(),
			}.Decision(), true
		}
	}
	return hook.Decision{}, false
}

// question asks about a package from a local path, a tarball or a git URL,
// or one the shell names at run time.
func (p packages) question(calls []shell.PackageCall) (hook.Decision, bool) {
	g := p.g
	for _, pc := range calls {
		var what string
		switch {
		case len(pc.Sources) > 0:
			what = pc.Command + " installs from a local path, a tarball or a git URL: " + strings.Join(pc.Sources, ", ")
		case len(pc.Unknown) > 0:
			what = pc.Command + " names a package the shell expands at run time: " + strings.Join(pc.Unknown, ", ")
		default:
			continue
		}
		g.explain.step("packages", "ask", what)
		return ask(CodeAskPackageSource, what, "such a package's install scripts and bin links run as the user with nothing a registry vouches for; a package named intenthook, or a bin named intenthook, would replace the program the hooks run",
			p.evidence()), true
	}
	return hook.Decision{}, false
}

// npmInstalled reports whether the hooks of this workspace may run an npm
// install's binary.
func (p packages) npmInstalled() bool {
	_, err := os.Lstat(filepath.Join(p.g.Root, filepath.FromSlash(hookconfig.NPMPackage)))
	return err == nil
}

// markAsked marks the call's pending entry as asked, as the shell step does
// for its own questions: post records an asked command whatever it
// changed.
func (p packages) markAsked(ctx context.Context) {
	g := p.g
	if g.call.ToolUseID == "" {
		return
	}
	pending, ok := g.Sessions.PeekPending(g.call.SessionID, g.call.ToolUseID)
	if !ok {
		return
	}
	pending.Asked = true
	g.note(g.Sessions.PutPending(ctx, g.call.SessionID, g.call.ToolUseID, pending))
}
