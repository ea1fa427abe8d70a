package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/budget"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/money"
	"github.com/intenthook/intenthook/internal/remoteclaims"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/selection"
	"github.com/intenthook/intenthook/internal/state"
)

// sessionStatus is one session as `status` shows it.
type sessionStatus struct {
	SessionID    string             `json:"session_id"`
	LastSeen     time.Time          `json:"last_seen"`
	Live         bool               `json:"live"`
	Model        string             `json:"model,omitempty"`
	Intent       string             `json:"intent,omitempty"`
	AgentIntents map[string]string  `json:"agent_intents,omitempty"`
	Pending      int                `json:"pending_calls"`
	Delegations  []delegationStatus `json:"delegations,omitempty"`
	// Ended is set while the session's end stands (nothing it did came
	// after); EndedDuring names the sessions whose shell command ran when
	// it came, in which case the end released nothing.
	Ended       bool      `json:"ended,omitempty"`
	EndedAt     time.Time `json:"ended_at,omitzero"`
	EndedDuring []string  `json:"ended_during,omitempty"`
	// WorkTree is the work tree the session runs in, in a repository
	// with more than one (its claims are shared).
	WorkTree string `json:"work_tree,omitempty"`
}

// delegationStatus is one delegation of a session, with the command a
// person runs to recall it.
type delegationStatus struct {
	Intent    string `json:"intent"`
	AgentType string `json:"agent_type"`
	By        string `json:"by"`
	State     string `json:"state"` // pending (no spawn yet), spawned, claimed
	Agent     string `json:"agent,omitempty"`
	Recall    string `json:"recall"`
}

func delegations(s *state.Session) []delegationStatus {
	var out []delegationStatus
	for _, d := range s.Delegations {
		ds := delegationStatus{Intent: d.Intent, AgentType: d.AgentType, By: d.By, Agent: d.Agent, State: "pending"}
		if ds.By == "" {
			ds.By = "main"
		}
		switch {
		case d.Agent != "":
			ds.State = "claimed"
			ds.Recall = fmt.Sprintf("intenthook select --clear --session %s --agent %s", shellWord(s.ID), shellWord(d.Agent))
		case d.Spawn != "":
			ds.State = "spawned"
		}
		if ds.Recall == "" {
			ds.Recall = fmt.Sprintf("intenthook select --clear --session %s --for %s", shellWord(s.ID), shellWord(d.AgentType))
		}
		out = append(out, ds)
	}
	return out
}

