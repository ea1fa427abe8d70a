package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/acceptance"
	"github.com/intenthook/intenthook/internal/anchors"
	"github.com/intenthook/intenthook/internal/budget"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/review"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/summary"
)

func (a *app) listCommand() *cobra.Command {
	var status string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the intents: id, status, version, name and scope",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			var list []*intents.Intent
			for _, in := range ws.Catalog.All() {
				if status == "" || string(in.Status) == strings.ToUpper(status) {
					list = append(list, in)
				}
			}
			if asJSON {
				return a.printJSON(emptyIfNil(list))
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSTATUS\tVERSION\tNAME\tSCOPE")
			for _, in := range list {
				name := in.Name
				if !in.Valid() {
					name += " (invalid)"
				}
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", dash(in.ID), dash(string(in.Status)), in.Version, name, in.ScopeSummary())
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&status, "status", "", "only intents with this status")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func emptyIfNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// printJSON writes v as indented JSON, <, > and & as they are (authors are
// Name <email>), bidirectional and C1 controls escaped
// (safetext.EscapeJSON): every --json output of the commands.
func (a *app) printJSON(v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := a.stdout.Write(safetext.EscapeJSON(b.Bytes()))
	return err
}

func (a *app) showCommand() *cobra.Command {
	var asJSON, asContext bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one intent (--context: the <intent_context> an agent receives)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			in := ws.Catalog.Find(args[0])
			if in == nil {
				return withHint(fmt.Errorf("intent %s not found", args[0]), "list intents with 'intenthook intents list'")
			}
			if asContext {
				fmt.Fprintln(a.stdout, ws.IntentContext(in, "", review.Rejected(ws, in), ws.Budget()))
				return nil
			}
			anchored, err := anchors.All(ws.Root, in.ID)
			if err != nil {
				return err
			}
			result := latestResult(ws.Root, in.ID)
			if asJSON {
				return a.printJSON(struct {
					*intents.Intent
					Anchors []anchors.Anchor `json:"anchors,omitempty"`
					Result  *summary.Result  `json:"result,omitempty"`
				}{in, anchored, result})
			}
			a.printIntent(in)
			a.printTree(ws.Catalog, in)
			a.printResult(result)
			for i, an := range anchored {
				if i == 0 {
					fmt.Fprintln(a.stdout, "anchors:")
				}
				where := ""
				if an.Intent == "" {
					where = " (workspace)"
				}
				if !an.Person() {
					where += " by " + safetext.Quote(an.By) + " (an agent's note)"
				}
				fmt.Fprintf(a.stdout, "  - [%s]%s %s\n", an.At, where, safetext.Quote(an.Text))
			}
			writeScopeRequests(a.stdout, ws.Root, in.ID)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&asContext, "context", false, "print the <intent_context> XML injected into agents")
	cmd.MarkFlagsMutuallyExclusive("json", "context")
	return cmd
}

// printTree names in's parent and children.
func (a *app) printTree(c *intents.Catalog, in *intents.Intent) {
	if p := c.Find(in.ParentIntent); p != nil {
		fmt.Fprintf(a.stdout, "parent:    %s %s [%s]\n", p.ID, p.Name, p.Status)
	}
	var kids []string
	for _, ch := range c.Children(in.ID) {
		kids = append(kids, fmt.Sprintf("%s [%s]", ch.ID, ch.Status))
	}
	if len(kids) > 0 {
		fmt.Fprintf(a.stdout, "children:  %s\n", strings.Join(kids, ", "))
	}
}

func (a *app) printIntent(in *intents.Intent) {
	w := a.stdout
	fmt.Fprintf(w, "%s  %s\n", in.ID, in.Name)
	fmt.Fprintf(w, "status:    %s (version %d)\n", in.Status, in.Version)
	fmt.Fprintf(w, "scope:     %s\n", in.ScopeSummary())
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(w, "%s\n", title)
		for _, it := range items {
			fmt.Fprintf(w, "  - %s\n", it)
		}
	}
	list("constraints:", in.Constraints)
	var crit []string
	for _, c := range in.AcceptanceCriteria {
		if c.Check != "" {
			crit = append(crit, fmt.Sprintf("%s  [check: %s]", c.Description, c.Check))
		} else {
			crit = append(crit, c.Description)
		}
	}
	list("acceptance criteria:", crit)
	if len(in.DependsOn) > 0 {
		fmt.Fprintf(w, "depends on: %s\n", strings.Join(in.DependsOn, ", "))
	}
	if len(in.AllowedTools) > 0 {
		fmt.Fprintf(w, "allowed tools: %s\n", strings.Join(in.AllowedTools, ", "))
	}
	if in.RequiresApproval {
		fmt.Fprintln(w, "requires approval: every write asks")
	}
	if in.Review != "" {
		fmt.Fprintf(w, "review:    %s\n", in.Review)
	}
	if in.Budget.Set() {
		var kinds []string
		for _, u := range budget.Uses(in.Budget, budget.Spent{}) {
			kinds = append(kinds, u.Amount(u.Limit)+" "+string(u.Kind))
		}
		fmt.Fprintf(w, "budget:    %s (intenthook budget %s: what it spent)\n", strings.Join(kinds, ", "), in.ID)
	}
	fmt.Fprintf(w, "created %s, updated %s\n", dash(in.CreatedAt), dash(in.UpdatedAt))
	if in.CompletedAt != "" {
		fmt.Fprintf(w, "completed %s\n", in.CompletedAt)
	}
	for _, p := range in.Problems {
		fmt.Fprintf(w, "%s: line %d: %s\n", p.Severity, p.Line, p.Message)
	}
}

