package gate

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/shell"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// postShell records a shell call (SPEC §7.1 step 4), after Post has put
// back the rules the command changed: one record per file
// it changed (among the targets PreToolUse found, and what the backstop
// saw), with the session's recorded hashes refreshed so the agent's own
// `sed -i` never makes its next Edit stale; and a CONFIGURATION record of
// the command itself when it changed files, was asked about or failed (or
// always, with ledger.shell: all). An `ls` leaves no record.
func (g *Gate) postShell(ctx context.Context, intentID string, pending state.Pending) (hook.Decision, error) {
	var changes []change
	var reverted []string
	for rel, pre := range pending.PreHash {
		abs := filepath.Join(g.Root, filepath.FromSlash(rel))
		c := change{rel: rel, pre: pre, scope: orDefault(pending.Scope[rel], ledger.ScopePass)}
		if content, err := osfile.ReadFile(abs); err == nil {
			c.content, c.post = content, digest.Bytes(content)
		}
		if c.post == c.pre {
			continue
		}
		c.class = ledger.Classify(false, rel, c.pre, c.post, false, false, "")
		if c.scope == scopeRevert {
			c.class, c.scope = ledger.Revert, ledger.ScopeExempt
			reverted = append(reverted, rel)
		}
		changes = append(changes, c)
	}
	var d hook.Decision
	if pending.Backstop != nil {
		var more []change
		d, more = g.backstop(ctx, intentID, pending)
		changes = append(changes, more...)
	}
	if len(reverted) > 0 {
		// Put back once: the allowance ends with it.
		g.note(g.updateSession(ctx, func(s *state.Session) {
			for _, rel := range reverted {
				delete(s.Reverts, rel)
			}
		}))
	}
	sortChanges(changes)
	// A project's checks (shell.checks: tests, builds) and the intent's
	// acceptance checks are recorded with their outcome however quiet the
	// shell records are.
	checks := shell.Checks(g.call.Command, g.checkCommands(intentID))
	if len(changes) > 0 || pending.Asked || g.call.Failed || d.Violation || len(checks) > 0 || g.Config.Ledger.Shell == config.ShellAll {
		call := g.record(g.event(), intentID)
		m := &call.Metadata.Intenthook
		m.MutationClass, m.ScopeValidation, m.Decision = ledger.Configuration, ledger.ScopeExempt, "allow"
		m.Command, m.CommandHash = g.call.Command, digest.String(g.call.Command)
		m.Checks = checks
		g.failed(ctx, m, intentID)
		g.note(g.appendRecords(ctx, call))
	} else {
		g.explain.step("record", "skip", "the command changed nothing and was neither asked about nor failed")
	}
	// A failed command showed nothing and handed nothing over.
	var a shell.Analysis
	if !g.call.Failed {
		a = g.analyse()
	}
	reads := g.viewerReads(a)
	if len(changes) > 0 {
		if err := g.commit(ctx, intentID, changes); err != nil {
			return hook.Decision{}, err
		}
	}
	if len(reads) > 0 {
		g.note(g.recordSeen(ctx, reads))
	}
	if msg := g.handedSubmission(ctx, a.SubmitID()); msg != "" {
		if d.Violation {
			d.Message += "\n\n" + msg
		} else {
			d.Context = msg
		}
	}
	return d, nil
}

// viewerReads hashes the files the command showed the agent (cat, head, …).
func (g *Gate) viewerReads(a shell.Analysis) map[string]string {
	out := map[string]string{}
	for _, p := range a.Reads {
		res := g.resolver.Resolve(p)
		if res.Place != workspace.Inside {
			continue
		}
		if h, err := digest.File(res.Abs); err == nil && h != "" {
			out[res.Rel] = h
		}
	}
	return out
}

func sortChanges(cs []change) {
	slices.SortFunc(cs, func(a, b change) int { return strings.Compare(a.rel, b.rel) })
}

// checkCommands are the commands whose runs count as checks under
// intentID: config.yaml's shell.checks and the intent's acceptance checks,
// each as written.
func (g *Gate) checkCommands(intentID string) []string {
	out := g.Config.Shell.Checks
	if in := g.Catalog.Find(intentID); in != nil {
		for _, c := range in.AcceptanceCriteria {
			if c.Check != "" && !slices.Contains(out, c.Check) {
				out = append(slices.Clip(out), c.Check)
			}
		}
	}
	return out
}
