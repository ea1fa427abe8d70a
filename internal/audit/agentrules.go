package audit

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/precommit"
)

// What the whole ledger at the range's last commit says about people's
// acts and agents' commits, gathered line by line as readLedger reads it:
// a governance_tampered record names the commits an agent's command made
// that changed the rules, and an approve record is a person's completion of
// an intent that required review.
type acts struct {
	tampered []precommit.Tampered
	approved map[string]bool // intent ids with an approve record
}

// line takes one ledger line. Both checks look for their event's bytes
// first: nearly every line is neither.
func (a *acts) line(line []byte) {
	if ts := precommit.TamperedOf(line); len(ts) > 0 {
		a.tampered = append(a.tampered, ts...)
		return
	}
	if !bytes.Contains(line, []byte(`"event":"`+ledger.EventApprove+`"`)) {
		return
	}
	if rec, err := ledger.ParseLine(line); err == nil && rec.Metadata.Intenthook.Event == ledger.EventApprove {
		if a.approved == nil {
			a.approved = map[string]bool{}
		}
		a.approved[rec.Intent()] = true
	}
}

// agentCommits makes each commit of the range that a governance_tampered
// record names an error: an agent's command committed rules content the
// guard put back in the work tree, and the commit still carries it.
func (a *acts) agentCommits(commits []commit) []Finding {
	in := map[string]bool{}
	for _, c := range commits {
		in[c.id] = true
	}
	var fs []Finding
	seen := map[string]bool{}
	for _, t := range a.tampered {
		if !in[t.Commit] || seen[t.Commit] {
			continue
		}
		seen[t.Commit] = true
		fs = append(fs, Finding{t.Commit, strings.Join(t.Paths, ", "), Error, RulesCommittedByAgent,
			fmt.Sprintf("an agent's shell command made this commit of the rules (recorded governance_tampered, seq %d): revert it (git revert %s); a change that is wanted is made again by a person, in a commit of their own", t.Seq, short(t.Commit))})
	}
	return fs
}

// unapproved makes each intent that requires review and became COMPLETE
// within the range an error when the ledger at the range's last commit
// holds no approve record for it: only a person's approve completes such an
// intent, and the commit that says COMPLETE without one was made by
// someone else's hand (an agent's commit of an edited catalog).
func (a *acts) unapproved(ctx context.Context, g *git.Repo, commits []commit, all []judged, catalog []CatalogChange) ([]Finding, error) {
	index := map[string]int{}
	for k, c := range commits {
		index[c.id] = k
	}
	defaults := map[string]string{} // a commit's review.default, read once
	var fs []Finding
	for _, cc := range catalog {
		if cc.Change != StatusChanged || !strings.HasSuffix(cc.Detail, string(intents.Complete)) || a.approved[cc.Intent] {
			continue
		}
		k, ok := index[cc.Commit]
		if !ok || all[k].rules.own.Catalog == nil {
			continue
		}
		in := all[k].rules.own.Catalog.Find(cc.Intent)
		if in == nil {
			continue
		}
		def, ok := defaults[cc.Commit]
		if !ok && in.Review == "" {
			var err error
			if def, err = reviewDefault(ctx, g, cc.Commit); err != nil {
				return nil, err
			}
			defaults[cc.Commit] = def
		}
		if in.NeedsReview(def) {
			fs = append(fs, Finding{cc.Commit, intents.File, Error, CompleteUnapproved,
				fmt.Sprintf("%s requires review and became COMPLETE here, but the ledger holds no approve record for it: only a person's `intenthook intents approve %s` completes it; revert the status change and review the intent", cc.Intent, cc.Intent)})
		}
	}
	return fs, nil
}

// reviewDefault is review.default in the config.yaml commit holds (the
// default when it holds none or it does not parse).
func reviewDefault(ctx context.Context, g *git.Repo, commit string) (string, error) {
	var def string
	err := g.ReadObjects(ctx, []string{commit + ":" + config.File}, func(_ int, obj *git.Object) error {
		if obj == nil {
			return nil
		}
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(obj.Body); err != nil {
			return err
		}
		if c, err := config.Parse(buf.Bytes()); err == nil {
			def = c.Review.Default
		}
		return nil
	})
	return def, err
}
