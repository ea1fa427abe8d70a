package cli

import (
	"fmt"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/state"
)

// sessionStatus is one session as `status` shows it.
type sessionStatus struct {
	SessionID    string            `json:"session_id"`
	LastSeen     time.Time         `json:"last_seen"`
	Live         bool              `json:"live"`
	Model        string            `json:"model,omitempty"`
	Intent       string            `json:"intent,omitempty"`
	AgentIntents map[string]string `json:"agent_intents,omitempty"`
	Pending      int               `json:"pending_calls"`
}

type workspaceStatus struct {
	Root       string          `json:"root"`
	Default    string          `json:"default_intent,omitempty"`
	LedgerHead ledger.Head     `json:"ledger_head"`
	Sessions   []sessionStatus `json:"sessions"`
}

func (a *app) statusCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show sessions (last activity, active intent per agent), the workspace default and the ledger head",
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
			ss, err := state.Sessions{Root: root, Timeout: cfg.LockTimeout}.List()
			if err != nil {
				return err
			}
			st := workspaceStatus{Root: root, Default: state.ReadDefault(root), Sessions: []sessionStatus{}}
			st.LedgerHead, _ = ledger.ReadHead(root)
			now := nowFunc()
			pending := state.Sessions{Root: root}.CountPending(now)
			for _, s := range ss {
				st.Sessions = append(st.Sessions, sessionStatus{
					SessionID: s.ID, LastSeen: s.LastSeen, Live: now.Sub(s.LastSeen) <= 30*time.Minute,
					Model: s.Model, Intent: s.Intent, AgentIntents: s.AgentIntents, Pending: pending[state.SessionKey(s.ID)],
				})
			}
			if asJSON {
				return a.printJSON(st)
			}
			a.printStatus(st, now)
			writeScopeRequests(a.stdout, root, "")
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func (a *app) printStatus(st workspaceStatus, now time.Time) {
	fmt.Fprintf(a.stdout, "workspace: %s\n", st.Root)
	fmt.Fprintf(a.stdout, "default intent: %s\n", dash(st.Default))
	fmt.Fprintf(a.stdout, "ledger head: seq %d %s\n\n", st.LedgerHead.Seq, dash(st.LedgerHead.Hash))
	if len(st.Sessions) == 0 {
		fmt.Fprintln(a.stdout, "no sessions yet")
		return
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tLAST SEEN\tLIVE\tAGENT\tINTENT")
	for _, s := range st.Sessions {
		live := "no"
		if s.Live {
			live = "yes"
		}
		ago := now.Sub(s.LastSeen).Round(time.Second).String() + " ago"
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.SessionID, ago, live, "(session)", dash(s.Intent))
		agents := make([]string, 0, len(s.AgentIntents))
		for agent := range s.AgentIntents {
			agents = append(agents, agent)
		}
		sort.Strings(agents)
		for _, agent := range agents {
			fmt.Fprintf(tw, "\t\t\t%s\t%s\n", agent, s.AgentIntents[agent])
		}
	}
	_ = tw.Flush()
}
