package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/budget"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/money"
	"github.com/intenthook/intenthook/internal/safetext"
)

func (a *app) budgetCommand() *cobra.Command {
	var tokens, usd, calls string
	cmd := &cobra.Command{
		Use:   "budget ID [--tokens +N] [--usd +X] [--calls +N]",
		Short: "Raise an intent's budget (a person's command); alone, what it spent and what remains",
		Long: `An intent's budget (budget: {tokens, usd, calls} in the catalog) stops its
writes once its spend reaches it (budget_exceeded). intenthook budget ID
--tokens +1M raises the tokens the intent may spend by a million (k, M, G
suffixes; --usd takes dollars, --calls whole calls); the raise is added to
the intent's counters and recorded in the ledger. Raising is a person's
command: refused from an agent's process. Alone, it prints what the intent
spent and what remains. See docs/budgets.md.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			var raise intents.Budget
			var err error
			if raise.Tokens, err = parseRaise("tokens", tokens, parseCount); err != nil {
				return err
			}
			if raise.Calls, err = parseRaise("calls", calls, parseCount); err != nil {
				return err
			}
			if raise.MicroUSD, err = parseRaise("usd", usd, money.Parse); err != nil {
				return err
			}
			if raise.Set() {
				// Before anything is read: an agent's process learns nothing here.
				if err := a.personOnly("intenthook budget"); err != nil {
					return err
				}
			}
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			in := ws.Catalog.Find(id)
			if in == nil {
				return fmt.Errorf("no intent %s in the catalog", safetext.Quote(id))
			}
			if !raise.Set() {
				spent, err := budget.Read(ws.Root, id)
				if err != nil {
					return err
				}
				a.printBudget(in, spent)
				return nil
			}
			for _, k := range []struct {
				kind      string
				raise, in int64
			}{{"tokens", raise.Tokens, in.Budget.Tokens}, {"usd", raise.MicroUSD, in.Budget.MicroUSD}, {"calls", raise.Calls, in.Budget.Calls}} {
				if k.raise > 0 && k.in == 0 {
					return withHint(fmt.Errorf("%s has no %s budget to raise", id, k.kind),
						fmt.Sprintf("set one in the catalog: budget: {%s: N} (an intent without one is not limited in %s)", k.kind, k.kind))
				}
			}
			line := "budget " + id + raiseFlags(raise)
			if err := a.personAct(cmd.Context(), ws, "intenthook budget", line, id); err != nil {
				return err
			}
			spent, err := budget.Add(cmd.Context(), ws.Root, id, budget.Spent{Raised: raise}, nowFunc(), ws.Config.LockTimeout)
			if err != nil {
				return err
			}
			var uses []string
			for _, u := range budget.Uses(in.Budget, spent) {
				uses = append(uses, u.String())
			}
			by := gitIdentity(cmd.Context(), ws.Root)
			if by == "" {
				by = osUser(a.getenv)
			}
			rec := ledger.NewRecord(ws.Revision(), ledger.Meta{
				Event: ledger.EventBudget, IntentID: ledger.NullString(id), ScopeValidation: ledger.ScopeExempt,
				Decision: "allow", Success: true, Command: "intenthook " + line,
				Reason: "raised" + raiseFlags(raise) + " by " + by + ": " + strings.Join(uses, ", "),
			})
			if err := ws.Ledger(Version).Append(cmd.Context(), rec); err != nil {
				fmt.Fprintf(a.stderr, "intenthook: warning: ledger: %v\n", err)
			}
			fmt.Fprintf(a.stdout, "%s: budget raised; spent %s\n", id, strings.Join(uses, ", "))
			return nil
		},
	}
	cmd.Flags().StringVar(&tokens, "tokens", "", "raise the tokens budget by N (+1M, +500k)")
	cmd.Flags().StringVar(&usd, "usd", "", "raise the usd budget by X dollars (+5, +2.50)")
	cmd.Flags().StringVar(&calls, "calls", "", "raise the calls budget by N (+10)")
	return cmd
}

// printBudget prints what in spent of each kind its budget limits, and
// what remains.
func (a *app) printBudget(in *intents.Intent, spent budget.Spent) {
	uses := budget.Uses(in.Budget, spent)
	if len(uses) == 0 {
		fmt.Fprintf(a.stdout, "%s: no budget; spent %d call(s), %d token(s), %s\n", in.ID, spent.Calls, spent.Tokens, money.Format(spent.MicroUSD))
		return
	}
	for _, u := range uses {
		fmt.Fprintf(a.stdout, "%s: %s spent, %s left\n", in.ID, u.String(), u.Amount(u.Left()))
	}
}

// raiseFlags is the raise as the command's flags: " --tokens +1000000".
func raiseFlags(r intents.Budget) string {
	var b strings.Builder
	if r.Tokens > 0 {
		fmt.Fprintf(&b, " --tokens +%d", r.Tokens)
	}
	if r.MicroUSD > 0 {
		fmt.Fprintf(&b, " --usd +%s", strings.TrimPrefix(money.Format(r.MicroUSD), "$"))
	}
	if r.Calls > 0 {
		fmt.Fprintf(&b, " --calls +%d", r.Calls)
	}
	return b.String()
}

// parseRaise reads a flag's raise: "" is none; a leading "+" is optional;
// a raise is more than nothing.
func parseRaise(flag, s string, parse func(string) (int64, bool)) (int64, error) {
	if s == "" {
		return 0, nil
	}
	if strings.HasPrefix(s, "-") {
		return 0, withHint(fmt.Errorf("--%s %s: a budget is raised, never lowered here", flag, safetext.Quote(s)),
			"a person lowers a budget in the catalog")
	}
	n, ok := parse(strings.TrimPrefix(s, "+"))
	if !ok || n <= 0 {
		return 0, fmt.Errorf("--%s %s: not an amount to raise by", flag, safetext.Quote(s))
	}
	return n, nil
}

// parseCount reads a whole count with an optional k, M or G suffix.
func parseCount(s string) (int64, bool) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "k"), strings.HasSuffix(s, "K"):
		mult, s = 1_000, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1_000_000, s[:len(s)-1]
	case strings.HasSuffix(s, "G"), strings.HasSuffix(s, "B"):
		mult, s = 1_000_000_000, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, false
	}
	return n * mult, true
}
