package replay

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
)

// Source is where the replayed records come from: the work tree's ledger
// (neither At nor Range), the ledger a revision holds (At), or the records a revision
// range's commits added (Range "A..B": B's ledger beyond A's).
type Source struct {
	Root  string
	Repo  *git.Repo
	Paths git.Paths
	At    string
	Range string
	// Intent, when set, skips undecoded the work tree's lines that do not
	// name it: one intent's replay (a scope change weighed for approval)
	// decodes that intent's records only.
	Intent string
}

// Describe names the source for the report.
func (s *Source) Describe() string {
	switch {
	case s.Range != "":
		return "the records " + s.Range + " added"
	case s.At != "":
		return "the ledger at " + s.At
	}
	return "the work tree's ledger"
}

// Each calls fn with each line of the source that may hold a write (lines
// of other events are skipped undecoded): the work tree's in the ledger's
// canonical order, a revision's file by file, each in its order.
func (s *Source) Each(ctx context.Context, fn func(line []byte)) error {
	if s.Range == "" && s.At == "" {
		keep := relevant
		if s.Intent != "" && !strings.ContainsAny(s.Intent, `"\\`) {
			needle := []byte(`"intent_id":"` + s.Intent + `"`)
			keep = func(line []byte) bool { return bytes.Contains(line, needle) && relevant(line) }
		}
		return ledger.ScanRaw(s.Root, keep, func(line []byte) error {
			fn(line)
			return nil
		})
	}
	if s.Repo == nil {
		return fmt.Errorf("a revision's ledger needs a git repository")
	}
	if s.Range == "" {
		return s.eachAt(ctx, fn)
	}
	from, to, ok := strings.Cut(s.Range, "..")
	if !ok || strings.HasPrefix(to, ".") || to == "" {
		return fmt.Errorf("revision range %q: want A..B", s.Range)
	}
	if from == "" {
		from = "HEAD"
	}
	old, err := s.files(ctx, from)
	if err != nil {
		return err
	}
	cur, err := s.files(ctx, to)
	if err != nil {
		return err
	}
	var olds [][2]string // each file's blob at from ("" for none), and at to
	for _, f := range cur {
		olds = append(olds, [2]string{old.by(f.path), f.blob})
	}
	// Read each changed file's old and new blobs: the new one's lines
	// beyond the old one's bytes are the range's (a segment is only
	// appended to; a file that is not its old self plus lines is read
	// whole, line by line against the old one's lines).
	var reqs []string
	for _, o := range olds {
		if o[0] == o[1] {
			continue
		}
		if o[0] != "" {
			reqs = append(reqs, o[0])
		}
		reqs = append(reqs, o[1])
	}
	blobs := map[string][]byte{}
	err = s.Repo.ReadObjects(ctx, reqs, func(_ int, obj *git.Object) error {
		if obj == nil {
			return nil
		}
		b, err := git.Blob(obj)
		blobs[obj.ID] = b
		return err
	})
	if err != nil {
		return fmt.Errorf("read the ledger of %s: %w", s.Range, err)
	}
	for _, o := range olds {
		if o[0] == o[1] {
			continue
		}
		before, after := blobs[o[0]], blobs[o[1]]
		if bytes.HasPrefix(after, before) {
			eachLine(after[len(before):], fn)
			continue
		}
		seen := map[string]bool{}
		eachLine(before, func(l []byte) { seen[string(l)] = true })
		eachLine(after, func(l []byte) {
			if !seen[string(l)] {
				fn(l)
			}
		})
	}
	return nil
}

func (s *Source) eachAt(ctx context.Context, fn func(line []byte)) error {
	files, err := s.files(ctx, s.At)
	if err != nil {
		return err
	}
	var ids []string
	for _, f := range files {
		ids = append(ids, f.blob)
	}
	return s.Repo.ReadObjects(ctx, ids, func(_ int, obj *git.Object) error {
		b, err := git.Blob(obj)
		if err != nil {
			return err
		}
		eachLine(b, fn)
		return nil
	})
}

type ledgerFile struct{ path, blob string }

// files lists the ledger files rev holds (the legacy file and its parts,
// every segment), the legacy first, then segments by path.
func (s *Source) files(ctx context.Context, rev string) (ordered, error) {
	dir, ok := s.Paths.ToGit(".orchestration")
	if !ok {
		return nil, fmt.Errorf("the workspace's .orchestration is outside the git work tree")
	}
	out, err := s.Repo.Output(ctx, "ls-tree", "-r", "-z", "--full-tree", rev, "--", dir)
	if err != nil {
		return nil, fmt.Errorf("list the ledger at %s: %w", rev, err)
	}
	var fs ordered
	for _, entry := range git.NulList(out) {
		meta, p, ok := strings.Cut(entry, "\t")
		parts := strings.Fields(meta)
		if !ok || len(parts) != 3 || parts[1] != "blob" {
			continue
		}
		rel, ok := s.Paths.ToRoot(p)
		if !ok || !(ledger.IsSegmentPath(rel) || strings.HasPrefix(path.Base(rel), "agent_trace") && path.Dir(rel) == ".orchestration") {
			continue
		}
		fs = append(fs, ledgerFile{rel, parts[2]})
	}
	sort.SliceStable(fs, func(i, j int) bool {
		si, sj := ledger.IsSegmentPath(fs[i].path), ledger.IsSegmentPath(fs[j].path)
		if si != sj {
			return sj
		}
		return fs[i].path < fs[j].path
	})
	return fs, nil
}

// ordered is a list of ledger files, readable by path.
type ordered []ledgerFile

func (o ordered) by(path string) string {
	for _, f := range o {
		if f.path == path {
			return f.blob
		}
	}
	return ""
}

func eachLine(b []byte, fn func([]byte)) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return // a torn last line
		}
		if line := b[:i]; relevant(line) {
			fn(line)
		}
		b = b[i+1:]
	}
}
