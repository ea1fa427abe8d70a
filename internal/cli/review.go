package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/acceptance"
	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/lifecycle"
	"github.com/intenthook/intenthook/internal/review"
	"github.com/intenthook/intenthook/internal/workspace"
)

func (a *app) submitCommand() *cobra.Command {
	var timeout time.Duration
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "submit ID",
		Short: "Submit an intent that requires review: its checks pass -> IN_REVIEW",
		Long: `Submit an intent with review: required (or the workspace's review.default:
required). Its acceptance checks run with 'sh -c' from the workspace root;
when each passes the intent becomes IN_REVIEW and waits for a person's
'intents approve' or 'intents reject --reason'. A failing check keeps it
IN_PROGRESS. Agents may run it, alone as the whole shell command: the hook
checks that the agent's session holds the intent and vouches for the call.
The checks are code an agent may have written: on Linux with Landlock they
run confined (the governance files read-only), and submit says how they run.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			id := args[0]
			title, _, inShell := agent.InShell(a.getenv)
			if n := acceptance.Notice(ws.Root, ws.Catalog.Find(id)); n != "" {
				fmt.Fprintln(a.stderr, "intenthook: "+n)
			}
			sub, err := review.SubmitIntent(cmd.Context(), ws, id, inShell, Version, timeout)
			switch {
			case errors.Is(err, review.ErrNoRequest):
				return withHint(fmt.Errorf("no submission of %s was seen by the hook in %s's shell", id, title),
					"run `intenthook submit "+id+"` alone, as the whole shell command, so that the hook sees it")
			case errors.Is(err, review.ErrNotFound):
				return withHint(err, "list intents with 'intenthook intents list'")
			case errors.Is(err, review.ErrNoReview):
				return withHint(err, "a person completes it with 'intenthook intents verify "+id+"'")
			case !sub.Ran:
				return err
			}
			in, out, handed := sub.Intent, sub.Outcome, sub.Handed
			if asJSON {
				if jerr := a.printJSON(map[string]any{"intent": in.ID, "passed": out.Passed, "criteria": emptyIfNil(out.Results)}); jerr != nil {
					return jerr
				}
			} else {
				a.printChecks(out.Results)
			}
			if err != nil {
				return err
			}
			if !out.Passed {
				if !asJSON {
					fmt.Fprintf(a.stdout, "%s stays IN_PROGRESS: not met: %s\n", in.ID, strings.Join(review.Failing(out.Results), "; "))
				}
				return exitError{exitFail}
			}
			switch {
			case asJSON:
			case handed:
				fmt.Fprintf(a.stdout, "%s: its checks passed; the catalog is read-only to this shell, so intenthook's hook moves it to IN_REVIEW when this command returns\n", in.ID)
			default:
				fmt.Fprintf(a.stdout, "%s: IN_PROGRESS -> IN_REVIEW (a person approves it: intenthook intents approve %s, or rejects it: intenthook intents reject %s --reason \"…\")\n", in.ID, in.ID, in.ID)
			}
			return nil
		},
	}
	cmd.Flags().DurationVar(&timeout, "timeout", 10*time.Minute, "time limit per check")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

func (a *app) approveCommand() *cobra.Command {
	var reason string
	cmd := &cobra.Command{
		Use:   "approve ID",
		Short: "Approve an IN_REVIEW intent: -> COMPLETE (a person's command)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := a.personOnly("intents approve"); err != nil {
				return err
			}
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			from, err := a.approveIntent(cmd.Context(), ws, args[0], reason, "")
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s: %s -> COMPLETE\n", args[0], from)
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "a note for the ledger")
	return cmd
}

// approveIntent is a person's approval of IN_REVIEW intent id, given
// through via ("" for intenthook intents approve, console): refused in an
// agent's process tree, recorded with who approved.
func (a *app) approveIntent(ctx context.Context, ws *workspace.Workspace, id, reason, via string) (intents.Status, error) {
	if err := a.personAct(ctx, ws, "intents approve", "intents approve "+id, id); err != nil {
		return "", err
	}
	if reason == "" {
		reason = "approved"
	}
	from, err := lifecycle.NewEditor(ws, "", "intenthook", Version).Apply(ctx, lifecycle.Transition{ID: id, To: intents.Complete, From: intents.InReview, Approved: true, Reason: reason,
		Answer: a.reviewer(ctx, ws, via)})
	if err == nil && from != intents.InReview {
		err = fmt.Errorf("intent %s is %s: only an IN_REVIEW intent is approved", id, dash(string(from)))
	}
	return from, err
}

// reviewer is who approves or rejects an intent, as the record's answer
// names them (answerer): by, user and via.
func (a *app) reviewer(ctx context.Context, ws *workspace.Workspace, via string) json.RawMessage {
	who := a.answerer(ctx, ws, via)
	return ledger.PlainJSON(struct {
		By   string `json:"by,omitempty"`
		User string `json:"user,omitempty"`
		Via  string `json:"via,omitempty"`
	}{who.By, who.User, who.Via})
}

func (a *app) rejectCommand() *cobra.Command {
	var reason string
	cmd := &cobra.Command{
		Use:   "reject ID --reason TEXT",
		Short: "Reject an IN_REVIEW intent: -> IN_PROGRESS, the reason told to the sessions that worked on it",
		Long: `Reject an IN_REVIEW intent: it goes back to IN_PROGRESS, and the reason is
handed, once, to each session that submitted it (and every other session the
ledger saw working on it) with its next context, marked as a person's words.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(reason) == "" {
				return errors.New("reject needs --reason: the agent is told why")
			}
			if err := a.personOnly("intents reject"); err != nil {
				return err
			}
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			if err := a.rejectIntent(cmd.Context(), ws, args[0], reason, ""); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s: IN_REVIEW -> IN_PROGRESS\n", args[0])
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why, told to the agent (required)")
	return cmd
}

