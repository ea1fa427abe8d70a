package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/anchors"
	"github.com/intenthook/intenthook/internal/git"
)

func (a *app) anchorCommand() *cobra.Command {
	var intent string
	cmd := &cobra.Command{
		Use:   "anchor TEXT",
		Short: "Record a decision that must survive compaction (re-injected first after a compact)",
		Long: `Record a decision the agent must keep to after its context is compacted,
such as "use JWT, not sessions (the user's requirement R-003)". It is stored
in the ledger as an anchor record; after a compaction the SessionStart
context puts the active intent's anchors (and the workspace-wide ones, given
without --intent) back first. intents show lists them. Agents may run it; an
anchor an agent records (from its shell, or while its shell command runs) is
shown as the agent's note, never as a decision to keep to.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			if intent != "" && ws.Catalog.Find(intent) == nil {
				return withHint(fmt.Errorf("intent %s not found", intent), "list intents with 'intenthook intents list'")
			}
			// Run from an agent's shell, the anchor is that agent's: agent
			// text, never framed as a person's decision. (A process that
			// hides the shell's marker is caught by the guard, which sees
			// the ledger grow during the agent's command.)
			by := anchors.ByPerson
			if title, _, inShell := agent.InShell(a.getenv); inShell {
				by = title
			}
			an, err := anchors.Add(cmd.Context(), ws.Ledger(Version), git.Revision(ws.Root), intent, args[0], by)
			if an.ID == "" {
				return err
			}
			if err != nil {
				fmt.Fprintf(a.stderr, "intenthook: warning: %s\n", err)
			}
			where := "the workspace"
			if intent != "" {
				where = intent
			}
			fmt.Fprintf(a.stdout, "anchored for %s: %s\n", where, an.Text)
			return nil
		},
	}
	cmd.Flags().StringVar(&intent, "intent", "", "the intent the decision belongs to (default: the whole workspace)")
	return cmd
}
