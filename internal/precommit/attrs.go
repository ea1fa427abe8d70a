package precommit

import (
	"bytes"
	"context"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/workspace"
)

// CodeAttributesChanged lists a commit whose .gitattributes change what
// git does with a governance file's bytes.
const CodeAttributesChanged = "attributes_changed"

// attrNames are the attributes that change how git shows, merges, stores
// or checks out a file's bytes.
var attrNames = []string{"diff", "merge", "text", "eol", "filter", "ident", "working-tree-encoding"}

// attrProbes are root-relative governance paths, one of each kind, whose
// attributes are compared before and after a commit.
func attrProbes() []string {
	return []string{intents.File, ".orchestration/config.yaml", workspace.IgnoreFile, ledger.FileName,
		".orchestration/ledger/w/2026-01/000001.jsonl", ".orchestration/intent_map.md", ".orchestration/CLAUDE.md", ".orchestration/state/x"}
}

// IsAttributes reports whether gitPath is a .gitattributes file, at any
// level of the tree.
func IsAttributes(gitPath string) bool {
	return path.Base(gitPath) == ".gitattributes"
}

// AttributesApply reports whether f is a .gitattributes file whose lines
// can apply to one of probes: one in a directory above it.
func AttributesApply(f string, probes []string) bool {
	if !IsAttributes(f) {
		return false
	}
	dir := path.Dir(f)
	return dir == "." || slices.ContainsFunc(probes, func(p string) bool { return strings.HasPrefix(p, dir+"/") })
}

// AttrProbes are the governance paths, top-relative, whose attributes
// audit compares (a workspace at the top of its repository).
func AttrProbes() []string { return attrProbes() }

// AttributesMessage is the finding's text for the attributes that changed.
func AttributesMessage(changed []string) string {
	return "changes the attributes (" + strings.Join(changed, ", ") + ") of governance files: git may no longer show, merge or check out their bytes as they are"
}

// ChangedAttributes returns the attributes of attrNames whose value for a
// governance path (probes, top-relative git paths) differs between two
// trees; before or after "" means the index. Only a .gitattributes among files, in a directory
// above a probe, can change them: without one, nothing is asked of git.
// git 2.39 has no check-attr --source: each tree is read into a temporary
// index, and check-attr --cached reads the attributes from there.
func ChangedAttributes(ctx context.Context, g *git.Repo, before, after string, files, probes []string) ([]string, error) {
	if !slices.ContainsFunc(files, func(f string) bool { return AttributesApply(f, probes) }) {
		return nil, nil
	}
	a, err := attributesAt(ctx, g, before, probes)
	if err != nil {
		return nil, err
	}
	b, err := attributesAt(ctx, g, after, probes)
	if err != nil {
		return nil, err
	}
	var changed []string
	for _, name := range attrNames {
		if !slices.Equal(a[name], b[name]) {
			changed = append(changed, name)
		}
	}
	return changed, nil
}

// attributesAt returns, per attribute name, its value for each probe in
// tree (see ChangedAttributes).
func attributesAt(ctx context.Context, g *git.Repo, tree string, probes []string) (map[string][]string, error) {
	out := map[string][]string{}
	repo := g
	if tree != "" {
		f, err := os.CreateTemp("", "intenthook-attr-index-")
		if err != nil {
			return nil, err
		}
		f.Close()
		defer os.Remove(f.Name())
		os.Remove(f.Name()) // read-tree writes it new
		env := g.Env
		if env == nil {
			env = os.Environ()
		}
		// The last GIT_INDEX_FILE wins over one git gave a hook.
		env = append(slices.Clone(env), "GIT_INDEX_FILE="+f.Name())
		repo = &git.Repo{Dir: g.Dir, Env: env}
		if _, err := repo.Output(ctx, "read-tree", tree); err != nil {
			return nil, err
		}
	}
	args := append([]string{"check-attr", "--cached", "-z"}, attrNames...)
	res, err := repo.Output(ctx, append(append(args, "--"), probes...)...)
	if err != nil {
		return nil, err
	}
	f := bytes.Split(res, []byte{0})
	for i := 0; i+2 < len(f); i += 3 {
		out[string(f[i+1])] = append(out[string(f[i+1])], string(f[i])+"="+string(f[i+2]))
	}
	return out, nil
}
