package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/remoteclaims"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/selection"
)

// claimsWait bounds what a person's claims command waits on the remote.
const claimsWait = 20 * time.Second

func (a *app) claimsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "claims",
		Short: "List the claims teammates' machines share through claims.remote; claims clear ID takes one off (a person's command)",
		Long: `With claims.remote set in config.yaml, a session's selection is also a claim
on that git remote, which teammates' machines read before they select
(docs/workspace.md). intenthook claims lists the claims the remote holds,
live or expired, and those of this clone the remote did not take.
intenthook claims clear ID takes the claim on ID off the remote, whoever
holds it: a person's command, refused from an agent's process.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			name := ws.Config.Claims.Remote
			if name == "" {
				fmt.Fprintln(a.stdout, "claims.remote is not set in config.yaml: claims stay on this machine (intenthook status lists them)")
				return nil
			}
			r, ok := remoteclaims.Open(ws.Root, name)
			if !ok {
				return fmt.Errorf("claims.remote is %s, but %s is not in a git repository", safetext.Quote(name), safetext.Quote(ws.Root))
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), claimsWait)
			defer cancel()
			cs, err := r.List(ctx)
			if err != nil {
				return withHint(fmt.Errorf("read the claims on the remote %s: %w", safetext.Quote(name), err), "check that git fetch "+name+" works from this terminal")
			}
			now := ws.Now()
			fmt.Fprintf(a.stdout, "claims on the remote %s:\n", safetext.Quote(name))
			if len(cs) == 0 {
				fmt.Fprintln(a.stdout, "  none")
			}
			for _, c := range cs {
				state := "live until " + c.Expires.UTC().Format(time.RFC3339)
				if !c.Live(now) {
					state = "expired at " + c.Expires.UTC().Format(time.RFC3339)
				}
				where := remoteclaims.Ref(c.Intent)
				if c.Mode == remoteclaims.ModeBranch {
					where = "branch " + strings.TrimPrefix(remoteclaims.Branch, "refs/heads/")
				}
				fmt.Fprintf(a.stdout, "  %s  %s  %s  (%s)\n", safetext.Quote(c.Intent), safetext.Quote(c.Holder()), state, where)
			}
			for _, rec := range selection.RemoteRecords(ws) {
				if rec.Error != "" {
					fmt.Fprintf(a.stdout, "this machine only: %s  session %s: %s\n", safetext.Quote(rec.Claim.Intent), safetext.Quote(rec.Claim.Session), safetext.Quote(rec.Error))
				}
			}
			return nil
		},
	}
	clear := &cobra.Command{
		Use:   "clear ID",
		Short: "Take the claim on intent ID off claims.remote, whoever holds it (a person's command)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			if err := a.personOnly("intenthook claims clear"); err != nil {
				return err
			}
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			if err := a.personAct(cmd.Context(), ws, "intenthook claims clear", "claims clear "+id, id); err != nil {
				return err
			}
			r, ok := remoteclaims.Open(ws.Root, ws.Config.Claims.Remote)
			if !ok {
				return withHint(fmt.Errorf("claims.remote is not set in config.yaml"), "a claim on this machine alone is cleared with intenthook select --clear --session SID")
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), claimsWait)
			defer cancel()
			if err := r.Clear(ctx, id); err != nil {
				return fmt.Errorf("clear the claim on %s: %w", safetext.Quote(id), err)
			}
			if err := remoteclaims.RecordsOf(ws.Root).Drop(id); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s: no claim on the remote %s\n", safetext.Quote(id), safetext.Quote(r.Name))
			return nil
		},
	}
	cmd.AddCommand(clear)
	return cmd
}

// claimsWorkCommand is what a hook starts detached (selection.StartClaims):
// the renewal of a session's claim on claims.remote, or the release of
// those it no longer holds. Each acts only as the session's own state
// says, so an agent that runs it gains nothing.
func (a *app) claimsWorkCommand() *cobra.Command {
	var session, intent string
	cmd := &cobra.Command{
		Use:    selection.ClaimsCommand + " renew|release --session SID [--intent ID]",
		Short:  "Renew or release a session's claims on claims.remote (internal)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), claimsWait)
			defer cancel()
			switch args[0] {
			case "renew":
				return selection.Renew(ctx, ws, session, intent)
			case "release":
				return selection.ReleaseRemote(ctx, ws, session, intent)
			}
			return fmt.Errorf("unknown claims work %s", safetext.Quote(args[0]))
		},
	}
	cmd.Flags().StringVar(&session, "session", "", "the session")
	cmd.Flags().StringVar(&intent, "intent", "", "the intent (default: every one of the session's)")
	return cmd
}
