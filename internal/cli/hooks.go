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

func (a *app) hookCommand(use, event, short string, p runner.Pipeline) *cobra.Command {
	h := runner.Hook{Event: event, Pipeline: p, AlwaysOpen: event == hook.SessionStart}
	var explain bool
	var agentName string
	cmd := &cobra.Command{
		Use:         use,
		Short:       short,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{"hook": event},
		RunE: func(cmd *cobra.Command, _ []string) error {
			env := a.env()
			env.Hook = true
			if explain {
				env.Explain = a.stderr
			}
			h := h
			h.Agent = agentName
			if code := runner.Run(h, env, a.io()); code != 0 {
				return exitError{code}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&explain, "explain", false, "print each step of the decision chain to stderr (the decision is unchanged)")
	cmd.Flags().StringVar(&agentName, "agent", "", "the agent whose protocol the event speaks: "+strings.Join(agent.Names(), ", ")+" (default: detected from the event, else claude)")
	return cmd
}

// hookOnly returns the hook command args name first, the way agents call
// it (intenthook pre …), or nil for every other command line.
func (a *app) hookOnly(args []string) *cobra.Command {
	if len(args) == 0 {
		return nil
	}
	switch args[0] {
	case "pre":
		return a.preCommand()
	case "post":
		return a.postCommand()
	case "context":
		return a.contextCommand()
	}
	return nil
}

func (a *app) preCommand() *cobra.Command {
	return a.hookCommand("pre", hook.PreToolUse, "PreToolUse hook: decide whether a tool call may run (reads the event on stdin)",
		func(ctx context.Context, g *gate.Gate) (hook.Decision, error) { return g.Pre(ctx) })
}

func (a *app) postCommand() *cobra.Command {
	return a.hookCommand("post", hook.PostToolUse, "PostToolUse hook: record what a tool call changed (reads the event on stdin)",
		func(ctx context.Context, g *gate.Gate) (hook.Decision, error) { return g.Post(ctx) })
}

func (a *app) contextCommand() *cobra.Command {
	return a.hookCommand("context", hook.SessionStart, "SessionStart and UserPromptSubmit hook: tell the agent what it is working on",
		func(ctx context.Context, g *gate.Gate) (hook.Decision, error) { return g.SessionContext(ctx) })
}
