package precommit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/described"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Options are the inputs of Run.
type Options struct {
	Start  string // where the workspace root is looked for: --root or the working directory
	Strict bool   // untraced paths are errors
	// AsAgent judges the commit as an agent's under people.commits: free
	// (AsEnv set to AsAgent), whatever the process rule says.
	AsAgent bool
}

// Run checks the commit being made in the repository around opts.Start.
// Without a governed root there is nothing to check: Result.Governed is
// false. An error means the check could not be made (no git, no work tree).
func Run(ctx context.Context, opts Options) (*Result, error) {
	start, err := filepath.Abs(opts.Start)
	if err != nil {
		return nil, err
	}
	root := workspace.FindRoot(start)
	if root == "" {
		return &Result{}, nil
	}
	g, rp, err := git.Locate(ctx, start, root)
	if err != nil {
		return nil, err
	}
	snap, err := load(ctx, g, rp, root)
	if err != nil {
		return nil, err
	}
	if snap.People == config.CommitsFree && !snap.Parent.None {
		snap.Agent = agentCommit(root, opts.AsAgent)
	}
	r := Check(snap, opts.Strict)
	r.Findings = append(r.Findings, HookBinary(root)...)
	r.Findings = append(r.Findings, SecondNames(root)...)
	return r, nil
}

// request is one object to read (an index entry, ":0:<path>", or HEAD's)
// and what to do with it.
type request struct {
	name   string
	handle func(*git.Object) error
}

// load gathers the snapshot: the staged paths, their staged content's
// digests, the staged catalog and .intentignore, HEAD's (all read through
// one cat-file process), the ledger's newest record per staged path, and
// the ledger's verification.
func load(ctx context.Context, g *git.Repo, rp git.Paths, root string) (*Snapshot, error) {
	paths, err := stagedPaths(ctx, g)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{}
	var catalog, headCatalog, headConfig []byte
	var catalogStaged, headFound, headCatalogFound, headConfigFound bool
	ignores := make([][]byte, len(workspace.IgnoreFiles))
	ignoreStaged := make([]bool, len(workspace.IgnoreFiles))
	headIgnores := make([][]byte, len(workspace.IgnoreFiles))
	headIgnoreFound := make([]bool, len(workspace.IgnoreFiles))
	reqs := []request{{"HEAD", func(obj *git.Object) error {
		headFound = obj != nil && obj.Type == "commit"
		return nil
	}}}
	if p, ok := rp.ToGit(intents.File); ok {
		reqs = append(reqs, request{":0:" + p, readAll(&catalog, &catalogStaged)}, request{"HEAD:" + p, readAll(&headCatalog, &headCatalogFound)})
	}
	if p, ok := rp.ToGit(config.File); ok {
		reqs = append(reqs, request{"HEAD:" + p, readAll(&headConfig, &headConfigFound)})
	}
	for i, f := range workspace.IgnoreFiles {
		if p, ok := rp.ToGit(f); ok {
			reqs = append(reqs, request{":0:" + p, readAll(&ignores[i], &ignoreStaged[i])}, request{"HEAD:" + p, readAll(&headIgnores[i], &headIgnoreFound[i])})
		}
	}
	// HEAD's descriptions of the workspace's agents (those in the work
	// tree and those the commit stages) name their wiring.
	var descNames []string
	var descs [][]byte
	var descFound []bool
	for _, p := range paths {
		if rel, ok := rp.ToRoot(p); ok {
			if name, ok := described.NameOf(rel); ok && !slices.Contains(descNames, name) {
				descNames = append(descNames, name)
			}
		}
	}
	for _, name := range described.List(root) {
		if !slices.Contains(descNames, name) {
			descNames = append(descNames, name)
		}
	}
	descs, descFound = make([][]byte, len(descNames)), make([]bool, len(descNames))
	for i, name := range descNames {
		if p, ok := rp.ToGit(described.Dir + "/" + name + ".json"); ok {
			reqs = append(reqs, request{"HEAD:" + p, readAll(&descs[i], &descFound[i])})
		}
	}
	var gitPaths []string
	for _, p := range paths {
		if rel, ok := rp.ToRoot(p); ok { // else outside the workspace: not governed
			s.Staged = append(s.Staged, Staged{Path: rel})
			gitPaths = append(gitPaths, p)
		}
	}
	for i, p := range gitPaths {
		st := &s.Staged[i]
		switch {
		case Sidecar(st.Path):
			// Governance files are exempt: no need to read them (the
			// ledger can be large).
		case !git.Batchable(p):
			st.Unreadable = "git cat-file cannot be asked for a path with a line break"
		default:
			reqs = append(reqs, request{":0:" + p, hashInto(st)})
		}
		if IsRules(st.Path) {
			s.RulesChanged = append(s.RulesChanged, st.Path)
		}
	}
	if err := g.ReadObjects(ctx, requestNames(reqs), func(i int, obj *git.Object) error { return reqs[i].handle(obj) }); err != nil {
		return nil, err
	}
	s.People, s.Warnings = headPeople(headConfig, headConfigFound)
	if err := loadCatalog(s, root, catalog, catalogStaged); err != nil {
		return nil, err
	}
	if headFound && headCatalogFound && catalogStaged && s.Catalog != nil && bytes.Equal(headCatalog, catalog) {
		// The commit leaves the catalog as it is: parsed once.
		s.Parent = Rules{Catalog: s.Catalog, Ignore: workspace.ParseIgnore(headIgnores...)}
	} else {
		s.Parent = parentRules(headFound, headCatalog, headCatalogFound, headIgnores)
	}
	if p, ok := rp.ToGit(intents.File); ok && headFound && !headCatalogFound {
		last, err := LastCatalogCommit(ctx, g, p, "HEAD")
		if err != nil {
			return nil, err
		}
		if last == "" {
			s.Parent = Rules{None: true} // the history before the rules
		} else {
			s.Parent.Removed = last
		}
	}
	if catalogStaged && headCatalogFound {
		if tr, ok := Transitions(headCatalog, catalog, s.Parent.Catalog, s.Catalog); ok {
			// What a hook's select or submission writes: no rules change.
			s.Transitions = tr
			s.RulesChanged = slices.DeleteFunc(s.RulesChanged, func(f string) bool { return f == intents.File })
		}
	}
	for i, name := range descNames {
		if d, err := described.Parse(descs[i]); descFound[i] && err == nil && d.Name == name {
			s.Parent.Agents = append(s.Parent.Agents, d.Governance()...)
		}
	}
	if err := loadIgnore(s, root, ignores, ignoreStaged); err != nil {
		return nil, err
	}
	for _, st := range s.Staged {
		if _, ok := s.Parent.listed(st.Path); ok || s.Parent.None {
			s.Author = author(ctx, g)
			break
		}
	}
	var tampered []Tampered
	s.Traces, s.Attributed, s.Ledger, tampered = traces(root, s.Staged)
	s.Extends = append(s.Extends, tamperedRules(ctx, g, rp, tampered)...)
	var ledgers []ledgerFile
	for i, st := range s.Staged {
		if ledger.IsPath(st.Path) {
			ledgers = append(ledgers, ledgerFile{gitPaths[i], st.Path})
		}
	}
	s.Extends = append(s.Extends, checkStaged(ctx, g, ledgers, root)...)
	if p, ok := rp.ToGit(ledger.FileName); ok && slices.Contains(gitPaths, p) {
		s.Extends = append(s.Extends, checkExtends(ctx, g, rp, p, root)...)
	}
	s.Extends = append(s.Extends, checkSegments(ctx, g, rp, gitPaths, root)...)
	// The commit that adopts the rules has no governance files before it
	// whose attributes it could change.
	s.Extends = append(s.Extends, attributeFindings(ctx, g, rp, paths, headFound && !s.Parent.None)...)
	return s, nil
}

