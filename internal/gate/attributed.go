package gate

import (
	"context"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// attributed is the gate's side of MCP tools intenthook does not
// classify: their files recorded as ATTRIBUTED, never judged.
type attributed struct{ *Gate }

// preAttributed lets an unknown MCP tool that names workspace files pass,
// remembering their hashes for post (which records only what changed) and
// the tool's name for doctor.
func (g attributed) preAttributed(ctx context.Context) {
	pre := map[string]string{}
	for _, p := range g.call.Paths {
		res := g.resolver.Resolve(p)
		if res.Place != workspace.Inside {
			continue
		}
		h, _ := digest.File(res.Abs)
		pre[res.Rel] = h
	}
	if len(pre) == 0 {
		return
	}
	g.explain.step("attribute", "allow", "an MCP tool intenthook does not classify names a workspace file: recorded, not judged")
	if !slices.Contains(g.session.MCPTools, g.call.ToolName) && strings.HasPrefix(g.call.ToolName, "mcp__") {
		tool := g.call.ToolName
		g.note(g.updateSession(ctx, func(s *state.Session) {
			if !slices.Contains(s.MCPTools, tool) && len(s.MCPTools) < state.MaxMCPTools {
				s.MCPTools = append(s.MCPTools, tool)
			}
		}))
	}
	if g.call.ToolUseID == "" {
		return
	}
	intentID, _ := g.activeIntent()
	g.note(g.Sessions.PutPending(ctx, g.call.SessionID, g.call.ToolUseID, state.Pending{
		AgentID: g.call.AgentID, Tool: g.call.ToolName, At: g.env.now().UTC(), IntentID: intentID, PreHash: pre,
	}))
}

// postAttributed records each workspace file an unknown MCP tool names and
// changed (each one it names when its pre hook did not run).
func (g attributed) postAttributed(ctx context.Context, intentID string, pending state.Pending, hasPending bool) {
	var recs []*ledger.Record
	for _, p := range g.call.Paths {
		res := g.resolver.Resolve(p)
		if res.Place != workspace.Inside {
			continue
		}
		post, _ := digest.File(res.Abs)
		pre, known := pending.PreHash[res.Rel]
		if hasPending && known && pre == post {
			continue
		}
		if post == "" && pre == "" {
			continue
		}
		r := g.record(g.event(), intentID)
		m := &r.Metadata.Intenthook
		m.MutationClass, m.PreHash, m.PostHash = ledger.Attributed, ledger.NullString(pre), ledger.NullString(post)
		m.ScopeValidation, m.Decision = ledger.ScopeExempt, "allow"
		if g.call.Failed {
			m.Success, m.Error = false, ledger.NullString(orDefault(g.call.Error, "tool failed"))
		}
		r.Files = []ledger.File{g.fileEntry(res.Rel, nil, intentID)}
		recs = append(recs, r)
		g.explain.step("record", ledger.Attributed, hook.Ev("path", res.Rel), hook.Ev("pre", pre), hook.Ev("post", post))
	}
	if len(recs) > 0 {
		g.note(g.appendRecords(ctx, recs...))
	}
}
