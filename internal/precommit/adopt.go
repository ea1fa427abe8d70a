package precommit

import (
	"context"
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Finding codes of a history without rules.
const (
	// CodeCatalogRemoved: the parent has no catalog, but a commit it
	// descends from held one. The rules were taken away; that is never an
	// adoption, so the commit is refused until they are back.
	CodeCatalogRemoved = "catalog_removed"
	// CodeNotAdopted: no commit the parent descends from ever held the
	// catalog, and the commit does not add it either.
	CodeNotAdopted = "not_adopted"
)

// LastCatalogCommit returns the newest commit reachable from revs that
// added, changed or deleted the catalog at path (its path in git's terms),
// or "" when none did: no commit of that history ever held the rules.
// git walks the history (--full-history: no side of a merge is skipped);
// it is asked only when a parent has no catalog, which is rare.
func LastCatalogCommit(ctx context.Context, g *git.Repo, path string, revs ...string) (string, error) {
	args := append([]string{"rev-list", "-n1", "--full-history"}, revs...)
	out, err := g.Line(ctx, append(args, "--", path)...)
	if err != nil {
		return "", fmt.Errorf("look for the catalog in the history of %s: %w", strings.Join(revs, " "), err)
	}
	return out, nil
}

// RemovedMessage is the text of a catalog_removed finding: last is the
// newest commit that changed the catalog.
func RemovedMessage(parent, last string) string {
	return fmt.Sprintf("%s has no catalog, but the history it descends from held one (last changed in %s): the rules were removed, which adopts nothing; put %s back as it was before that commit",
		parent, shortID(last), intents.File)
}

// NotAdoptedMessage is the text of a not_adopted finding.
const NotAdoptedMessage = "no commit holds the rules yet: stage " + intents.File + " with this commit, which then adopts them"

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// Adoption is a path of the commit that adopts the rules: the first commit
// of a history to add the catalog is their root, so nothing in it is judged
// by rules, and everything it holds is listed.
type Adoption struct {
	Path   string
	Reason string // the governance row's reason; "" for any other path
	Author string
}

// String is the path's output line.
func (a Adoption) String() string {
	if a.Reason != "" {
		return fmt.Sprintf("governance adopted %s: %s (by %s)", safetext.Quote(a.Path), a.Reason, safetext.Quote(a.Author))
	}
	return fmt.Sprintf("adopted with the rules %s: changed in the commit that adopts them, not judged (by %s)", safetext.Quote(a.Path), safetext.Quote(a.Author))
}

// Adopted lists what a commit adopting the rules changes, governance
// files (and the git files init writes) first, then the rest, each group
// in the order given.
func Adopted(paths []string, author string) []Adoption {
	var gov, rest []Adoption
	for _, p := range paths {
		if reason, ok := workspace.AdoptionReason(governance(), p); ok {
			gov = append(gov, Adoption{p, reason, author})
		} else {
			rest = append(rest, Adoption{p, "", author})
		}
	}
	return append(gov, rest...)
}