func (a *app) transitionCommand() *cobra.Command {
	var reason string
	var force bool
	cmd := &cobra.Command{
		Use:   "transition ID STATUS",
		Short: "Change an intent's status under the lifecycle state machine",
		Long: `Change an intent's status. Allowed transitions:

  PENDING     -> IN_PROGRESS, ARCHIVED
  IN_PROGRESS -> COMPLETE (through 'intents verify', or --force --reason), BLOCKED, ARCHIVED
                 IN_REVIEW (review: required; through 'submit' or 'intents verify')
  IN_REVIEW   -> COMPLETE ('intents approve', or --force --reason),
                 IN_PROGRESS ('intents reject --reason'), ARCHIVED
  BLOCKED     -> IN_PROGRESS, ARCHIVED
  COMPLETE    -> ARCHIVED
  ARCHIVED    -> (terminal)

Only the intent's status and updated_at change in the catalog file; every
other byte is kept. The change is recorded in the ledger.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if force && reason == "" {
				return errors.New("--force needs --reason")
			}
			if err := a.personOnly("intents transition"); err != nil {
				return err
			}
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			to := intents.Status(strings.ToUpper(args[1]))
			from, err := lifecycle.NewEditor(ws, "", "intenthook", Version).Apply(cmd.Context(), lifecycle.Transition{ID: args[0], To: to, Reason: reason, Force: force})
			if errors.Is(err, lifecycle.ErrNeedsVerify) {
				return withHint(err, "run 'intenthook intents verify "+args[0]+"' (for an IN_REVIEW intent: 'intenthook intents approve "+args[0]+"')")
			}
			if errors.Is(err, lifecycle.ErrNeedsReview) {
				return withHint(err, "an agent submits it; approve it with 'intenthook intents approve "+args[0]+"'")
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s: %s -> %s\n", args[0], from, to)
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why (recorded in the ledger)")
	cmd.Flags().BoolVar(&force, "force", false, "allow COMPLETE without a passing verify (needs --reason)")
	return cmd
}

func (a *app) verifyCommand() *cobra.Command {
	var confirm, asJSON bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "verify ID",
		Short: "Run an IN_PROGRESS intent's acceptance checks; all pass -> COMPLETE",
		Long: `Run each acceptance criterion's check with 'sh -c' from the workspace root.
String criteria have no check: confirm them with --confirm-manual. When every
criterion is met, the intent becomes COMPLETE. The report is recorded in the
ledger either way.

The checks are code an agent may have written. On Linux with Landlock they
run confined: they may write the workspace but its governance files, temp and
the build caches; elsewhere they run with your rights, and verify says so.
A governance file the checks changed anyway is put back and recorded as a
violation, and nothing completes.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := a.personOnly("intents verify"); err != nil {
				return err
			}
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			report := func(in *intents.Intent, results []acceptance.Result) error {
				if asJSON {
					return a.printJSON(map[string]any{"intent": in.ID, "passed": acceptance.AllOK(results), "criteria": emptyIfNil(results)})
				}
				a.printVerify(results)
				return nil
			}
			if n := acceptance.Notice(ws.Root, ws.Catalog.Find(args[0])); n != "" {
				fmt.Fprintln(a.stderr, "intenthook: "+n)
			}
			v, err := review.Verify(cmd.Context(), ws, args[0], review.VerifyOptions{Confirm: confirm, Timeout: timeout, ToolVersion: Version, Report: report})
			for _, w := range v.Warnings {
				fmt.Fprintf(a.stderr, "intenthook: warning: %v\n", w)
			}
			switch {
			case errors.Is(err, review.ErrNothingToVerify):
				return withHint(err, "confirm by hand that the work is done with --confirm-manual, or add a criterion (with a check) to the catalog")
			case err != nil:
				return err
			case v.To == "":
				return exitError{exitFail}
			}
			if !asJSON {
				fmt.Fprintf(a.stdout, "%s: IN_PROGRESS -> %s\n", v.Intent.ID, v.To)
				if v.To == intents.InReview {
					fmt.Fprintf(a.stdout, "%s requires review: approve it with 'intenthook intents approve %s'\n", v.Intent.ID, v.Intent.ID)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&confirm, "confirm-manual", false, "confirm the criteria that have no check")
	cmd.Flags().DurationVar(&timeout, "timeout", 10*time.Minute, "time limit per check")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

func (a *app) printVerify(rs []acceptance.Result) {
	a.printChecks(rs)
	if !acceptance.AllOK(rs) {
		fmt.Fprintln(a.stdout, "not complete: every criterion must pass (string criteria need --confirm-manual)")
	}
}

// printChecks prints one line per criterion, with the output of each that
// is not met.
func (a *app) printChecks(rs []acceptance.Result) {
	for _, r := range rs {
		fmt.Fprintf(a.stdout, "%s %s: %s", r.Mark(), r.Description, r.Outcome)
		if r.Check != "" {
			fmt.Fprintf(a.stdout, " (%s, %s)", r.Check, r.Duration.Round(time.Millisecond))
		}
		fmt.Fprintln(a.stdout)
		if !r.OK() && strings.TrimSpace(r.Output) != "" {
			for _, l := range strings.Split(strings.TrimRight(r.Output, "\n"), "\n") {
				fmt.Fprintf(a.stdout, "    %s\n", l)
			}
		}
	}
}

func (a *app) scopeCommand() *cobra.Command {
	var add, remove []string
	var reason string
	var approve, reject int
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "scope ID [--add GLOB | --remove GLOB [--dry-run] | --approve N | --reject N]",
		Short: "Amend an intent's owned_scope (bumps its version); alone, its pending scope requests",
		Long: `Amend an intent's owned_scope (bumps its version), or answer a scope request
an agent filed. Alone, it lists the intent's pending requests. Each change,
request and answer says how many of the intent's recorded writes and denials
it would have flipped (intenthook replay, on that intent's records only);
--dry-run says so and changes nothing.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if approve > 0 || reject > 0 {
				if approve > 0 && reject > 0 || len(add)+len(remove) > 0 {
					return errors.New("--approve and --reject take no other change")
				}
				return a.answerScopeRequest(cmd.Context(), args[0], approve, reject)
			}
			if len(add) == 0 && len(remove) == 0 {
				return a.listScopeRequests(cmd.Context(), args[0])
			}
			if dryRun {
				return a.weighScope(cmd.Context(), args[0], add, remove)
			}
			if err := a.personOnly("intents scope"); err != nil {
				return err
			}
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			if err := a.personAct(cmd.Context(), ws, "intents scope", "intents scope "+args[0], args[0]); err != nil {
				return err
			}
			flips := a.scopeFlips(cmd.Context(), ws.Root, args[0], add, remove)
			scope, version, err := lifecycle.NewEditor(ws, "", "intenthook", Version).Amend(cmd.Context(), args[0], add, remove, reason)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s: owned_scope %s (version %d)\n", args[0], strings.Join(scope, ", "), version)
			fmt.Fprint(a.stdout, flips)
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&add, "add", nil, "add a glob (repeatable)")
	cmd.Flags().StringArrayVar(&remove, "remove", nil, "remove a glob (repeatable)")
	cmd.Flags().StringVar(&reason, "reason", "", "why (recorded in the ledger)")
	cmd.Flags().IntVar(&approve, "approve", 0, "apply the pending scope request N an agent filed")
	cmd.Flags().IntVar(&reject, "reject", 0, "drop the pending scope request N")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "say what --add and --remove would have flipped, and change nothing")
	return cmd
}
