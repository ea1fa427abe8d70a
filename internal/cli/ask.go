package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/gate"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/workspace"
)

func (a *app) askCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ask",
		Short: "List the asks waiting for a person's answer (ask.via: wait); answer one with allow or deny",
		Long: `With ask.via: wait in .orchestration/config.yaml, a call intenthook would ask
about waits for a person's answer, up to ask.timeout. intenthook ask lists the
asks waiting; intenthook ask allow ID lets the call run, intenthook ask deny ID
--reason TEXT denies it and tells the agent why. Answering is a person's
command: refused from an agent's process. See docs/asks.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			pending, err := asks.For(ws.Root).Pending(nowFunc())
			if err != nil {
				return err
			}
			if asJSON {
				if pending == nil {
					pending = []asks.Ask{}
				}
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(pending)
			}
			a.printAsks(pending, nowFunc())
			a.printGrants(asks.For(ws.Root).Grants(nowFunc()))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the pending asks as JSON")
	cmd.AddCommand(a.answerCommand(asks.Allow), a.answerCommand(asks.Deny), &cobra.Command{
		Use:                notifyUse,
		Short:              notifyShort,
		Long:               notifyLong,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.handOff(ConsoleName, append([]string{"ask", "serve-notify"}, args...))
		},
	})
	return cmd
}

// printAsks prints each pending ask: what intenthook asks, and what the
// agent's call names (its command or files), labelled as the agent's.
func (a *app) printAsks(pending []asks.Ask, now time.Time) {
	if len(pending) == 0 {
		fmt.Fprintln(a.stdout, "no pending asks")
		return
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tWAITING\tLEFT\tSESSION\tINTENT\tTOOL")
	for _, p := range pending {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", p.ID, now.Sub(p.Created).Round(time.Second), p.Deadline.Sub(now).Round(time.Second),
			safetext.Quote(p.Session), dash(p.Intent), safetext.Quote(p.Tool))
	}
	tw.Flush()
	for _, p := range pending {
		fmt.Fprintf(a.stdout, "\n%s:\n", p.ID)
		for _, line := range strings.Split(p.Why, "\n") {
			fmt.Fprintf(a.stdout, "  %s\n", safetext.Quote(line))
		}
		if p.Target != "" {
			fmt.Fprintf(a.stdout, "  the call, as the agent wrote it: %s\n", safetext.Quote(p.Target))
		}
		fmt.Fprintf(a.stdout, "  answer: intenthook ask allow %s | intenthook ask deny %s --reason \"…\"\n", p.ID, p.ID)
	}
}

// printGrants prints the standing answers in force.
func (a *app) printGrants(grants []asks.Grant) {
	if len(grants) == 0 {
		return
	}
	fmt.Fprintln(a.stdout, "\nstanding answers:")
	for _, g := range grants {
		fmt.Fprintf(a.stdout, "  %s: session %s, %s, until %s, by %s\n", g.ID, safetext.Quote(g.Session), g.Code,
			g.Until.UTC().Format(time.RFC3339), safetext.Quote(cmp.Or(g.By, g.User)))
	}
}

func (a *app) answerCommand(verdict string) *cobra.Command {
	var (
		reason string
		ahead  standing
	)
	short := "Let the call a pending ask is about run, or allow a session's asks of one kind ahead (a person's command)"
	use, args := verdict+" ID | --session S --code CODE --for D", cobra.MaximumNArgs(1)
	if verdict == asks.Deny {
		short = "Deny the call a pending ask is about, telling the agent why (a person's command)"
		use, args = verdict+" ID", cobra.ExactArgs(1)
	}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  args,
		RunE: func(cmd *cobra.Command, args []string) error {
			if verdict == asks.Deny && strings.TrimSpace(reason) == "" {
				return errors.New("ask deny needs --reason: the agent is told why")
			}
			if err := ahead.check(len(args) > 0); err != nil {
				return err
			}
			what := "intenthook ask " + verdict
			if err := a.personOnly(what); err != nil {
				return err
			}
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			if ahead.session != "" {
				return a.grant(cmd.Context(), ws, ahead)
			}
			id := args[0]
			asked, ans, err := a.answerAsk(cmd.Context(), ws, what, "", id, verdict, reason)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "ask %s: %s (waited %s)\n", id, verdict, ans.At.Sub(asked.Created).Round(time.Millisecond))
			return nil
		},
	}
	help := "why, told to the agent (optional)"
	if verdict == asks.Deny {
		help = "why, told to the agent (required)"
	}
	cmd.Flags().StringVar(&reason, "reason", "", help)
	if verdict == asks.Allow {
		cmd.Flags().StringVar(&ahead.session, "session", "", "allow this session's asks ahead, with --code and --for, instead of one pending ask")
		cmd.Flags().StringVar(&ahead.code, "code", "", "what the asks are about: "+strings.Join(gate.AskCodes(), ", "))
		cmd.Flags().DurationVar(&ahead.span, "for", 0, "how long the standing answer holds (at most 24h)")
	}
	return cmd
}

// standing is a standing answer's flags: a session's asks of one code,
// allowed for a span.
type standing struct {
	session, code string
	span          time.Duration
}

// check says what is wrong with the flags, given whether an ask id was
// named too.
func (s standing) check(withID bool) error {
	switch {
	case s.session == "" && (s.code != "" || s.span != 0):
		return errors.New("--code and --for go with --session")
	case s.session == "" && !withID:
		return errors.New("ask allow needs an ask id (intenthook ask lists them) or --session")
	case s.session == "":
		return nil
	case withID:
		return errors.New("an ask id or --session, not both")
	case s.code == "":
		return fmt.Errorf("ask allow --session needs --code: one of %s", strings.Join(gate.AskCodes(), ", "))
	case !slices.Contains(gate.AskCodes(), s.code):
		return fmt.Errorf("--code %s: not a code intenthook asks about; one of %s", safetext.Quote(s.code), strings.Join(gate.AskCodes(), ", "))
	case s.span <= 0:
		return errors.New("ask allow --session needs --for: how long the answer holds (10m, 2h, at most 24h)")
	case s.span > asks.MaxGrant:
		return fmt.Errorf("--for %s: at most 24h", s.span)
	}
	return nil
}

// grant files a person's standing answer and records it: who gave it,
// for which session and code, until when.
func (a *app) grant(ctx context.Context, ws *workspace.Workspace, s standing) error {
	what := "intenthook ask allow --session"
	if err := a.personAct(ctx, ws, what, "ask allow --session "+s.session+" --code "+s.code, ""); err != nil {
		return err
	}
	now := nowFunc().UTC()
	who := a.answerer(ctx, ws, "")
	g, err := asks.For(ws.Root).Grant(asks.Grant{Session: s.session, Code: s.code, Until: now.Add(s.span),
		By: who.By, User: who.User, At: now})
	if err != nil {
		return err
	}
	a.appendAnswer(ctx, ws, ledger.Meta{SessionID: g.Session, Decision: asks.Allow}, asks.RecordOfGrant(g))
	fmt.Fprintf(a.stdout, "session %s: calls asked about for %s are allowed until %s (standing answer %s)\n",
		safetext.Quote(g.Session), g.Code, g.Until.Format(time.RFC3339), g.ID)
	return nil
}

// answerAsk answers the pending ask id for the person running this
// process, what naming the command (intenthook ask allow, intenthook
// console) and via where the answer was given ("" for intenthook ask): it
// refuses in an agent's process (personAct), writes the answer the
// waiting hook reads and records who answered. An answer to a scope
// request approves or rejects the request first. intenthook ask and the
// console answer through it alone.
func (a *app) answerAsk(ctx context.Context, ws *workspace.Workspace, what, via, id, verdict, reason string) (asks.Ask, asks.Answer, error) {
	store := asks.For(ws.Root)
	pending, err := store.Get(id, nowFunc())
	if err != nil {
		return pending, asks.Answer{}, err
	}
	line := "ask " + verdict + " " + id
	if pending.ScopeRequest > 0 {
		// The answer changes the rules: it waits, as intents scope does,
		// for the agents' running commands to end (the call it answers is
		// an MCP call, not one of them).
		if err := a.personAct(ctx, ws, what, line, pending.Intent); err != nil {
			return pending, asks.Answer{}, err
		}
		approve, reject := pending.ScopeRequest, 0
		if verdict == asks.Deny {
			approve, reject = 0, pending.ScopeRequest
		}
		out, err := a.decideScopeRequest(ctx, ws, pending.Intent, approve, reject)
		if err != nil {
			return pending, asks.Answer{}, err
		}
		if via == "" {
			fmt.Fprint(a.stdout, out)
		}
	} else if err := a.personActNow(ctx, ws, what, line, pending.Intent); err != nil {
		return pending, asks.Answer{}, err
	}
	ans := a.answerer(ctx, ws, via)
	ans.Verdict, ans.Reason, ans.At = verdict, strings.TrimSpace(reason), nowFunc().UTC()
	asked, err := store.Answer(id, ans, ans.At)
	if err != nil {
		return asked, ans, err
	}
	a.recordAnswer(ctx, ws, asked, ans)
	return asked, ans, nil
}

// recordAnswer appends the ask_answer record: the call asked about, the
// verdict, the reason, who answered and how long the ask waited. It goes
// to the ledger of the work tree the call was made in, when that is
// another work tree of the repository than ws's.
func (a *app) recordAnswer(ctx context.Context, ws *workspace.Workspace, asked asks.Ask, ans asks.Answer) {
	if asked.WorkTree != "" && filepath.Clean(asked.WorkTree) != filepath.Clean(ws.Root) {
		there, err := workspace.Load(asked.WorkTree, workspace.Governance(agent.Governance()), a.getenv, nowFunc)
		switch {
		case err != nil:
			fmt.Fprintf(a.stderr, "intenthook: warning: ask %s was made in %s, which cannot be read (%v): its answer is recorded here\n", asked.ID, safetext.Quote(asked.WorkTree), err)
		case !sameRepository(ws.Root, there.Root):
			fmt.Fprintf(a.stderr, "intenthook: warning: ask %s names %s, not a work tree of this repository: its answer is recorded here\n", asked.ID, safetext.Quote(asked.WorkTree))
		default:
			ws = there
		}
	}
	a.appendAnswer(ctx, ws, ledger.Meta{
		IntentID: ledger.NullString(asked.Intent), SessionID: asked.Session,
		AgentID: ledger.NullString(asked.AgentID), ToolName: asked.Tool, ToolUseID: asked.ToolUseID,
		Decision: ans.Verdict, Reason: ans.Reason,
	}, asks.RecordOf(asked, ans))
}

// appendAnswer appends an ask_answer record of meta carrying answer.
func (a *app) appendAnswer(ctx context.Context, ws *workspace.Workspace, meta ledger.Meta, answer asks.Record) {
	meta.Event, meta.ScopeValidation, meta.Success, meta.Answer = ledger.EventAskAnswer, ledger.ScopeExempt, true, ledger.PlainJSON(answer)
	if err := ws.Ledger(Version).Append(ctx, ledger.NewRecord(ws.Revision(), meta)); err != nil {
		fmt.Fprintf(a.stderr, "intenthook: warning: ledger: %v\n", err)
	}
}

// gitIdentity is git's user.name <user.email> in root: who answered, as
// git would name them in a commit.
func gitIdentity(ctx context.Context, root string) string { return git.Identity(ctx, root, nil) }

// answerer is who answers, grants or reviews from this process, as the
// records name them: git's identity in ws and the OS user (an
// attribution, not an authentication), and where (via: "" for the command
// line, console).
func (a *app) answerer(ctx context.Context, ws *workspace.Workspace, via string) asks.Answer {
	return asks.Answer{By: gitIdentity(ctx, ws.Root), User: osUser(a.getenv), Via: via}
}

// osUser names the OS user this command runs as.
func osUser(getenv func(string) string) string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	for _, v := range []string{"USER", "USERNAME", "LOGNAME"} {
		if s := getenv(v); s != "" {
			return s
		}
	}
	return fmt.Sprint(os.Getuid())
}

// sameRepository reports whether the work trees at a and b share one
// common git directory: an ask names the work tree it came from, and an
// answer is recorded there only when it is one of this repository's.
func sameRepository(a, b string) bool {
	ca, okA := git.CommonDir(a)
	cb, okB := git.CommonDir(b)
	return okA && okB && filepath.Clean(ca) == filepath.Clean(cb)
}
