package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/intents"
)

func (a *app) intentsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "intents",
		Short: "Inspect and manage the intent catalog",
	}
	cmd.AddCommand(a.listCommand(), a.showCommand(), a.validateCommand(), a.transitionCommand(), a.verifyCommand(), a.scopeCommand())
	return cmd
}

func (a *app) validateCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "validate [FILE]",
		Short: "Check the intent catalog; prints FILE:LINE: ID: error|warning: message, exits 1 on errors",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, shown, err := a.catalogPath(args)
			if err != nil {
				return err
			}
			c, err := intents.Load(path)
			if err != nil {
				return err
			}
			for _, p := range c.Problems {
				fmt.Fprintln(a.stdout, p.Format(shown))
			}
			if len(args) == 0 {
				if cfg, err := config.Load(filepath.Dir(filepath.Dir(path)), a.getenv); err == nil {
					for _, w := range cfg.Warnings {
						fmt.Fprintf(a.stdout, "%s\n", w)
					}
				} else {
					fmt.Fprintf(a.stdout, "%s\n", err)
				}
			}
			if c.HasErrors() {
				return exitError{exitFail}
			}
			fmt.Fprintf(a.stdout, "%s: %d intents, valid\n", shown, len(c.All()))
			return nil
		},
	}
}

// catalogPath is FILE when given, else the catalog of the workspace found
// from --root or the working directory.
func (a *app) catalogPath(args []string) (path, shown string, err error) {
	if len(args) == 1 {
		return args[0], args[0], nil
	}
	root, err := a.workspaceRoot()
	if err != nil {
		return "", "", withHint(err, "or pass the catalog file")
	}
	return filepath.Join(root, filepath.FromSlash(intents.File)), intents.File, nil
}
