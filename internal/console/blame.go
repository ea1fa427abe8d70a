package console

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/ledger"
)

// The bounds of GET /api/blame: the file's bytes read, the records that
// changed it looked at (the newest), and the longest range looked for away
// from the lines it was written at.
const (
	maxBlameBytes   = 1 << 20
	maxBlameRecords = 500
	maxMovedRange   = 64
)

// Blame is GET /api/blame?path=P: a file of the workspace as it is now, line
// by line, with the record behind each run of lines, when the lines a
// record's range covered are still there (the same bytes, by the range's
// content hash: at the lines it was written at, or moved, for a range of up
// to maxMovedRange lines). Lines no record covers were written by a person,
// by a program the hooks did not see, or changed since.
type Blame struct {
	Path  string `json:"path"`
	Lines int    `json:"lines"`
	// Runs cover the file's lines in order; a run's record is an index
	// into Records, -1 for none.
	Runs    []BlameRun    `json:"runs"`
	Records []BlameRecord `json:"records"`
	// Considered is how many of the records that changed the file were
	// looked at (the newest, up to maxBlameRecords), of Changes.
	Considered int `json:"considered"`
	Changes    int `json:"changes"`
	// AgentText holds the file's lines: agents wrote some of them.
	AgentText AgentText `json:"agent_text"`
}

// BlameRun is a run of lines (1-based, inclusive) and the record behind it.
type BlameRun struct {
	Start  int `json:"start"`
	End    int `json:"end"`
	Record int `json:"record"`
}

// BlameRecord is what a record says of who wrote its lines.
type BlameRecord struct {
	ID      string `json:"id"`
	Time    string `json:"time"`
	Intent  string `json:"intent,omitempty"`
	Session string `json:"session"`
	Agent   string `json:"agent"` // ledger.AgentOf: "main" or a subagent's id
	Model   string `json:"model,omitempty"`
	Tool    string `json:"tool"`
}

// errBlamePath is a path GET /api/blame does not read.
var errBlamePath = errors.New("path: a file of the workspace, relative to its root, with no .. in it")

// blamePath checks p names a file inside the workspace: relative, no
// "..", no backslash, not under .git; it returns p cleaned.
func blamePath(p string) (string, error) {
	if strings.Contains(p, "..") || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return "", errBlamePath
	}
	p = strings.TrimPrefix(path.Clean("/"+p), "/")
	if p == "" || p == "." || strings.HasPrefix(p, ".git/") || p == ".git" {
		return "", errBlamePath
	}
	return p, nil
}

func (s site) serveBlame(w http.ResponseWriter, r *http.Request) {
	p, err := blamePath(r.URL.Query().Get("path"))
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	content, err := readInside(s.repo.Root, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fail(w, http.StatusNotFound, "no such file: "+p)
		return
	case err != nil:
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	recs, err := ledger.Blame(s.repo.Root, p)
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, blame(p, content, recs))
}

// errTooLarge is a file over maxBlameBytes, not read.
var errTooLarge = errors.New("larger than 1 MiB: blame it with intenthook blame")

// readInside reads the regular file p under root, through os.Root: no
// link or path leads it outside the workspace. It reads maxBlameBytes at
// most and refuses a larger file (errTooLarge).
func readInside(root, p string) ([]byte, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readIn(r, p)
}

// readIn is readInside with the workspace's root opened.
func readIn(r *os.Root, p string) ([]byte, error) {
	f, err := r.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New(p + " is not a regular file")
	}
	if st.Size() > maxBlameBytes {
		return nil, fmt.Errorf("%s is %w", p, errTooLarge)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxBlameBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxBlameBytes {
		return nil, fmt.Errorf("%s is %w", p, errTooLarge)
	}
	return data, nil
}

// blame attributes content's lines to recs (the records that changed p,
// newest first): each line goes to the newest record with a range over it
// that still hashes the same. The lines come along, labelled as agents'.
func blame(p string, content []byte, recs []ledger.Record) Blame {
	b := attribute(p, content, recs)
	starts := lineStarts(content)
	b.AgentText = AgentText{WrittenBy: "agent", Lines: make([]string, b.Lines)}
	for i := range b.Lines {
		b.AgentText.Lines[i] = string(content[starts[i]:starts[i+1]])
	}
	return b
}

// attribute is blame without the lines' text.
func attribute(p string, content []byte, recs []ledger.Record) Blame {
	starts := lineStarts(content)
	lines := len(starts) - 1
	b := Blame{Path: p, Lines: lines, Runs: []BlameRun{}, Records: []BlameRecord{}, Changes: len(recs)}
	if len(recs) > maxBlameRecords {
		recs = recs[:maxBlameRecords]
	}
	b.Considered = len(recs)
	owner := make([]int, lines)
	for i := range owner {
		owner[i] = -1
	}
	hashes := func(at, k int, want string) bool {
		return digest.Bytes(content[starts[at]:starts[at+k]]) == want
	}
	for _, rec := range recs {
		m := &rec.Metadata.Intenthook
		if m.Event != ledger.EventPostToolUse || !m.Success {
			continue
		}
		idx := -1
		for _, f := range rec.Files {
			if f.Path != p {
				continue
			}
			for _, cv := range f.Conversations {
				for _, rg := range cv.Ranges {
					k := rg.EndLine - rg.StartLine + 1
					if rg.ContentHash == "" || k <= 0 || k > lines {
						continue
					}
					at := -1
					if start := rg.StartLine - 1; start+k <= lines && hashes(start, k, rg.ContentHash) {
						at = start
					} else if k <= maxMovedRange {
						for i := 0; i+k <= lines; i++ {
							if hashes(i, k, rg.ContentHash) {
								at = i
								break
							}
						}
					}
					if at < 0 {
						continue
					}
					// The lines a newer record took stay its own.
					for i := at; i < at+k; i++ {
						if owner[i] >= 0 {
							continue
						}
						if idx < 0 {
							idx = len(b.Records)
							b.Records = append(b.Records, blameRecord(&rec, cv.Contributor))
						}
						owner[i] = idx
					}
				}
			}
		}
	}
	for i, o := range owner {
		if n := len(b.Runs); n > 0 && b.Runs[n-1].Record == o {
			b.Runs[n-1].End = i + 1
			continue
		}
		b.Runs = append(b.Runs, BlameRun{Start: i + 1, End: i + 1, Record: o})
	}
	return b
}

func blameRecord(rec *ledger.Record, c *ledger.Contributor) BlameRecord {
	m := &rec.Metadata.Intenthook
	out := BlameRecord{ID: rec.ID, Time: rec.Timestamp, Intent: rec.Intent(), Session: m.SessionID, Agent: ledger.AgentOf(m), Tool: m.ToolName}
	if c != nil {
		out.Model = c.ModelID
	}
	return out
}

// lineStarts returns where each of content's lines begins, and its
// length last: line i is content[starts[i]:starts[i+1]], its newline
// included (the last line without one, when the file does not end in one),
// as ranges hash them.
func lineStarts(content []byte) []int {
	starts := []int{0}
	for i, c := range content {
		if c == '\n' && i+1 < len(content) {
			starts = append(starts, i+1)
		}
	}
	if len(content) == 0 {
		return starts
	}
	return append(starts, len(content))
}
