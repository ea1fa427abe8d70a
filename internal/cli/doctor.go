package cli

import (
	"os"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/doctor"
)

func (a *app) doctorCommand() *cobra.Command {
	var hooks bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the installation and the workspace; exit 1 on any failure",
		Long: `Check everything intenthook needs to govern this workspace: the root and its
catalog, the settings, state/ and its locks, the Claude Code hook wiring (with
Claude Code's matcher rules), that the hook command finds an executable, git,
the git pre-commit backstop, and the ledger. Each failed check says what to do.

With --hooks it also proves the pre-commit chain with a real commit: in a
throwaway work tree of HEAD (git worktree add --detach, in a temporary
directory, removed afterwards), a file outside every intent is staged and
committed through git's own hooks, judged as an agent's commit
(INTENTHOOK_PRECOMMIT_AS=agent); the commit must be refused by intenthook
precommit within a minute.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			wd, _ := os.Getwd()
			checks := doctor.Run(cmd.Context(), doctor.Env{Root: a.root, Start: wd, Getenv: a.getenv, Version: Version, LookPath: exec.LookPath, Hooks: hooks})
			doctor.Write(a.stdout, checks)
			if doctor.Failed(checks) {
				return exitError{exitFail}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&hooks, "hooks", false, "also prove the pre-commit hook with a real commit in a throwaway work tree")
	return cmd
}
