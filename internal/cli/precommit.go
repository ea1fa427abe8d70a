package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/precommit"
)

func (a *app) precommitCommand() *cobra.Command {
	var strict bool
	cmd := &cobra.Command{
		Use:   "precommit",
		Short: "Check staged changes against the intents and the ledger (for a git pre-commit hook)",
		Long: `Check the changes staged for a commit: each staged path must lie inside the
owned_scope of an IN_PROGRESS or COMPLETE intent (else out_of_scope, an error),
and its staged content must be what the newest ledger record of it says the
hooks saw written (else untraced, a warning; an error with --strict). The
staged catalog must validate and the ledger must verify.

It catches what the agent hooks could not: hand edits, agents run without
hooks, hook calls Claude Code skipped. It reads only, and exits 1 on any error.
Outside a governed workspace it exits 0 silently.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			start := a.root
			if start == "" {
				start, _ = os.Getwd()
			} else if _, err := a.workspaceRoot(); err != nil {
				return err // an explicit --root must be governed
			}
			res, err := precommit.Run(cmd.Context(), precommit.Options{Start: start, Strict: strict})
			if err != nil {
				return withHint(err, "intenthook precommit runs in a git work tree, with git on PATH")
			}
			if !res.Governed {
				return nil
			}
			for _, f := range res.Findings {
				fmt.Fprintln(a.stdout, f)
			}
			for _, c := range res.Governance {
				fmt.Fprintln(a.stdout, c)
			}
			for _, c := range res.Adopted {
				fmt.Fprintln(a.stdout, c)
			}
			fmt.Fprintln(a.stdout, res.Summary())
			if res.Failed() {
				return exitError{exitFail}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "treat untraced changes as errors")
	return cmd
}