// shellWord quotes s for a command line a person copies, when it needs it.
func shellWord(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.:/@", r)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// maxUndoneShown bounds the displaced versions status lists.
const maxUndoneShown = 10

type workspaceStatus struct {
	Root       string          `json:"root"`
	Default    string          `json:"default_intent,omitempty"`
	LedgerHead ledger.Head     `json:"ledger_head"`
	Sessions   []sessionStatus `json:"sessions"`
	// Undone are the versions the guard displaced when it put the rules
	// back, newest first.
	Undone []string `json:"undone,omitempty"`
	// Asks are the asks waiting for a person's answer (ask.via: wait).
	Asks []asks.Ask `json:"pending_asks,omitempty"`
	// Spend is what each intent with a budget or with counters spent,
	// and what remains of its budget.
	Spend []intentSpend `json:"spend,omitempty"`
}

// intentSpend is one intent's spend counters and budget as status shows
// them.
type intentSpend struct {
	Intent string       `json:"intent"`
	Calls  int64        `json:"calls"`
	Tokens int64        `json:"tokens"`
	USD    money.Amount `json:"usd"`
	Budget []budgetUse  `json:"budget,omitempty"`
	// Exceeded is set once a kind's spend reached its limit: the
	// intent's writes are refused (budget_exceeded).
	Exceeded bool   `json:"exceeded,omitempty"`
	Error    string `json:"error,omitempty"`
}

// budgetUse is one kind of a budget as status shows it (budget.Use's
// JSON: kind, spent, limit, left; usd in dollars).
type budgetUse struct{ budget.Use }

// spendOf lists the spend of each intent of root's catalog that has a
// budget or counters, in the catalog's order.
func spendOf(root string) []intentSpend {
	cat, err := intents.LoadCached(root, filepath.Join(root, filepath.FromSlash(intents.File)))
	if err != nil || cat == nil {
		return nil
	}
	var out []intentSpend
	for _, in := range cat.All() {
		if !in.Budget.Set() && !budget.Exists(root, in.ID) {
			continue
		}
		is := intentSpend{Intent: in.ID}
		s, err := budget.Read(root, in.ID)
		if err != nil {
			is.Error = err.Error()
		}
		is.Calls, is.Tokens, is.USD = s.Calls, s.Tokens, money.Amount(s.MicroUSD)
		for _, u := range budget.Uses(in.Budget, s) {
			is.Budget = append(is.Budget, budgetUse{u})
		}
		_, is.Exceeded = budget.Exceeded(in.Budget, s)
		out = append(out, is)
	}
	return out
}

// printSpend prints what each intent spent and what remains.
func (a *app) printSpend(spend []intentSpend) {
	if len(spend) == 0 {
		return
	}
	fmt.Fprintln(a.stdout, "\nspend per intent (intenthook budget ID --calls|--tokens|--usd +N raises a budget):")
	for _, s := range spend {
		line := fmt.Sprintf("  %s: %d call(s), %d token(s), %s", s.Intent, s.Calls, s.Tokens, money.Format(int64(s.USD)))
		var left []string
		for _, u := range s.Budget {
			left = append(left, fmt.Sprintf("%s of %s %s left", u.Amount(u.Left()), u.Amount(u.Limit), u.Kind))
		}
		if len(left) > 0 {
			line += "; " + strings.Join(left, ", ")
		}
		if s.Exceeded {
			line += " — budget reached: writes refused (budget_exceeded)"
		}
		if s.Error != "" {
			line += " — counters unreadable: " + safetext.Quote(s.Error)
		}
		fmt.Fprintln(a.stdout, line)
	}
}

func (a *app) statusCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show sessions (last activity, active intent per agent), the workspace default and the ledger tip",
		Long: `Show what a person needs to steer agents: every session intenthook has seen,
when it was last active and which intent it (or each of its agents) works on;
the workspace default intent; and the newest ledger record. Session ids shown
here are what 'intenthook select ID --session SID' takes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := a.workspaceRoot()
			if err != nil {
				return err
			}
			cfg, _ := config.Load(root, a.getenv)
			roots := workTreeRoots(root)
			var ss []*state.Session
			var in []string
			for _, r := range roots {
				list, err := state.Sessions{Root: r.root, Timeout: cfg.LockTimeout}.List()
				if err != nil && r.root == root {
					return err
				}
				for range list {
					in = append(in, r.top)
				}
				ss = append(ss, list...)
			}
			st := workspaceStatus{Root: root, Default: state.ReadDefault(root), Sessions: []sessionStatus{}}
			st.LedgerHead, _ = ledger.ReadHead(root)
			st.Undone = guard.Undone(root)
			now := nowFunc()
			pending := state.Sessions{Root: root}.CountPending(now)
			st.Asks, _ = asks.For(root).Pending(now)
			st.Spend = spendOf(root)
			for i, s := range ss {
				// Live: it holds its selections against other sessions.
				sst := sessionStatus{
					SessionID: s.ID, LastSeen: s.LastSeen, Live: now.Sub(s.LastSeen) <= selection.LiveWindow && !s.Released(),
					Model: s.Model, Intent: s.Intent, AgentIntents: s.AgentIntents, Pending: pending[state.SessionKey(s.ID)],
					Delegations: delegations(s),
				}
				if s.Ended() {
					sst.Ended, sst.EndedAt, sst.EndedDuring = true, s.EndedAt, s.EndedDuring
				}
				if len(roots) > 1 {
					sst.WorkTree = in[i]
				}
				st.Sessions = append(st.Sessions, sst)
			}
			if asJSON {
				return a.printJSON(st)
			}
			a.printStatus(st, now)
			a.printRemoteClaims(root, cfg.Claims.Remote, now)
			a.printSpend(st.Spend)
			if len(st.Asks) > 0 {
				fmt.Fprintf(a.stdout, "\nasks waiting for a person (%d; intenthook ask shows each):\n", len(st.Asks))
				for _, p := range st.Asks {
					fmt.Fprintf(a.stdout, "  %s: session %s, %s, waiting %s, %s left\n", p.ID, safetext.Quote(p.Session), safetext.Quote(p.Tool),
						now.Sub(p.Created).Round(time.Second), p.Deadline.Sub(now).Round(time.Second))
				}
			}
			writeScopeRequests(a.stdout, root, "")
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func (a *app) printStatus(st workspaceStatus, now time.Time) {
	fmt.Fprintf(a.stdout, "workspace: %s\n", st.Root)
	fmt.Fprintf(a.stdout, "default intent: %s\n", dash(safetext.Quote(st.Default)))
	fmt.Fprintf(a.stdout, "ledger tip: seq %d %s\n\n", st.LedgerHead.Seq, dash(st.LedgerHead.Hash))
	if len(st.Undone) > 0 {
		fmt.Fprintf(a.stdout, "put back by the guard (%d; the displaced versions, newest first; re-apply one with cp <file> <path>):\n", len(st.Undone))
		for i, u := range st.Undone {
			if i == maxUndoneShown {
				fmt.Fprintf(a.stdout, "  … %d more under %s\n", len(st.Undone)-i, guard.UndoneDir)
				break
			}
			fmt.Fprintf(a.stdout, "  %s\n", safetext.Quote(u))
		}
		fmt.Fprintln(a.stdout)
	}
	if len(st.Sessions) == 0 {
		fmt.Fprintln(a.stdout, "no sessions yet")
		return
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	trees := slices.ContainsFunc(st.Sessions, func(s sessionStatus) bool { return s.WorkTree != "" })
	if trees {
		fmt.Fprintln(tw, "SESSION\tLAST SEEN\tLIVE\tAGENT\tINTENT\tWORK TREE")
	} else {
		fmt.Fprintln(tw, "SESSION\tLAST SEEN\tLIVE\tAGENT\tINTENT")
	}
	for _, s := range st.Sessions {
		live := "no"
		switch {
		case s.Ended && len(s.EndedDuring) == 0:
			live = "ended"
		case s.Live:
			live = "yes"
		}
		ago := now.Sub(s.LastSeen).Round(time.Second).String() + " ago"
		tree := ""
		if trees {
			tree = "\t" + safetext.Quote(s.WorkTree)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s%s\n", safetext.Quote(s.SessionID), ago, live, "(session)", dash(safetext.Quote(s.Intent)), tree)
		agents := make([]string, 0, len(s.AgentIntents))
		for agent := range s.AgentIntents {
			agents = append(agents, agent)
		}
		sort.Strings(agents)
		for _, agent := range agents {
			fmt.Fprintf(tw, "\t\t\t%s\t%s\n", safetext.Quote(agent), safetext.Quote(s.AgentIntents[agent]))
		}
	}
	_ = tw.Flush()
	for _, s := range st.Sessions {
		if s.Ended && len(s.EndedDuring) > 0 {
			fmt.Fprintf(a.stdout, "%s ended while a shell command of %s ran: that end released nothing (a program in the command could have sent it); its claim lapses %d minutes after it was last seen\n",
				safetext.Quote(s.SessionID), sessionsWord(s.EndedDuring), int(selection.LiveWindow.Minutes()))
		}
	}
	first := true
	for _, s := range st.Sessions {
		for _, d := range s.Delegations {
			if first {
				fmt.Fprintln(a.stdout, "\ndelegations:")
				first = false
			}
			to := "the next " + safetext.Quote(d.AgentType) + " subagent"
			if d.Agent != "" {
				to = safetext.Quote(d.AgentType) + " agent " + safetext.Quote(d.Agent)
			}
			fmt.Fprintf(a.stdout, "  %s: %s -> %s (%s, by %s)\n    recall: %s\n", safetext.Quote(s.SessionID), safetext.Quote(d.Intent), to, safetext.Quote(d.State), safetext.Quote(d.By), safetext.Quote(d.Recall))
		}
	}
}

// sessionsWord names session keys for a sentence: "session a", "sessions
// a, b".
func sessionsWord(keys []string) string {
	quoted := make([]string, len(keys))
	for i, k := range keys {
		quoted[i] = safetext.Quote(k)
	}
	if len(keys) == 1 {
		return "session " + quoted[0]
	}
	return "sessions " + strings.Join(quoted, ", ")
}

// workTreeRoot is one work tree's workspace root and the work tree's top.
type workTreeRoot struct{ root, top string }

// workTreeRoots lists the workspace root of every work tree of root's
// repository that has one at the same place (root's path from its work
// tree's top), root's own first; root alone outside git or in a
// repository with one work tree.
func workTreeRoots(root string) []workTreeRoot {
	top, _, ok := git.Top(root)
	common, okc := git.CommonDir(root)
	if !ok || !okc {
		return []workTreeRoot{{root, ""}}
	}
	rel, err := filepath.Rel(top, root)
	if err != nil {
		return []workTreeRoot{{root, ""}}
	}
	trees := git.WorkTrees(common)
	out := []workTreeRoot{{root, top}}
	if len(trees) < 2 {
		return out
	}
	for _, t := range trees {
		if filepath.Clean(t) == filepath.Clean(top) {
			continue
		}
		r := filepath.Join(t, rel)
		if st, err := os.Stat(filepath.Join(r, ".orchestration", "state")); err == nil && st.IsDir() {
			out = append(out, workTreeRoot{r, t})
		}
	}
	return out
}

// printRemoteClaims lists this work tree's sessions' claims on
// claims.remote, as it took them: held there until their expiry, or this
// machine's only (the remote was not reached, or another machine holds
// the intent). It does not reach the remote: intenthook claims does.
func (a *app) printRemoteClaims(root, remote string, now time.Time) {
	if remote == "" {
		return
	}
	recs := remoteclaims.RecordsOf(root).All()
	if len(recs) == 0 {
		return
	}
	fmt.Fprintf(a.stdout, "\nclaims on the remote %s (intenthook claims reads the remote):\n", safetext.Quote(remote))
	for _, rec := range recs {
		c := rec.Claim
		switch {
		case rec.Error != "":
			fmt.Fprintf(a.stdout, "  %s  session %s: this machine only: %s\n", safetext.Quote(c.Intent), safetext.Quote(c.Session), safetext.Quote(rec.Error))
		case c.Live(now):
			fmt.Fprintf(a.stdout, "  %s  session %s: on the remote (%s) until %s\n", safetext.Quote(c.Intent), safetext.Quote(c.Session), rec.Mode, c.Expires.UTC().Format(time.RFC3339))
		default:
			fmt.Fprintf(a.stdout, "  %s  session %s: expired on the remote at %s\n", safetext.Quote(c.Intent), safetext.Quote(c.Session), c.Expires.UTC().Format(time.RFC3339))
		}
	}
}
