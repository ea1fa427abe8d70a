package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/precommit"
	"github.com/intenthook/intenthook/internal/safetext"
)

func (a *app) precommitCommand() *cobra.Command {
	var strict bool
	var commitMsg string
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
Outside a governed workspace it exits 0 silently.

Under people.commits: free (HEAD's config.yaml), a commit that runs in no
agent's process tree is a person's: its untraced changes, inside or outside
any intent, are listed as person_change warnings. With --commit-msg FILE it
is git's commit-msg step instead: it marks such a commit's message with the
trailer Intenthook-Person: Name <email>, which audit reads, and refuses an
agent's commit whose message carries it. INTENTHOOK_PRECOMMIT_AS=agent
judges the commit as an agent's whatever its process: it can only make
the check stricter (doctor --hooks sets it for its probe commit).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			start := a.root
			if start == "" {
				start, _ = os.Getwd()
			} else if _, err := a.workspaceRoot(); err != nil {
				return err // an explicit --root must be governed
			}
			asAgent := a.getenv(precommit.AsEnv) == precommit.AsAgent
			if commitMsg != "" {
				mark, err := precommit.Mark(cmd.Context(), precommit.MarkOptions{Start: start, Message: commitMsg, AsAgent: asAgent})
				if err != nil {
					return err
				}
				if mark != "" {
					fmt.Fprintln(a.stderr, "precommit: a person's commit: marked "+mark)
				}
				return nil
			}
			res, err := precommit.Run(cmd.Context(), precommit.Options{Start: start, Strict: strict, AsAgent: asAgent})
			if err != nil {
				return withHint(err, "intenthook precommit runs in a git work tree, with git on PATH")
			}
			if !res.Governed {
				return nil
			}
			for _, w := range res.Warnings {
				fmt.Fprintf(a.stderr, "intenthook: warning: %s\n", safetext.OneLine(w))
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
			for _, t := range res.Transitions {
				fmt.Fprintln(a.stdout, t)
			}
			fmt.Fprintln(a.stdout, res.Summary())
			if res.Failed() {
				for _, h := range res.Hints() {
					fmt.Fprintf(a.stderr, "intenthook: hint: %s\n", h)
				}
				return exitError{exitFail}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "treat untraced changes as errors")
	cmd.Flags().StringVar(&commitMsg, "commit-msg", "", "git's commit-msg step: mark a person's commit in the message FILE (people.commits: free)")
	return cmd
}
