package gate

import (
	"context"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Post runs the PostToolUse pipeline (SPEC §7).
func (g *Gate) Post(ctx context.Context) (hook.Decision, error) {
	class := Classify(g.call.ToolName, g.Config.Tools)
	g.explain.step("classify", string(class), "tool="+g.call.ToolName)
	switch class {
	case ClassRead:
		return hook.Decision{}, g.postRead(ctx)
	case ClassWrite, ClassDelete:
		return g.postWrite(ctx)
	}
	return hook.Decision{}, nil
}

// postRead records what this session/agent saw, for the stale check.
func (g *Gate) postRead(ctx context.Context) error {
	seen := g.currentHashes(g.call.Paths)
	if len(seen) == 0 {
		return nil
	}
	return g.updateSession(ctx, func(s *state.Session) {
		for rel, h := range seen {
			s.Record(g.call.AgentID, rel, h)
		}
	})
}

func (g *Gate) postWrite(ctx context.Context) (hook.Decision, error) {
	seen := g.currentHashes(g.call.Paths)
	err := g.updateSession(ctx, func(s *state.Session) {
		delete(s.Pending, g.call.ToolUseID)
		for rel, h := range seen {
			s.Record(g.call.AgentID, rel, h)
		}
	})
	return hook.Decision{}, err
}

// currentHashes hashes the governed files among paths, by root-relative path.
func (g *Gate) currentHashes(paths []string) map[string]string {
	out := map[string]string{}
	for _, p := range paths {
		res := g.resolver.Resolve(p)
		if res.Place != workspace.Inside {
			continue
		}
		h, err := hashFile(res.Abs)
		if err != nil {
			continue
		}
		out[res.Rel] = h
		g.explain.step("hash", "recorded", ev("path", res.Rel), ev("hash", h))
	}
	return out
}
