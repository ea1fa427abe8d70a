package cli

import (
	"os"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/doctor"
)

func (a *app) doctorCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the installation and the workspace; exit 1 on any failure",
		Long: `Check everything intenthook needs to govern this workspace: the root and its
catalog, the settings, state/ and its locks, the Claude Code hook wiring (with
Claude Code's matcher rules), that the hook command finds an executable, git,
the git pre-commit backstop, and the ledger. Each failed check says what to do.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			wd, _ := os.Getwd()
			checks := doctor.Run(cmd.Context(), doctor.Env{Root: a.root, Start: wd, Getenv: a.getenv, Version: Version, LookPath: exec.LookPath})
			doctor.Write(a.stdout, checks)
			if doctor.Failed(checks) {
				return exitError{exitFail}
			}
			return nil
		},
	}
}
