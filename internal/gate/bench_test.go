package gate

import (
	"context"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/claude"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/bench"
	"github.com/intenthook/intenthook/internal/hook"
)

// benchHook runs one hook pipeline in process on the workload of `make
// bench`: 200 intents, a 100 000-record ledger.
func benchHook(b *testing.B, event string, run func(*Gate, context.Context) (hook.Decision, error)) {
	ws := b.TempDir()
	if err := bench.Workspace(ws, 200, 100_000); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ev, err := protocol.ParseObject(bench.Event(ws, event, "toolu_b"))
		if err != nil {
			b.Fatal(err)
		}
		call, err := claude.Decode(ev, event)
		if err != nil {
			b.Fatal(err)
		}
		g, err := Open(&Env{Wd: ws}, call)
		if err != nil {
			b.Fatal(err)
		}
		if d, err := run(g, ctx); err != nil || d.Verdict != hook.Allow {
			b.Fatal(d, err)
		}
	}
}

func BenchmarkPre(b *testing.B)  { benchHook(b, hook.PreToolUse, (*Gate).Pre) }
func BenchmarkPost(b *testing.B) { benchHook(b, hook.PostToolUse, (*Gate).Post) }
