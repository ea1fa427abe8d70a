// Package hookcmd runs the commands an agent runs on every tool call
// (intenthook pre, post and context) from their command line, without a
// command tree: it is all the intenthook binary links, so that a hook pays
// for no package it does not use. Every other command line goes to the full
// binary (Delegate).
package hookcmd

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/gate"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/runner"
)

// Version is set at build time with -ldflags "-X …/hookcmd.Version=…"; both
// binaries report and record it.
var Version = "0.1.0-dev"

// Commit is the source revision, set at build time like Version (a release
// build has no VCS stamp: GoReleaser builds with -trimpath from its own
// checkout); empty: the build info's, if any.
var Commit = ""

// Spec is one hook command.
type Spec struct {
	Event, Short string
	Pipeline     runner.Pipeline
}

// Lookup returns the hook command name. A switch, not a map: a map
// literal is built by the package's initialiser on every hook's start.
func Lookup(name string) (Spec, bool) {
	switch name {
	case "pre":
		return Spec{hook.PreToolUse, "PreToolUse hook: decide whether a tool call may run (reads the event on stdin)",
			func(ctx context.Context, g *gate.Gate) (hook.Decision, error) { return g.Pre(ctx) }}, true
	case "post":
		return Spec{hook.PostToolUse, "PostToolUse hook: record what a tool call changed (reads the event on stdin)",
			func(ctx context.Context, g *gate.Gate) (hook.Decision, error) { return g.Post(ctx) }}, true
	case "context":
		return Spec{hook.SessionStart, "SessionStart and UserPromptSubmit hook: tell the agent what it is working on",
			func(ctx context.Context, g *gate.Gate) (hook.Decision, error) { return g.SessionContext(ctx) }}, true
	}
	return Spec{}, false
}

// Flags are a hook command's flags.
type Flags struct {
	Explain bool
	Agent   string
}

// Line is a hook command line as agents write it.
type Line struct {
	Name  string
	Root  string
	Flags Flags
}

// Parse reads a hook command line: a hook's name with --agent, --explain or
// --root, in either spelling. ok is false for any other line (help, a stray
// argument, an unknown flag): the full binary answers those.
func Parse(args []string) (line Line, ok bool) {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		flag, value, inline := strings.Cut(arg, "=")
		switch {
		case line.Name == "" && !strings.HasPrefix(arg, "-"):
			if _, known := Lookup(arg); !known {
				return Line{}, false
			}
			line.Name = arg
		case arg == "--explain":
			line.Flags.Explain = true
		case flag == "--agent" || flag == "--root":
			if !inline {
				if i+1 == len(args) {
					return Line{}, false
				}
				i++
				value = args[i]
			}
			if flag == "--agent" {
				line.Flags.Agent = value
			} else {
				line.Root = value
			}
		default:
			return Line{}, false
		}
	}
	if line.Name == "" {
		return Line{}, false
	}
	return line, true
}

// Env is the environment every command's gate starts from.
func Env(root string, getenv func(string) string) *gate.Env {
	wd, _ := os.Getwd()
	return &gate.Env{Root: root, Getenv: getenv, Wd: wd, Now: time.Now, Version: Version}
}

// Run runs the hook command name in env and returns its exit code.
func Run(name string, f Flags, env *gate.Env, std runner.IO) int {
	spec, _ := Lookup(name)
	env.Hook = true
	if f.Explain {
		env.Explain = std.Stderr
	}
	h := runner.Hook{Event: spec.Event, Pipeline: spec.Pipeline, AlwaysOpen: spec.Event == hook.SessionStart, Agent: f.Agent}
	return runner.Run(h, env, std)
}

// Main runs args if they are a hook command line. ok is false otherwise, and
// nothing was read or written.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int, ok bool) {
	line, ok := Parse(args)
	if !ok {
		return 0, false
	}
	env := Env(line.Root, os.Getenv)
	return Run(line.Name, line.Flags, env, runner.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr}), true
}
