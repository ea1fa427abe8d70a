package gate

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/intenthook/intenthook/internal/bench"
	"github.com/intenthook/intenthook/internal/hook/claude"
)

// BenchmarkPre runs the whole PreToolUse pipeline in process on the
// workload of `make bench`: 200 intents, a 100 000-record ledger.
func BenchmarkPre(b *testing.B) {
	ws := b.TempDir()
	if err := bench.Workspace(ws, 200, 100_000); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		call, err := claude.Decode(bench.Event(ws, "PreToolUse", "toolu_b"))
		if err != nil {
			b.Fatal(err)
		}
		g, err := Open(&Env{Wd: ws}, call)
		if err != nil {
			b.Fatal(err)
		}
		if d, err := g.Pre(ctx); err != nil || d.Verdict != 0 {
			b.Fatal(d, err)
		}
	}
}

// BenchmarkPost runs PostToolUse for the same call, appending to the ledger.
func BenchmarkPost(b *testing.B) {
	ws := b.TempDir()
	if err := bench.Workspace(ws, 200, 100_000); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		call, err := claude.Decode(bench.Event(ws, "PostToolUse", "toolu_b"))
		if err != nil {
			b.Fatal(err)
		}
		g, err := Open(&Env{Wd: ws}, call)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.Post(ctx); err != nil {
			b.Fatal(err)
		}
	}
	_ = filepath.Join
}
