package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/replay"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/workspace"
)

func (a *app) replayCommand() *cobra.Command {
	var rules replay.Rules
	var f replay.Filter
	var since, at string
	var limit int
	var asJSON, asMarkdown bool
	var budgets []string
	cmd := &cobra.Command{
		Use:   "replay [REVISION-RANGE]",
		Short: "Re-judge the writes the ledger recorded against candidate rules: what they would have denied or allowed",
		Long: `Re-judge every write the ledger records (allowed writes, denials with their
target, a shell command's files, violations) against candidate rules, and
say what would have changed: newly denied (writes that happened and the
candidate would refuse), newly allowed (denials it would have let through),
unchanged, and writes under intents the candidate removed.

The candidate is the work tree's rules, or a revision's (--rules REV), with
any file replaced (--catalog, --config, --ignore for
.orchestration/.intentignore, --root-ignore for the root .intentignore). The
baseline is each record's own decision. Each intent's status is taken as
recorded; the stale-file check and locks, which depend on the moment, are
not judged again.

The records: the work tree's whole ledger, those of --since (7d, 12h, a
date), --session, --intent; REVISION-RANGE (A..B) replays the records B's
ledger holds beyond A's; --at REV, the ledger as REV holds it.

--budget ID=calls:300,tokens:2M,usd:12.50 (or --budget ID, the candidate
catalog's budget of ID) asks what that budget would have stopped: the
first recorded call pre would have refused budget_exceeded, and the calls
after it. See docs/replay.md.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := a.workspaceRoot()
			if err != nil {
				return err
			}
			if since != "" {
				if f.Since, err = parseSince(since); err != nil {
					return err
				}
			}
			src := &replay.Source{Root: root, At: at}
			if len(args) == 1 {
				src.Range = args[0]
			}
			var repo *git.Repo
			var paths git.Paths
			if rules.Rev != "" || src.Range != "" || src.At != "" {
				if repo, paths, err = git.Locate(cmd.Context(), root, root); err != nil {
					return withHint(err, "--rules, --at and a revision range read git objects: run in a git repository, with git on PATH")
				}
				src.Repo, src.Paths = repo, paths
			}
			cand, err := rules.Load(cmd.Context(), root, repo, paths, workspace.Governance(agent.Governance()))
			if err != nil {
				return err
			}
			rp := replay.New(cand, f)
			if len(budgets) > 0 {
				asked, err := askedBudgets(budgets, cand)
				if err != nil {
					return err
				}
				rp.Budgets(asked, limit)
			}
			if err := src.Each(cmd.Context(), rp.Line); err != nil {
				return err
			}
			rep := rp.Report(describeRange(src, f, since), limit)
			switch {
			case asJSON:
				return a.printJSON(rep)
			case asMarkdown:
				rep.Markdown(a.stdout)
			default:
				rep.Text(a.stdout)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&rules.Rev, "rules", "", "judge by the rules a revision holds (default: the work tree's)")
	fl.StringVar(&rules.Catalog, "catalog", "", "the candidate's catalog, from a file")
	fl.StringVar(&rules.Config, "config", "", "the candidate's config.yaml (roles, tools:, protected_paths), from a file")
	fl.StringVar(&rules.Ignore, "ignore", "", "the candidate's .orchestration/.intentignore, from a file")
	fl.StringVar(&rules.RootIgnore, "root-ignore", "", "the candidate's root .intentignore, from a file")
	fl.StringVar(&since, "since", "", "only records since a time: a duration back from now (7d, 36h) or a date")
	fl.StringVar(&f.Session, "session", "", "only one session's records")
	fl.StringVar(&f.Intent, "intent", "", "only one intent's records")
	fl.StringVar(&at, "at", "", "replay the ledger as a revision holds it, not the work tree's")
	fl.IntVar(&limit, "limit", 20, "groups listed per outcome, the largest first (0: all)")
	fl.BoolVar(&asJSON, "json", false, "print the result as JSON (docs/replay.schema.json)")
	fl.BoolVar(&asMarkdown, "markdown", false, "print a pull-request summary in Markdown")
	fl.StringArrayVar(&budgets, "budget", nil, "what a budget would have stopped: ID=calls:N,tokens:N,usd:X (k, M, G), or ID for the candidate catalog's")
	cmd.MarkFlagsMutuallyExclusive("json", "markdown")
	return cmd
}

func describeRange(src *replay.Source, f replay.Filter, since string) string {
	d := src.Describe()
	var only []string
	if since != "" {
		only = append(only, "since "+since)
	}
	if f.Session != "" {
		only = append(only, "session "+f.Session)
	}
	if f.Intent != "" {
		only = append(only, "intent "+f.Intent)
	}
	if len(only) > 0 {
		d += " (" + strings.Join(only, ", ") + ")"
	}
	return d
}

// askedBudgets reads --budget's values: ID=KIND:N,… or ID alone, whose
// budget the candidate's catalog gives.
func askedBudgets(flags []string, cand *replay.Candidate) (map[string]intents.Budget, error) {
	out := map[string]intents.Budget{}
	for _, f := range flags {
		id, spec, given := strings.Cut(f, "=")
		if id == "" {
			return nil, fmt.Errorf("--budget %s: name the intent: ID=calls:N,tokens:N,usd:X", safetext.Quote(f))
		}
		if given {
			b, err := replay.ParseBudget(spec)
			if err != nil {
				return nil, fmt.Errorf("--budget %s: %w", safetext.Quote(f), err)
			}
			out[id] = b
			continue
		}
		var in *intents.Intent
		if cand.Rules.Catalog != nil {
			in = cand.Rules.Catalog.Find(id)
		}
		if in == nil || !in.Budget.Set() {
			return nil, withHint(fmt.Errorf("--budget %s: the candidate's catalog gives %s no budget", safetext.Quote(f), safetext.Quote(id)),
				"give one: --budget "+id+"=calls:N,tokens:N,usd:X")
		}
		out[id] = in.Budget
	}
	return out, nil
}
