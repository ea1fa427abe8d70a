package replay

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/judge"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Rules says where a candidate's rules come from: the work tree's files,
// or a revision's (Rev), each file replaced by one given (a path; "" for
// the base's own).
type Rules struct {
	Rev        string
	Catalog    string // .orchestration/active_intents.yaml
	Config     string // .orchestration/config.yaml
	Ignore     string // .orchestration/.intentignore
	RootIgnore string // .intentignore
}

// Load reads the candidate: the catalog (required), the settings (roles,
// tools:, protected paths), both ignore files; table is the governance
// table whose protected rows apply when the candidate protects governance
// files. repo and paths are needed for Rev only.
func (r Rules) Load(ctx context.Context, root string, repo *git.Repo, paths git.Paths, table governed.Table) (*Candidate, error) {
	rels := []string{intents.File, config.File, workspace.RootIgnoreFile, workspace.IgnoreFile}
	given := []string{r.Catalog, r.Config, r.RootIgnore, r.Ignore}
	data := make([][]byte, len(rels))
	var fromRev []int
	for i, rel := range rels {
		switch {
		case given[i] != "":
			b, err := os.ReadFile(given[i])
			if err != nil {
				return nil, fmt.Errorf("read the candidate's %s: %w", rel, err)
			}
			data[i] = b
		case r.Rev != "":
			fromRev = append(fromRev, i)
		default:
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("read %s: %w", rel, err)
			}
			data[i] = b
		}
	}
	if len(fromRev) > 0 {
		if repo == nil {
			return nil, fmt.Errorf("--rules %s needs a git repository", r.Rev)
		}
		var names []string
		for _, i := range fromRev {
			p, ok := paths.ToGit(rels[i])
			if !ok || !git.Batchable(r.Rev) {
				return nil, fmt.Errorf("cannot read %s at %s", rels[i], r.Rev)
			}
			names = append(names, r.Rev+":"+p)
		}
		if _, err := repo.Line(ctx, "rev-parse", "--verify", "--quiet", r.Rev+"^{commit}"); err != nil {
			return nil, fmt.Errorf("--rules %s: not a commit", r.Rev)
		}
		err := repo.ReadObjects(ctx, names, func(k int, obj *git.Object) error {
			b, err := git.Blob(obj)
			data[fromRev[k]] = b
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("read the rules at %s: %w", r.Rev, err)
		}
	}
	if data[0] == nil {
		return nil, fmt.Errorf("the candidate has no %s", intents.File)
	}
	catalog, err := intents.Parse(data[0])
	if err != nil {
		return nil, fmt.Errorf("the candidate's %s: %w", intents.File, err)
	}
	cfg, err := config.Parse(data[1])
	if err != nil {
		return nil, fmt.Errorf("the candidate's settings: %w", err)
	}
	prot, err := workspace.NewProtected(table, cfg.ProtectGovernanceFiles, cfg.ProtectedPaths)
	if err != nil {
		return nil, fmt.Errorf("the candidate's protected_paths: %w", err)
	}
	return &Candidate{
		Rules: judge.Rules{Catalog: catalog, Protected: prot, Ignore: workspace.ParseIgnore(data[2], data[3]), Roles: cfg.Roles},
		Tools: cfg.Tools, Source: r.describe(),
	}, nil
}

func (r Rules) describe() string {
	base := "the work tree's rules"
	if r.Rev != "" {
		base = "the rules at " + r.Rev
	}
	var with []string
	for _, f := range []struct{ flag, file string }{{"--catalog", r.Catalog}, {"--config", r.Config}, {"--ignore", r.Ignore}, {"--root-ignore", r.RootIgnore}} {
		if f.file != "" {
			with = append(with, f.flag+" "+f.file)
		}
	}
	if len(with) > 0 {
		base += " with " + strings.Join(with, ", ")
	}
	return base
}

// Amend makes the candidate's intent id own its scope amended (add's
// patterns added, remove's taken out): a scope change weighed before a
// person makes it. It reports false when the candidate has no such intent.
func (c *Candidate) Amend(id string, add, remove []string) bool {
	in := c.Rules.Catalog.Find(id)
	if in == nil {
		return false
	}
	c.Rules.Catalog = amended{c.Rules.Catalog, in.Amended(add, remove)}
	return true
}

// amended is a catalog with one intent's scope changed.
type amended struct {
	judge.Catalog
	in *intents.Intent
}

func (a amended) Find(id string) *intents.Intent {
	if id == a.in.ID {
		return a.in
	}
	return a.Catalog.Find(id)
}
