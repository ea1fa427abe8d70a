package audit

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/precommit"
	"github.com/intenthook/intenthook/internal/safetext"
)

// RulesCommit is a commit of the range that changes the rules the commits
// after it are judged by.
type RulesCommit struct {
	Commit string   `json:"commit"`
	Author string   `json:"author"`
	Files  []string `json:"files"`
	// WithCode: the commit also changes files the rules judge.
	WithCode bool `json:"with_code"`
	// Widening: the change can allow more (an intent added or made
	// active, a scope widened, any .intentignore change).
	Widening bool `json:"widening"`
	// Adopted: the commit adopts the rules, the first of its history to
	// hold the catalog (it counts as widening: from nothing, everything).
	Adopted bool `json:"adopted,omitempty"`
	// Signature is git's verdict on the commit's signature: unsigned,
	// good (signed by a key git trusts: for SSH, one in
	// gpg.ssh.allowedSignersFile), bad, untrusted or unchecked.
	Signature string `json:"signature"`
}

func (c RulesCommit) String() string {
	return fmt.Sprintf("%s rules: %s %s (by %s, %s)", short(c.Commit), safetext.Quote(strings.Join(c.Files, ", ")), c.what(), safetext.Quote(c.Author), c.Signature)
}

func (c RulesCommit) what() string {
	w := "changed"
	if c.Adopted {
		w = "adopted"
	}
	if c.WithCode {
		w += " with code"
	}
	if c.Widening {
		w += ", widening"
	}
	return w
}

// rulesCommits lists the commits that change a rules file, with their
// signature status (one git process, only for those commits: checking a
// signature can run gpg or ssh-keygen).
func rulesCommits(ctx context.Context, g *git.Repo, commits []commit, all []judged, catalog []CatalogChange) ([]RulesCommit, error) {
	out := []RulesCommit{}
	var ids []string
	for k, c := range commits {
		j := all[k]
		if len(j.changed) == 0 {
			continue
		}
		rc := RulesCommit{Commit: c.id, Author: c.author, Files: j.changed, WithCode: len(j.paths) > 0 || len(j.findings) > 0}
		if len(j.adopted) > 0 {
			rc.Adopted, rc.Widening = true, true
			rc.WithCode = slices.ContainsFunc(j.adopted, func(a precommit.Adoption) bool { return a.Reason == "" })
		}
		for _, f := range j.changed {
			if f != intents.File {
				rc.Widening = true // any .intentignore change may let a path through
			}
		}
		for _, cc := range catalog {
			if cc.Commit == c.id && widens(cc) {
				rc.Widening = true
			}
		}
		out = append(out, rc)
		ids = append(ids, c.id)
	}
	if len(ids) == 0 {
		return out, nil
	}
	args := append([]string{"-c", "log.showSignature=false", "log", "--no-walk=unsorted", "--format=%H %G?"}, ids...)
	res, err := g.Output(ctx, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("signatures of the rules commits: %w", err)
	}
	verdict := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(res)), "\n") {
		if id, code, ok := strings.Cut(line, " "); ok {
			verdict[id] = signatureText(code)
		}
	}
	for i := range out {
		out[i].Signature = verdict[out[i].Commit]
		if out[i].Signature == "" {
			out[i].Signature = signatureText("E")
		}
	}
	return out, nil
}

// widens reports whether a catalog change can allow more than before.
func widens(c CatalogChange) bool {
	switch c.Change {
	case IntentAdded, ScopeWidened:
		return true
	case StatusChanged:
		return strings.HasSuffix(c.Detail, string(intents.InProgress)) || strings.HasSuffix(c.Detail, string(intents.Complete))
	}
	return false
}

// signatureText names git's %G? code.
func signatureText(code string) string {
	switch code {
	case "N":
		return "unsigned"
	case "G":
		return "signed by an allowed key"
	case "B":
		return "bad signature"
	case "U", "X", "Y", "R":
		return "signed by a key not trusted"
	}
	return "signature not checked"
}

// unsignedRules makes each rules-widening commit an error unless it carries
// a good signature, when the repository names an allowed-signers file
// (gpg.ssh.allowedSignersFile): agents commit under the person's identity,
// so only a key the agent cannot reach vouches for a widening.
func unsignedRules(ctx context.Context, g *git.Repo, rules []RulesCommit) ([]Finding, error) {
	if file, err := g.Line(ctx, "config", "--get", "gpg.ssh.allowedSignersFile"); err != nil || file == "" {
		return nil, nil
	}
	var fs []Finding
	for _, c := range rules {
		if c.Widening && c.Signature != signatureText("G") {
			fs = append(fs, Finding{c.Commit, c.Files[0], Error, RulesUnsigned,
				fmt.Sprintf("widens the rules but is %s: a rules change must be signed by a key in gpg.ssh.allowedSignersFile", c.Signature)})
		}
	}
	return fs, nil
}

// attributeChanges lists, per commit that changes a .gitattributes able to
// apply to a governance path, the attributes it changes for them against
// its first parent (git check-attr, per tree; only such commits cost a git
// process).
func attributeChanges(ctx context.Context, g *git.Repo, commits []commit, all []judged) ([]Finding, error) {
	probes := precommit.AttrProbes()
	var fs []Finding
	for k, c := range commits {
		if all[k].rules.parent.None {
			continue // no rules before it, nor governance files to change
		}
		if !slices.ContainsFunc(c.paths, func(p string) bool { return precommit.AttributesApply(p, probes) }) {
			continue
		}
		if len(c.parents) == 0 {
			continue // a root commit: no attributes before it to change
		}
		changed, err := precommit.ChangedAttributes(ctx, g, c.parents[0], c.id, c.paths, probes)
		if err != nil {
			return nil, fmt.Errorf("attributes of %s: %w", short(c.id), err)
		}
		if len(changed) == 0 {
			continue
		}
		for _, p := range c.paths {
			if precommit.AttributesApply(p, probes) {
				fs = append(fs, Finding{c.id, p, Warning, AttributesChanged, precommit.AttributesMessage(changed)})
			}
		}
	}
	return fs, nil
}
