package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/setup"
)

func (a *app) initCommand() *cobra.Command {
	var opts setup.Options
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Scaffold a governed workspace and wire the hooks (idempotent)",
		Long: `Scaffold a governed workspace at the top of the git work tree (or --root):
an example catalog, an example .intentignore, the .gitignore and
.gitattributes entries for .orchestration/, and intenthook's hooks merged into
.claude/settings.json. With --git-hook, also a git pre-commit hook running
"intenthook precommit".

Existing files are kept: settings gain only the hooks they lack, lists only
the lines they lack, and the catalog is never replaced. --force replaces an
existing .intentignore and another pre-commit hook. Running it twice changes
nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.personOnly("intenthook init"); err != nil {
				return err
			}
			wd, _ := os.Getwd()
			root, err := setup.Root(cmd.Context(), a.root, wd)
			if err != nil {
				return err
			}
			if opts.User {
				opts.Root = root
				c, err := setup.InitUser(opts)
				var conflicts setup.Conflicts
				if errors.As(err, &conflicts) {
					return withHint(err, conflicts.Hints()...)
				}
				if err != nil {
					return err
				}
				fmt.Fprintln(a.stdout, c)
				return nil
			}
			opts.Root, opts.Now = root, nowFunc
			fmt.Fprintf(a.stdout, "workspace root: %s\n", root)
			changes, err := setup.Init(cmd.Context(), opts)
			for _, c := range changes {
				fmt.Fprintln(a.stdout, c)
			}
			var conflicts setup.Conflicts
			if errors.As(err, &conflicts) {
				return withHint(err, conflicts.Hints()...)
			}
			if err != nil {
				return err
			}
			if opts.Roles {
				fmt.Fprintf(a.stdout, "add to .orchestration/config.yaml (init does not change your settings):\n%s", setup.RolesConfig)
			}
			fmt.Fprintln(a.stdout, full.Speak("next: describe your work in .orchestration/active_intents.yaml, check it with 'intenthook intents validate', then 'intenthook doctor'"))
			return nil
		},
	}
	cmd.Flags().StringVar(&opts.Agent, "agent", agent.Default, "the agent whose hooks to wire: "+strings.Join(agent.Names(), ", "))
	cmd.Flags().BoolVar(&opts.GitHook, "git-hook", false, "also install a git pre-commit hook running 'intenthook precommit'")
	cmd.Flags().BoolVar(&opts.Sandbox, "sandbox", false, "also turn on the agent's OS sandbox for shell commands (Claude Code, Codex), with the governance files read-only and (Claude Code) no way out of it for a single command")
	cmd.Flags().BoolVar(&opts.Roles, "roles", false, "also write example subagent definitions (coordinator, investigator, executor) to .claude/agents/ and print the roles: entries to add")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "replace an existing .intentignore and another pre-commit hook")
	cmd.Flags().BoolVar(&opts.User, "user", false, "wire the agent in the user's own hooks file (~/.junie/config.json for Junie, which reads hooks from nowhere else), merging with what is there; nothing else is written")
	cmd.Flags().StringVar(&opts.Export, "export", "", "also export the ledger at the end of each session: otlp (an export: block in config.yaml; see docs/otel.md)")
	return cmd
}
