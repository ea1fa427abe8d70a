package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/ledger"
)

// remoteMargin is how long past the ask's deadline the hook lets its
// helper end before stopping it.
const remoteMargin = 5 * time.Second

// waitRemote files a with the console on another machine that ask.console
// names and waits for its answer, through intenthook-console's helper
// (asks.RemoteCommand: this binary links no HTTP client), holding no lock.
// The answer is recorded in this work tree's ledger, here: the console is
// elsewhere. ok is false when no one answered by the deadline; err says
// the console could not be asked (unreachable, a certificate other than
// the pinned one, a token it refused).
func (p asking) waitRemote(ctx context.Context, a asks.Ask) (filed asks.Ask, ans asks.Answer, ok bool, err error) {
	g := p.Gate
	cfg := g.Config.Ask
	path, err := full.Beside(full.Console)
	if err != nil {
		return a, ans, false, err
	}
	in, err := json.Marshal(asks.Filed{Ask: a})
	if err != nil {
		return a, ans, false, err
	}
	ctx, cancel := context.WithDeadline(ctx, a.Deadline.Add(remoteMargin))
	defer cancel()
	cmd := exec.CommandContext(ctx, path, asks.RemoteCommand, "--url", cfg.Console, "--cert", cfg.ConsoleCert, "--token-env", cfg.TokenEnv)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	g.explain.step("ask", "remote", fmt.Sprintf("console=%s timeout=%s", cfg.Console, cfg.Timeout))
	runErr := cmd.Run()
	var ra asks.RemoteAnswer
	_ = json.Unmarshal(stdout.Bytes(), &ra)
	if asks.ValidID(ra.ID) {
		a.ID = ra.ID
	}
	var ee *exec.ExitError
	switch {
	case errors.As(runErr, &ee) && ee.ExitCode() == asks.RemoteNoAnswer:
		return a, ans, false, nil
	case runErr != nil:
		why := strings.TrimSpace(stderr.String())
		if why == "" {
			why = runErr.Error()
		}
		return a, ans, false, errors.New(strings.TrimPrefix(why, "intenthook: ask.console: "))
	case !asks.ValidID(ra.ID) || ra.Answer.Verdict != asks.Allow && ra.Answer.Verdict != asks.Deny:
		return a, ans, false, fmt.Errorf("%s gave no answer intenthook reads: %q", path, strings.TrimSpace(stdout.String()))
	}
	ans = ra.Answer
	// When the answer reached the call, by this machine's clock: the
	// console's may differ.
	ans.At = g.env.now().UTC()
	g.explain.step("ask", "remote-answer", "ask="+a.ID+" verdict="+ans.Verdict)
	g.note(p.recordAnswer(ctx, a, ans))
	return a, ans, true, nil
}

// recordAnswer appends the ask_answer record of an answer given on a
// console elsewhere, as intenthook ask records one given here.
func (p asking) recordAnswer(ctx context.Context, a asks.Ask, ans asks.Answer) error {
	g := p.Gate
	rec := g.record(ledger.EventAskAnswer, a.Intent)
	m := &rec.Metadata.Intenthook
	m.ScopeValidation, m.Success, m.Decision, m.Reason, m.Answer = ledger.ScopeExempt, true, ans.Verdict, ans.Reason, ledger.PlainJSON(asks.RecordOf(a, ans))
	return g.appendRecords(ctx, rec)
}