func requestNames(reqs []request) []string {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		out[i] = r.name
	}
	return out
}

// parentRules are HEAD's rules: none without a HEAD (the first commit),
// else its catalog (nil when it has none or it does not parse) and its
// ignore files.
func parentRules(head bool, catalog []byte, catalogFound bool, ignores [][]byte) Rules {
	if !head {
		return Rules{None: true, Root: true}
	}
	r := Rules{Ignore: workspace.ParseIgnore(ignores...)}
	if catalogFound {
		r.Catalog, r.Err = intents.Parse(catalog)
		if r.Err != nil {
			r.Catalog = nil
		}
	}
	return r
}

// readAll keeps a staged file's content; found stays false when the index
// has no entry.
func readAll(dst *[]byte, found *bool) func(*git.Object) error {
	return func(obj *git.Object) error {
		if obj == nil || obj.Type != "blob" {
			return nil
		}
		b, err := io.ReadAll(obj.Body)
		*dst, *found = b, true
		return err
	}
}

// hashInto records a staged path's content digest, streamed: a staged file
// can be large, and only its hash is needed.
func hashInto(st *Staged) func(*git.Object) error {
	return func(obj *git.Object) error {
		switch {
		case obj == nil:
			st.Deleted = true
			return nil
		case obj.Type != "blob":
			st.Unreadable = "the index holds a " + obj.Type + ", not a file"
			return nil
		}
		h := sha256.New()
		if _, err := io.Copy(h, obj.Body); err != nil {
			return fmt.Errorf("read staged %s: %w", st.Path, err)
		}
		st.Hash = digest.Prefix + hex.EncodeToString(h.Sum(nil))
		return nil
	}
}

// loadCatalog parses the staged catalog: it is what the commit will hold.
// A catalog not staged yet (a new workspace) is read from the work tree.
func loadCatalog(s *Snapshot, root string, data []byte, staged bool) error {
	var err error
	if staged {
		s.Catalog, err = intents.Parse(data)
	} else {
		s.Catalog, err = intents.Load(filepath.Join(root, filepath.FromSlash(intents.File)))
	}
	if errors.Is(err, intents.ErrNotYAML) {
		s.Catalog, s.CatalogErr = nil, err
		return nil
	}
	return err
}

