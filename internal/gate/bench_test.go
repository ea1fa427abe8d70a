package gate

import (
	"context"
	"testing"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/agent/claude"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/bench"
	"github.com/intenthook/intenthook/internal/hook"
)

// benchHook runs one hook pipeline in process on the workload of `make
// bench`: 200 intents, a 100 000-record ledger, the catalog's cache built
// and the catalog settled (its digest remembered, not computed on every
// call), as a session finds them and as benchhook times whole processes.
func benchHook(b *testing.B, event string, run func(*Gate, context.Context) (hook.Decision, error)) {
	ws := b.TempDir()
	if err := bench.Workspace(ws, 200, 100_000); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	call := func() {
		ev, err := protocol.ParseObject(bench.Event(ws, event, "toolu_b"))
		if err != nil {
			b.Fatal(err)
		}
		c, err := claude.Decode(ev, event)
		if err != nil {
			b.Fatal(err)
		}
		g, err := Open(&Env{Wd: ws, AgentRows: agent.Governance()}, c)
		if err != nil {
			b.Fatal(err)
		}
		if d, err := run(g, ctx); err != nil || d.Verdict != hook.Allow {
			b.Fatal(d, err)
		}
	}
	call()
	bench.Settle(ws)
	call()
	for b.Loop() {
		call()
	}
}

func BenchmarkPre(b *testing.B)  { benchHook(b, hook.PreToolUse, (*Gate).Pre) }
func BenchmarkPost(b *testing.B) { benchHook(b, hook.PostToolUse, (*Gate).Post) }
