package console

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
)

// maxReviewDiff bounds the diff a review shows, maxReviewFiles the files
// it diffs.
const (
	maxReviewDiff  = 64 << 10
	maxReviewFiles = 200
)

// ReviewFunc approves (decision "approve") or rejects ("reject", with a
// reason) the IN_REVIEW intent id for the person running the console, as
// intenthook intents approve|reject does, recording who.
type ReviewFunc func(ctx context.Context, id, decision, reason string) error

// Review is an IN_REVIEW intent as GET /api/reviews gives it: the
// catalog's id, name and scope, what its submission recorded (the files
// changed, the checks run and how they ended, as the submit record's
// result), and the diff of those files from where the branch left the
// default branch (else HEAD) to the work tree.
type Review struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	OwnedScope []string `json:"owned_scope"`
	// Result is the newest submit record's result in the ledger's last
	// MiB: absent when none is there.
	Result    json.RawMessage `json:"result,omitempty"`
	Submitted string          `json:"submitted,omitempty"` // that record's time
	Base      string          `json:"base,omitempty"`      // what the diff starts from
	DiffCut   bool            `json:"diff_cut,omitempty"`  // the diff is its first maxReviewDiff bytes
	// AgentText holds the files and the diff: agents wrote them.
	AgentText AgentText `json:"agent_text"`
}

func (s site) serveReviews(w http.ResponseWriter, r *http.Request) {
	out, err := s.reviews(r.Context())
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, out)
}

// reviews lists the catalog's IN_REVIEW intents with their submissions.
func (s site) reviews(ctx context.Context) ([]Review, error) {
	out := []Review{}
	cat, err := intents.Load(filepath.Join(s.repo.Root, filepath.FromSlash(intents.File)))
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	var recs []ledger.Record
	g := git.Open(s.repo.Root)
	base := ""
	for _, in := range cat.All() {
		if in.Status != intents.InReview {
			continue
		}
		if recs == nil {
			recs, _ = ledger.ReadTail(s.repo.Root, boardBytes)
			base = diffBase(ctx, g)
		}
		rv := Review{ID: in.ID, Name: in.Name, OwnedScope: in.OwnedScope, Base: base, AgentText: AgentText{WrittenBy: "agent"}}
		if rv.OwnedScope == nil {
			rv.OwnedScope = []string{}
		}
		for i := len(recs) - 1; i >= 0; i-- {
			m := &recs[i].Metadata.Intenthook
			if m.Event == ledger.EventSubmit && recs[i].Intent() == in.ID && m.Result != nil {
				rv.Result, rv.Submitted = m.Result, recs[i].Timestamp
				break
			}
		}
		var result struct {
			Files []string `json:"files"`
		}
		if rv.Result != nil && json.Unmarshal(rv.Result, &result) == nil && len(result.Files) > 0 && base != "" {
			rv.AgentText.Files = result.Files
			// The paths are the submission's: after --, read literally.
			args := append([]string{"--literal-pathspecs"}, git.ByteDiff("diff", append([]string{base, "--"}, result.Files[:min(len(result.Files), maxReviewFiles)]...)...)...)
			diff, err := g.Output(ctx, args...)
			if err == nil {
				if len(diff) > maxReviewDiff {
					diff, rv.DiffCut = diff[:maxReviewDiff], true
				}
				rv.AgentText.Diff = string(diff)
			}
		}
		out = append(out, rv)
	}
	return out, nil
}

// diffBase is where a review's diff starts: the merge base with the
// default branch, else HEAD; "" outside git.
func diffBase(ctx context.Context, g *git.Repo) string {
	if rng, err := g.DefaultRange(ctx); err == nil {
		if base, _, ok := strings.Cut(rng, ".."); ok {
			return base
		}
	}
	if head, err := g.Line(ctx, "rev-parse", "--verify", "--quiet", "HEAD"); err == nil {
		return head
	}
	return ""
}

func (s site) serveReview(w http.ResponseWriter, r *http.Request, id string) {
	body, ok := readDecision(w, r, "approve", "reject", "rejection")
	switch {
	case !ok:
		return
	case s.repo.Review == nil:
		fail(w, http.StatusNotImplemented, "this console does not review intents")
		return
	}
	s.answering.Lock()
	err := s.repo.Review(r.Context(), id, body.Decision, body.Reason)
	s.answering.Unlock()
	if err != nil {
		fail(w, http.StatusConflict, err.Error())
		return
	}
	writeJSON(w, map[string]string{"id": id, "decision": body.Decision})
}
