package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/gate"
	"github.com/intenthook/intenthook/internal/hook"
)

func (a *app) selectCommand() *cobra.Command {
	var session, agent string
	var def, clear bool
	cmd := &cobra.Command{
		Use:   "select [ID]",
		Short: "Select the intent a session (or agent, or the workspace) works on",
		Long: `Select the intent a session works on.

Agents run "intenthook select <ID>" as a shell command: the PreToolUse hook sees
it and binds the intent to the agent's session; the command itself then prints
the intent's context.

People bind a session with --session (see "intenthook status" for ids), one
agent inside it with --agent, or set the workspace default with --default.
--clear unbinds.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			switch {
			case def && session != "":
				return errors.New("--default and --session exclude each other")
			case agent != "" && session == "":
				return errors.New("--agent needs --session")
			case clear && id != "":
				return errors.New("--clear takes no intent id")
			case !clear && id == "":
				return withHint(errors.New("missing intent id"), "intenthook select <ID> [--session SID | --default]", "list intents with 'intenthook intents list'")
			}
			return a.runSelect(cmd.Context(), id, session, agent, def, clear)
		},
	}
	cmd.Flags().StringVar(&session, "session", "", "bind the intent to this session id")
	cmd.Flags().StringVar(&agent, "agent", "", "bind only this agent (subagent) inside the session")
	cmd.Flags().BoolVar(&def, "default", false, "make the intent the workspace default for sessions without a selection")
	cmd.Flags().BoolVar(&clear, "clear", false, "unbind the session's, agent's or workspace default selection")
	return cmd
}

func (a *app) runSelect(ctx context.Context, id, session, agent string, def, clear bool) error {
	if ctx == nil {
		ctx = context.Background()
	}
	g, err := a.openGate(&hook.Call{SessionID: session, AgentID: agent})
	if err != nil {
		return err
	}
	if clear {
		if !def && session == "" {
			return errors.New("--clear needs --session or --default")
		}
		if err := g.Clear(ctx, def); err != nil {
			return err
		}
		fmt.Fprintln(a.stdout, "cleared")
		return nil
	}
	if !def && session == "" {
		// Nothing to bind: print the context (the agent's hook already
		// selected, if an agent ran this).
		text, err := g.Context(id)
		if err != nil {
			return err
		}
		fmt.Fprintln(a.stdout, text)
		fmt.Fprintln(a.stderr, "intenthook: hint: this bound nothing; a person binds a session with --session SID (see 'intenthook status') or the workspace with --default")
		return nil
	}
	var d hook.Decision
	if def {
		d, err = g.SelectDefault(ctx, id)
	} else {
		d, err = g.Select(ctx, id)
	}
	if err != nil {
		return err
	}
	if d.Verdict == hook.Deny {
		fmt.Fprintln(a.stderr, d.Message)
		return exitError{exitFail}
	}
	fmt.Fprintln(a.stdout, d.Message)
	fmt.Fprintln(a.stdout, d.Context)
	return nil
}

// openGate opens the workspace for a command run by a person: the root comes
// from --root or the working directory, and must be governed.
func (a *app) openGate(call *hook.Call) (*gate.Gate, error) {
	env := a.env()
	g, err := gate.Open(env, call)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return nil, withHint(errors.New("no governed workspace here: .orchestration/active_intents.yaml not found"), "run inside a governed workspace, or pass --root DIR")
	}
	return g, nil
}
