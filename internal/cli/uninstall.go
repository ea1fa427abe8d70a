package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

func (a *app) uninstallCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "uninstall",
		Short: "Stop governing this work tree: remove the marker init left under the git directory (a person's command)",
		Long: `Remove the marker 'intenthook init' wrote under the work tree's git
directory (intenthook/governed), which tells the hooks that this work tree is
governed. While it is there and the catalog is missing (.orchestration/ moved
or removed), the hooks deny every call that may change anything
(governance_missing), in either fail mode. Run it when you mean to stop
governing the work tree, or to leave an old checkout without rules.

It removes nothing else, and says what it leaves: .orchestration/ (while the
catalog is there, the work tree stays governed), the agents' hook wiring, the
git pre-commit hook, and init's lines in .gitignore and .gitattributes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.personOnly("intenthook uninstall"); err != nil {
				return err
			}
			root, err := a.uninstallRoot()
			if err != nil {
				return err
			}
			// The catalog may be gone: the windows and the ledger are read
			// and written with the defaults.
			ws := &workspace.Workspace{Root: root, Config: config.Default(), Sessions: state.Sessions{Root: root}}
			if err := a.personAct(cmd.Context(), ws, "intenthook uninstall", "uninstall", ""); err != nil {
				return err
			}
			path, removed, err := workspace.Unmark(root)
			switch {
			case err != nil:
				return fmt.Errorf("remove the marker %s: %w", path, err)
			case path == "":
				return withHint(fmt.Errorf("%s is not in a git work tree: no marker says it is governed", root),
					"without a catalog the hooks already read it as ungoverned")
			case !removed:
				fmt.Fprintf(a.stdout, "no marker names %s (%s): nothing to remove\n", root, path)
			default:
				fmt.Fprintf(a.stdout, "removed %s from %s: the hooks no longer refuse changes here when the catalog is missing\n", root, path)
			}
			a.printLeft(root)
			return nil
		},
	}
}

// uninstallRoot is --root, else the governed root around the working
// directory, else the root a marker names around it (its catalog gone).
func (a *app) uninstallRoot() (string, error) {
	if a.root != "" {
		return filepath.Abs(a.root)
	}
	wd, _ := os.Getwd()
	if root := workspace.FindRoot(wd); root != "" {
		return root, nil
	}
	if root := workspace.Marked(wd); root != "" {
		return root, nil
	}
	return "", withHint(errors.New("no governed work tree here: neither a catalog nor a marker names this directory"),
		"run it inside the work tree, or pass --root DIR")
}

// printLeft says what uninstall leaves in place.
func (a *app) printLeft(root string) {
	fmt.Fprintln(a.stdout, "left in place (remove what you no longer want by hand):")
	if workspace.IsRoot(root) {
		fmt.Fprintf(a.stdout, "  %s: while it exists the work tree stays governed\n", workspace.Marker)
	}
	if _, err := os.Stat(filepath.Join(root, ".orchestration")); err == nil {
		fmt.Fprintln(a.stdout, "  .orchestration/: the catalog, settings, the ledger and state")
	}
	fmt.Fprintln(a.stdout, "  the agents' hook wiring init wrote (.claude/settings.json and the like; intenthook doctor lists it)")
	fmt.Fprintln(a.stdout, "  a git pre-commit hook that runs intenthook precommit, if init --git-hook installed one")
	fmt.Fprintln(a.stdout, "  init's lines in .gitignore and .gitattributes")
}
