package gate

import (
	"context"

	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/money"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/transcript"
)

// addUsage gives r, the first record a post call appends, what the call's
// agent spent since its session's previous record: the call, and the
// tokens its transcript records since the mark kept in the session's
// state. The transcript is read under the session's lock, so that two
// calls of one session never count the same bytes; a call reads at most
// transcript.MaxRead bytes.
func (g *Gate) addUsage(ctx context.Context, r *ledger.Record) {
	u := &ledger.Usage{Calls: 1}
	m := &r.Metadata.Intenthook
	m.Usage = u
	path := g.transcript()
	var spent transcript.Spent
	// What the session's state said when the call began: a transcript
	// with nothing new costs no lock and no write.
	snap, snapKnown := transcript.ParseMark(g.session.Usage[path])
	if path != "" && !transcript.Unchanged(path, snap, snapKnown) {
		own := g.call.TranscriptPath
		if own == "" {
			own = g.session.Transcript
		}
		g.note(g.updateSession(ctx, func(s *state.Session) {
			mark, known := transcript.ParseMark(s.Usage[path])
			// A transcript other than the session's own (a subagent's)
			// born after its session was first counted counts whole.
			_, ownCounted := s.Usage[own]
			fromStart := path != own && ownCounted
			var next transcript.Mark
			spent, next = transcript.Usage(path, mark, known, fromStart)
			s.SetUsageMark(path, next.String(), own)
			// The model the agent spends on now, for sessions whose events
			// do not name it: after a switch (/model), the new one.
			if spent.Model != "" && g.call.Model == "" && path == own {
				s.Model = spent.Model
			}
		}))
	}
	u.Model = spent.Model
	if u.Model == "" {
		u.Model = g.model()
	}
	u.InputTokens, u.OutputTokens = spent.Input, spent.Output
	u.CacheCreationInputTokens, u.CacheReadInputTokens = spent.CacheCreation, spent.CacheRead
	if p, ok := g.Config.PriceOf(u.Model); ok && u.Tokens() > 0 {
		u.USD = money.Amount(p.Cost(u.InputTokens, u.OutputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens))
	}
	m.UsageReset = spent.Reset
}
