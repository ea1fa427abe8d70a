package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/gate"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/runner"
)

// hookSpec is one of the commands agents run on every tool call.
type hookSpec struct {
	event, short string
	pipeline     runner.Pipeline
}

var hookSpecs = map[string]hookSpec{
	"pre": {hook.PreToolUse, "PreToolUse hook: decide whether a tool call may run (reads the event on stdin)",
		func(ctx context.Context, g *gate.Gate) (hook.Decision, error) { return g.Pre(ctx) }},
	"post": {hook.PostToolUse, "PostToolUse hook: record what a tool call changed (reads the event on stdin)",
		func(ctx context.Context, g *gate.Gate) (hook.Decision, error) { return g.Post(ctx) }},
	"context": {hook.SessionStart, "SessionStart and UserPromptSubmit hook: tell the agent what it is working on",
		func(ctx context.Context, g *gate.Gate) (hook.Decision, error) { return g.SessionContext(ctx) }},
}

// hookFlags are a hook command's flags.
type hookFlags struct {
	explain bool
	agent   string
}

func (a *app) runHook(name string, f hookFlags) int {
	spec := hookSpecs[name]
	env := a.env()
	env.Hook = true
	if f.explain {
		env.Explain = a.stderr
	}
	h := runner.Hook{Event: spec.event, Pipeline: spec.pipeline, AlwaysOpen: spec.event == hook.SessionStart, Agent: f.agent}
	return runner.Run(h, env, a.io())
}

// fastHook runs a hook command line the way agents write it (intenthook
// pre, with --agent, --explain or --root) without building the command
// tree: an agent runs one on every tool call, and cobra's set-up was a
// tenth of a hook's cost. ok is false for any other line (help, a stray
// argument, an unknown flag): cobra answers those as before.
func (a *app) fastHook(args []string) (code int, ok bool) {
	line, ok := parseHookLine(args)
	if !ok {
		return 0, false
	}
	if line.root != "" {
		a.root = line.root
	}
	return a.runHook(line.name, line.flags), true
}

// hookLine is a hook command line understood without cobra.
type hookLine struct {
	name  string
	root  string
	flags hookFlags
}

func parseHookLine(args []string) (line hookLine, ok bool) {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		flag, value, inline := strings.Cut(arg, "=")
		switch {
		case line.name == "" && !strings.HasPrefix(arg, "-"):
			if _, known := hookSpecs[arg]; !known {
				return hookLine{}, false
			}
			line.name = arg
		case arg == "--explain":
			line.flags.explain = true
		case flag == "--agent" || flag == "--root":
			if !inline {
				if i+1 == len(args) {
					return hookLine{}, false
				}
				i++
				value = args[i]
			}
			if flag == "--agent" {
				line.flags.agent = value
			} else {
				line.root = value
			}
		default:
			return hookLine{}, false
		}
	}
	if line.name == "" {
		return hookLine{}, false
	}
	return line, true
}

func (a *app) hookCommand(name string) *cobra.Command {
	spec := hookSpecs[name]
	var f hookFlags
	cmd := &cobra.Command{
		Use:         name,
		Short:       spec.short,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{"hook": spec.event},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if code := a.runHook(name, f); code != 0 {
				return exitError{code}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&f.explain, "explain", false, "print each step of the decision chain to stderr (the decision is unchanged)")
	cmd.Flags().StringVar(&f.agent, "agent", "", "the agent whose protocol the event speaks: "+strings.Join(agent.Names(), ", ")+" (default: detected from the event, else claude)")
	return cmd
}