// author is the author of the commit being made, as git will record it
// ("Name <email>"), or "an unknown author".
func author(ctx context.Context, g *git.Repo) string {
	ident, err := g.Line(ctx, "var", "GIT_AUTHOR_IDENT")
	if i := strings.LastIndex(ident, "> "); err == nil && i >= 0 {
		return ident[:i+1]
	}
	return "an unknown author"
}

// loadIgnore parses each ignore file as staged, else as in the work tree.
func loadIgnore(s *Snapshot, root string, data [][]byte, staged []bool) error {
	for i, f := range workspace.IgnoreFiles {
		if staged[i] {
			continue
		}
		b, err := workspace.ReadIgnoreFile(root, f)
		if err != nil {
			return err
		}
		data[i] = b
	}
	s.Ignore = workspace.ParseIgnore(data...)
	return nil
}

// traces verifies the ledger and finds, for each staged path, its newest
// trace, in one pass: over only the lines appended since the branch's
// remembered checkpoint when it still holds, else over the whole ledger,
// after which the checkpoint and its index are remembered (a ledger that
// does not verify is not remembered).
func traces(root string, staged []Staged) (_, _ map[string]Trace, _ ledger.Report, tampered []Tampered) {
	ix, cached := loadIndex(root)
	var rep ledger.Report
	ok := false
	if cached {
		rep, ok = ledger.VerifyFrom(root, ix.Checkpoint, ix.add)
	}
	if !ok {
		ix = &traceIndex{Traces: map[string]Trace{}}
		rep = ledger.VerifyEach(root, ix.add)
	}
	if cp := ledger.CheckpointOf(rep); rep.OK() && !cp.Empty() && (!ok || !sameCheckpoint(cp, ix.Checkpoint)) {
		ix.Checkpoint, ix.Version = cp, indexVersion
		ix.save(root)
	}
	tampered = ix.Tampered
	out, attributed := map[string]Trace{}, map[string]Trace{}
	for _, st := range staged {
		if t, found := ix.Traces[st.Path]; found {
			out[st.Path] = t
		}
		if t, found := ix.Attributed[st.Path]; found {
			attributed[st.Path] = t
		}
	}
	return out, attributed, rep, tampered
}

func sameCheckpoint(a, b ledger.Checkpoint) bool {
	return a.Size == b.Size && a.Hash == b.Hash && slices.Equal(a.Segments, b.Segments)
}

// attributeFindings lists each staged .gitattributes (at any level, the
// workspace's or above it) when the commit changes what git does with a
// governance file's bytes.
func attributeFindings(ctx context.Context, g *git.Repo, rp git.Paths, staged []string, head bool) []Finding {
	var probes []string
	for _, p := range attrProbes() {
		if gp, ok := rp.ToGit(p); ok {
			probes = append(probes, gp)
		}
	}
	if !head {
		return nil // the first commit: no attributes before it to change
	}
	changed, err := ChangedAttributes(ctx, g, "HEAD", "", staged, probes)
	if err != nil {
		return []Finding{{Warning, CodeAttributesChanged, ".gitattributes", "cannot compare the attributes of governance files with HEAD's: " + err.Error()}}
	}
	if len(changed) == 0 {
		return nil
	}
	var out []Finding
	for _, f := range staged {
		if AttributesApply(f, probes) {
			if rel, ok := rp.ToRoot(f); ok {
				f = rel // else above the workspace: named from the top of the work tree
			}
			out = append(out, Finding{Warning, CodeAttributesChanged, f, AttributesMessage(changed)})
		}
	}
	return out
}

// tamperedRules finds the governance files HEAD holds as a commit an
// agent's command made left them (a governance_tampered record names the
// commit): that commit is still the newest to change the file. One git
// process per such file, only when the ledger names any.
func tamperedRules(ctx context.Context, g *git.Repo, rp git.Paths, tampered []Tampered) []Finding {
	var out []Finding
	seen := map[string]bool{}
	for _, t := range tampered {
		for _, rel := range t.Paths {
			p, ok := rp.ToGit(rel)
			if !ok || seen[rel] {
				continue
			}
			last, err := g.Line(ctx, "rev-list", "-n1", "HEAD", "--", p)
			if err != nil || last != t.Commit {
				continue
			}
			seen[rel] = true
			out = append(out, Finding{Error, CodeRulesCommittedByAgent, rel, TamperedMessage(t)})
		}
	}
	return out
}

// TamperedMessage is the text of a rules_committed_by_agent finding.
func TamperedMessage(t Tampered) string {
	c := shortID(t.Commit)
	return fmt.Sprintf("HEAD holds the rules commit %s made inside an agent's shell command (recorded governance_tampered, seq %d): revert it (git revert %s); a change that is wanted is then made again by a person, in a commit of their own", c, t.Seq, c)
}
