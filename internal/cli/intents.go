package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/lifecycle"
)

func (a *app) intentsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "intents",
		Short: "Inspect and manage the intent catalog",
	}
	cmd.AddCommand(a.listCommand(), a.showCommand(), a.validateCommand(), a.transitionCommand(), a.verifyCommand(), a.scopeCommand(), a.treeCommand(), a.approveCommand(), a.rejectCommand())
	return cmd
}

func (a *app) validateCommand() *cobra.Command {
	var fix bool
	cmd := &cobra.Command{
		Use:   "validate [FILE]",
		Short: "Check the intent catalog; prints FILE:LINE: ID: error|warning: message, exits 1 on errors",
		Long: `Check the intent catalog; prints FILE:LINE: ID: error|warning: message and
exits 1 on errors.

--fix (a person's command) first adds what a hand-written catalog may leave
out: created_at and updated_at where missing, and completed_at on ARCHIVED
intents whose completion the ledger recorded.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if fix {
				if len(args) > 0 {
					return withHint(fmt.Errorf("--fix changes the workspace's catalog, not a FILE"), "run it without FILE")
				}
				if err := a.fixCatalog(cmd); err != nil {
					return err
				}
			}
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
	cmd.Flags().BoolVar(&fix, "fix", false, "add missing created_at/updated_at, backfill completed_at of archived intents from the ledger")
	return cmd
}

// fixCatalog runs `intents validate --fix`: one locked rewrite of the
// catalog, then the validation of the result.
func (a *app) fixCatalog(cmd *cobra.Command) error {
	if err := a.personOnly("intents validate --fix"); err != nil {
		return err
	}
	ws, err := a.openWorkspace()
	if err != nil {
		return err
	}
	done, err := lifecycle.Completions(ws.Root)
	if err != nil {
		return err
	}
	fixed, err := lifecycle.NewEditor(ws, "", "intenthook", Version).Fix(cmd.Context(), done)
	for _, f := range fixed {
		if len(f.Keys) > 0 {
			fmt.Fprintf(a.stdout, "%s: fixed: added %s\n", f.ID, strings.Join(f.Keys, ", "))
		}
		if f.Note != "" {
			fmt.Fprintf(a.stdout, "%s: %s\n", f.ID, f.Note)
		}
	}
	return err
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