// rejectIntent is a person's rejection of IN_REVIEW intent id with reason,
// given through via ("" for intenthook intents reject, console): refused
// in an agent's process tree, recorded with who rejected, the reason left
// for the sessions that worked on it.
func (a *app) rejectIntent(ctx context.Context, ws *workspace.Workspace, id, reason, via string) error {
	if strings.TrimSpace(reason) == "" {
		return errors.New("a rejection needs a reason: the agent is told why")
	}
	if err := a.personAct(ctx, ws, "intents reject", "intents reject "+id, id); err != nil {
		return err
	}
	note := review.Note{Intent: id, Reason: reason, At: time.Now().UTC()}
	ed := lifecycle.NewEditor(ws, "", "intenthook", Version)
	// The note names the reject record: sessions are shown that
	// record's reason, which no program can rewrite unseen.
	ed.Ledger.Placed = func(r *ledger.Record, segment string, end int64) {
		if r.Metadata.Intenthook.Event == ledger.EventReject && r.Intent() == id {
			note.Record, note.Segment, note.End = r.ID, segment, end
		}
	}
	from, err := ed.Apply(ctx, lifecycle.Transition{ID: id, To: intents.InProgress, From: intents.InReview, Rejected: true, Reason: reason,
		Answer: a.reviewer(ctx, ws, via)})
	if err != nil {
		return err
	}
	if from != intents.InReview {
		return fmt.Errorf("intent %s is %s: only an IN_REVIEW intent is rejected", id, dash(string(from)))
	}
	if note.Record == "" {
		fmt.Fprintf(a.stderr, "intenthook: warning: the ledger was busy and the rejection's record waits in the spool: sessions are not told the reason (tell them yourself)\n")
	}
	store := review.NewStore(ws)
	sessions := workedOn(ws.Root, id, store.Sessions(id))
	if err := errors.Join(store.Reject(ctx, note), store.Tell(ctx, sessions, note)); err != nil {
		fmt.Fprintf(a.stderr, "intenthook: warning: the reason could not be left for every session: %v\n", err)
	}
	return nil
}

// workedOn adds to sessions those the ledger saw writing or selecting
// under intent id (a person's command: it reads the whole ledger).
func workedOn(root, id string, sessions []string) []string {
	_ = ledger.Scan(root, func(_ []byte, rec *ledger.Record, err error) error {
		if err != nil || rec == nil {
			return nil
		}
		m := rec.Metadata.Intenthook
		if string(m.IntentID) != id || m.SessionID == "" || m.Decision == "deny" {
			return nil
		}
		switch m.Event {
		case ledger.EventPostToolUse, ledger.EventSelect, ledger.EventSubmit:
			if !slices.Contains(sessions, m.SessionID) {
				sessions = append(sessions, m.SessionID)
			}
		}
		return nil
	})
	return sessions
}
