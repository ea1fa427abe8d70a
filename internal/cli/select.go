package cli

import (
	"context"
	"errors"
	"fmt"

	agentpkg "github.com/intenthook/intenthook/internal/agent"

	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/review"
	"github.com/intenthook/intenthook/internal/selection"
	"github.com/spf13/cobra"
)

func (a *app) selectCommand() *cobra.Command {
	var session, agent, forType string
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
--clear unbinds.

--for TYPE delegates: the next subagent of that type the session starts
works on the intent. A coordinating agent runs "intenthook select <ID> --for
<TYPE>" from its shell, then starts the subagent; a person adds --session.
"--clear --session SID --for TYPE" recalls delegations no subagent claimed
yet ("intenthook status" shows them, with the command that recalls each).`,
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
			case forType != "" && (def || agent != ""):
				return errors.New("--for delegates within a session: it excludes --default and --agent")
			}
			if forType != "" {
				return a.runDelegate(cmd.Context(), id, session, forType, clear)
			}
			return a.runSelect(cmd.Context(), id, session, agent, def, clear)
		},
	}
	cmd.Flags().StringVar(&session, "session", "", "bind the intent to this session id")
	cmd.Flags().StringVar(&agent, "agent", "", "bind only this agent (subagent) inside the session")
	cmd.Flags().BoolVar(&def, "default", false, "make the intent the workspace default for sessions without a selection")
	cmd.Flags().BoolVar(&clear, "clear", false, "unbind the session's, agent's or workspace default selection")
	cmd.Flags().StringVar(&forType, "for", "", "delegate: the next subagent of this type works on the intent")
	return cmd
}

// runDelegate is select --for: a person's delegation or recall with
// --session; without it, what an agent's shell prints after its hook made
// the delegation.
func (a *app) runDelegate(ctx context.Context, id, session, forType string, clear bool) error {
	if session != "" || clear {
		if err := a.personOnly("intenthook select --for with --session or --clear"); err != nil {
			return err
		}
	}
	ws, err := a.openWorkspace()
	if err != nil {
		return err
	}
	if session != "" || clear {
		if err := a.personAct(ctx, ws, "intenthook select --for with --session or --clear", "select "+id+" --for "+forType+" --session "+session, id); err != nil {
			return err
		}
	}
	who := selection.Who{Session: session}
	sel := selection.Selector{WS: ws, Editor: lifecycle.NewEditor(ws, session, "", Version)}
	switch {
	case clear && session == "":
		return errors.New("--clear needs --session")
	case clear:
		n, err := sel.Recall(ctx, who, forType)
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "recalled %d delegation(s) to %s\n", n, forType)
		return nil
	case session == "":
		in := ws.Catalog.Find(id)
		if in == nil {
			return withHint(fmt.Errorf("intent %s not found in %s", id, intents.File), "list intents with 'intenthook intents list'")
		}
		fmt.Fprintf(a.stdout, "the next %s subagent works on %s (%s): start it now with subagent_type %q\n", forType, in.ID, in.Name, forType)
		if _, _, inAgent := agentpkg.InShell(a.getenv); !inAgent {
			fmt.Fprintln(a.stderr, full.Speak("intenthook: hint: this delegated nothing; a person delegates with --session SID --for TYPE (see 'intenthook status')"))
		}
		return nil
	}
	res, d, err := sel.Delegate(ctx, who, id, forType)
	if err != nil {
		return err
	}
	if res.Intent == nil {
		fmt.Fprintln(a.stderr, res.Decision.Message)
		return exitError{exitFail}
	}
	rec := ledger.NewRecord(ws.Revision(), ledger.Meta{
		Event: ledger.EventDelegate, IntentID: ledger.NullString(d.Intent), SessionID: session, AgentType: d.AgentType,
		ScopeValidation: "EXEMPT", Decision: "allow", Success: true, Reason: "delegated by a person: pending: the next " + forType + " subagent this session starts",
	})
	if err := ws.Ledger(Version).Append(ctx, rec); err != nil {
		fmt.Fprintf(a.stderr, "intenthook: warning: ledger: %v\n", err)
	}
	fmt.Fprintln(a.stdout, res.Decision.Message)
	return nil
}

func (a *app) runSelect(ctx context.Context, id, session, agent string, def, clear bool) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if session != "" || def || clear {
		if err := a.personOnly("intenthook select with --session, --default or --clear"); err != nil {
			return err
		}
	}
	ws, err := a.openWorkspace()
	if err != nil {
		return err
	}
	if session != "" || def || clear {
		if err := a.personAct(ctx, ws, "intenthook select with --session, --default or --clear", "select "+id+" --session "+session, id); err != nil {
			return err
		}
	}
	who := selection.Who{Session: session, Agent: agent, Default: def}
	sel := selection.Selector{WS: ws, Editor: lifecycle.NewEditor(ws, session, "", Version)}
	if clear {
		if !def && session == "" {
			return errors.New("--clear needs --session or --default")
		}
		if err := sel.Clear(ctx, who); err != nil {
			return err
		}
		fmt.Fprintln(a.stdout, "cleared")
		return nil
	}
	if !def && session == "" {
		// Nothing to bind: print the context (the agent's hook already
		// selected, if an agent ran this).
		in := ws.Catalog.Find(id)
		if in == nil {
			return withHint(fmt.Errorf("intent %s not found in %s", id, intents.File), "list intents with 'intenthook intents list'")
		}
		fmt.Fprintln(a.stdout, ws.IntentContext(in, "", review.Rejected(ws, in), ws.Budget()))
		if _, _, inAgent := agentpkg.InShell(a.getenv); !inAgent {
			// In an agent's shell the PreToolUse hook has bound the
			// intent already: the hint would contradict it.
			fmt.Fprintln(a.stderr, full.Speak("intenthook: hint: this bound nothing; a person binds a session with --session SID (see 'intenthook status') or the workspace with --default"))
		}
		return nil
	}
	res, err := sel.Select(ctx, who, id)
	if err != nil {
		return err
	}
	if res.Intent == nil {
		fmt.Fprintln(a.stderr, res.Decision.Message)
		return exitError{exitFail}
	}
	rec := ledger.NewRecord(ws.Revision(), ledger.Meta{
		Event: ledger.EventSelect, IntentID: ledger.NullString(res.Intent.ID), SessionID: session, AgentID: ledger.NullString(agent),
		ScopeValidation: "EXEMPT", Decision: "allow",
	})
	if err := ws.Ledger(Version).Append(ctx, rec); err != nil {
		fmt.Fprintf(a.stderr, "intenthook: warning: ledger: %v\n", err)
	}
	fmt.Fprintln(a.stdout, res.Decision.Message)
	fmt.Fprintln(a.stdout, res.Decision.Context)
	return nil
}
