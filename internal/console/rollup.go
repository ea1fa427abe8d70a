package console

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
)

// maxRollupFiles bounds the files a roll-up blames.
const maxRollupFiles = 300

// Rollup is GET /api/rollup?range=A..B: the lines the range's commits left
// in the files at its tip, and how many of them the agents wrote (the
// blame of each file: a record's range over the line still hashes the
// same), per commit author, per intent and per agent. A pull request's
// range gives its share of agents' lines.
type Rollup struct {
	Range string `json:"range"`
	Files int    `json:"files"` // files the range changed that are at its tip, blamed
	Cut   bool   `json:"cut"`   // more than maxRollupFiles: the first ones only
	Lines int    `json:"lines"` // lines at the tip that the range's commits wrote
	// ByAgents is how many of Lines a record traces to an agent's write.
	ByAgents int           `json:"by_agents"`
	Authors  []AuthorLines `json:"authors"`
	Intents  []NamedLines  `json:"intents"`
	Agents   []NamedLines  `json:"agents"`
}

// AuthorLines is one commit author's lines in the range, and how many of
// them agents wrote.
type AuthorLines struct {
	Author   string `json:"author"` // git's, as the commits name it
	Lines    int    `json:"lines"`
	ByAgents int    `json:"by_agents"`
}

// NamedLines is how many of the range's lines an intent's or an agent's
// records trace.
type NamedLines struct {
	Name  string `json:"name"`
	Lines int    `json:"lines"`
}

// errRange is a range GET /api/rollup does not hand to git.
var errRange = errors.New("range: A..B, revisions git names (no spaces, not starting with -)")

// checkRange keeps a range to what git reads as one: A..B, no option, no
// space or control character.
func checkRange(r string) error {
	a, b, ok := strings.Cut(r, "..")
	if !ok || strings.HasPrefix(a, "-") || strings.HasPrefix(b, "-") || strings.HasPrefix(b, ".") {
		return errRange
	}
	for _, c := range r {
		if c <= ' ' || c == 0x7f || c == '\\' || c == ':' {
			return errRange
		}
	}
	return nil
}

func (s site) serveRollup(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	g := git.Open(s.repo.Root)
	rng := r.URL.Query().Get("range")
	if rng == "" {
		var err error
		if rng, err = g.DefaultRange(ctx); err != nil {
			fail(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	if err := checkRange(rng); err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	out, err := rollup(ctx, g, s.repo.Root, rng)
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, out)
}

// rollup blames the files rng changed, at its tip: git blame for the
// commit behind each line (lines from before the range are not counted),
// the ledger's records for whether an agent wrote it (one pass over the
// ledger for every file).
func rollup(ctx context.Context, g *git.Repo, root, rng string) (Rollup, error) {
	out := Rollup{Range: rng, Authors: []AuthorLines{}, Intents: []NamedLines{}, Agents: []NamedLines{}}
	names, err := g.Output(ctx, "diff", "--name-only", "--no-renames", "-z", rng, "--")
	if err != nil {
		return out, err
	}
	var paths []string
	for _, p := range git.NulList(names) {
		if !strings.HasPrefix(p, ".orchestration/") {
			paths = append(paths, p)
		}
	}
	if len(paths) > maxRollupFiles {
		paths, out.Cut = paths[:maxRollupFiles], true
	}
	recs, err := recordsOf(root, paths)
	if err != nil {
		return out, err
	}
	authors := map[string]*AuthorLines{}
	intents, agents := map[string]int{}, map[string]int{}
	for _, p := range paths {
		lines, err := blameRange(ctx, g, rng, p)
		if err != nil {
			continue // not at the tip: deleted, or not a file git blames
		}
		out.Files++
		var content []byte
		for _, l := range lines {
			content = append(content, l.text...)
		}
		b := blame(p, content, recs[p])
		owner := make([]int, len(lines))
		for _, run := range b.Runs {
			for i := run.Start; i <= run.End; i++ {
				owner[i-1] = run.Record
			}
		}
		for i, l := range lines {
			if l.author == "" {
				continue // before the range
			}
			a := authors[l.author]
			if a == nil {
				a = &AuthorLines{Author: l.author}
				authors[l.author] = a
			}
			a.Lines++
			out.Lines++
			if o := owner[i]; o >= 0 {
				a.ByAgents++
				out.ByAgents++
				rec := b.Records[o]
				intents[rec.Intent]++
				agents[rec.Agent]++
			}
		}
	}
	for _, a := range authors {
		out.Authors = append(out.Authors, *a)
	}
	slices.SortFunc(out.Authors, func(a, b AuthorLines) int { return strings.Compare(a.Author, b.Author) })
	out.Intents, out.Agents = named(intents), named(agents)
	return out, nil
}

func named(m map[string]int) []NamedLines {
	out := []NamedLines{}
	for name, n := range m {
		out = append(out, NamedLines{Name: name, Lines: n})
	}
	slices.SortFunc(out, func(a, b NamedLines) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// recordsOf reads the ledger once for the records that changed paths,
// each path's newest first.
func recordsOf(root string, paths []string) (map[string][]ledger.Record, error) {
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		want[p] = true
	}
	out := map[string][]ledger.Record{}
	err := ledger.Scan(root, func(_ []byte, rec *ledger.Record, err error) error {
		if err != nil || rec == nil {
			return nil
		}
		for _, f := range rec.Files {
			if want[f.Path] {
				out[f.Path] = append(out[f.Path], *rec)
			}
		}
		return nil
	})
	for _, recs := range out {
		slices.Reverse(recs)
	}
	return out, err
}

// blamedLine is a line of a file at a range's tip: its text (newline
// included) and the author of the range's commit that wrote it, "" for a
// line from before the range.
type blamedLine struct {
	text   string
	author string
}

// blameRange runs git blame --porcelain over rng for path at its tip.
func blameRange(ctx context.Context, g *git.Repo, rng, path string) ([]blamedLine, error) {
	data, err := g.Output(ctx, "blame", "--porcelain", rng, "--", path)
	if err != nil {
		return nil, err
	}
	type commit struct {
		name, mail string
		boundary   bool
	}
	commits := map[string]*commit{}
	var cur *commit
	var out []blamedLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if text, ok := strings.CutPrefix(line, "\t"); ok {
			author := ""
			if cur != nil && !cur.boundary {
				author = strings.TrimSpace(cur.name + " " + cur.mail)
			}
			out = append(out, blamedLine{text: text + "\n", author: author})
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		if cur == nil && len(key) != 40 && len(key) != 64 {
			continue
		}
		switch key {
		case "author":
			cur.name = val
		case "author-mail":
			cur.mail = val
		case "boundary":
			cur.boundary = true
		default:
			if len(key) == 40 || len(key) == 64 {
				if commits[key] == nil {
					commits[key] = &commit{}
				}
				cur = commits[key]
			}
		}
	}
	return out, sc.Err()
}
