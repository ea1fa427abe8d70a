package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/audit"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/replay"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/workspace"
)

func (a *app) auditCommand() *cobra.Command {
	var strict, asJSON, asMarkdown, asSARIF bool
	cmd := &cobra.Command{
		Use:   "audit [REVISION-RANGE]",
		Short: "Check each commit of a range against its own intents and the ledger (for CI); exit 1 on errors",
		Long: `Check each commit of REVISION-RANGE (default: the merge base with the default
branch ..HEAD) from git objects only, never the working tree: each changed path
must lie in the owned_scope of an IN_PROGRESS or COMPLETE intent of that
commit's catalog (else an error) and its content must be traced by a record of
the range's last ledger (else a warning; an error with --strict). Merge commits
are judged by their combined diff only. The range's last ledger is verified
(chain, seq, forks of a union merge's shape only) and must keep every line of
the ledger the range started from. Changes to the catalog are listed per
commit with their author. The last line prints the ledger head of
the range's last commit: keep it, and check it later with
'intenthook ledger verify --checkpoint SEQ:HASH'.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			start := a.root
			if start == "" {
				start, _ = os.Getwd()
			}
			g, _, err := git.Locate(cmd.Context(), start, start)
			if err != nil {
				return withHint(err, "intenthook audit runs in a git repository, with git on PATH")
			}
			rng := ""
			if len(args) == 1 {
				rng = args[0]
			} else if rng, err = g.DefaultRange(cmd.Context()); err != nil {
				return err
			}
			res, err := audit.Run(cmd.Context(), g, rng, strict)
			if err != nil {
				return err
			}
			if len(args) == 0 && res.Commits == 0 {
				// On the default branch its merge base is HEAD itself.
				fmt.Fprintf(a.stderr, "intenthook: hint: the default range %s holds no commit: HEAD is on the default branch; pass the commits to audit, e.g. intenthook audit HEAD~10..HEAD, or the first commit's parent..HEAD\n", rng)
			}
			if asSARIF {
				if err := res.SARIF(a.stdout, Version); err != nil {
					return err
				}
			} else if asJSON {
				if err := a.printJSON(res); err != nil {
					return err
				}
			} else if asMarkdown {
				res.Markdown(a.stdout)
				a.replayRulesChange(cmd.Context(), res)
			} else {
				res.Text(a.stdout)
			}
			if res.Failed() {
				return exitError{exitFail}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "treat untraced changes as errors")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	cmd.Flags().BoolVar(&asMarkdown, "markdown", false, "print a pull-request summary in Markdown: per intent, catalog changes with their authors, findings; when the range changes the rules, the replay of the last 30 days of its base's ledger against its last commit's rules")
	cmd.Flags().BoolVar(&asSARIF, "sarif", false, "print the findings as SARIF 2.1.0 (GitHub code scanning)")
	cmd.MarkFlagsMutuallyExclusive("json", "markdown", "sarif")
	return cmd
}

// replayWindow and replayLimit bound the replay a pull request's summary
// shows: the base's records of the last 30 days, the 20 largest changes.
const (
	replayWindow = 30 * 24 * time.Hour
	replayLimit  = 20
)

// replayRulesChange appends, when the audited range changes the rules
// (the catalog, an ignore file, config.yaml), the replay of the last 30
// days of the range's base's ledger against the rules of its last commit:
// what the change would have done to the work already recorded. A replay
// that cannot run is a warning; the audit stands.
func (a *app) replayRulesChange(ctx context.Context, res *audit.Result) {
	changes := len(res.Rules) > 0
	for _, g := range res.Governance {
		changes = changes || g.Path == config.File
	}
	from, to, ok := strings.Cut(res.Range, "..")
	if !changes || !ok || from == "" || strings.HasPrefix(to, ".") {
		return
	}
	if to == "" {
		to = "HEAD"
	}
	err := func() error {
		root, err := a.workspaceRoot()
		if err != nil {
			return err
		}
		repo, paths, err := git.Locate(ctx, root, root)
		if err != nil {
			return err
		}
		cand, err := replay.Rules{Rev: to}.Load(ctx, root, repo, paths, workspace.Governance(agent.Governance()))
		if err != nil {
			return err
		}
		rp := replay.New(cand, replay.Filter{Since: nowFunc().Add(-replayWindow)})
		src := &replay.Source{Root: root, Repo: repo, Paths: paths, At: from}
		if err := src.Each(ctx, rp.Line); err != nil {
			return err
		}
		fmt.Fprintln(a.stdout)
		rp.Report(src.Describe()+" (the last 30 days)", replayLimit).Markdown(a.stdout)
		return nil
	}()
	if err != nil {
		fmt.Fprintf(a.stderr, "intenthook: warning: the replay of the rules change: %s\n", safetext.OneLine(err.Error()))
	}
}
