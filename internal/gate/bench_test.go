package gate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	benchHookWith(b, event, run, nil)
}

// benchHookWith is benchHook with each event changed by edit, which may
// also change the files the call reads, before the call.
func benchHookWith(b *testing.B, event string, run func(*Gate, context.Context) (hook.Decision, error), edit func(ev []byte) []byte) {
	ws := b.TempDir()
	if err := bench.Workspace(ws, 200, 100_000); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	call := func() {
		raw := bench.Event(ws, event, "toolu_b")
		if edit != nil {
			raw = edit(raw)
		}
		ev, err := protocol.ParseObject(raw)
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

// BenchmarkPostTranscript is BenchmarkPost with the session's transcript a
// 100 MB file, one assistant message appended before each call: what post
// reads is what was appended, whatever the transcript's length.
func BenchmarkPostTranscript(b *testing.B) {
	p := filepath.Join(b.TempDir(), "bench.jsonl")
	pad := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", 4000) + `"}}` + "\n"
	if err := os.WriteFile(p, []byte(strings.Repeat(pad, 100<<20/len(pad))), 0o644); err != nil {
		b.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	n := 0
	benchHookWith(b, hook.PostToolUse, (*Gate).Post, func(ev []byte) []byte {
		n++
		fmt.Fprintf(f, `{"type":"assistant","message":{"id":"msg_%d","role":"assistant","model":"claude-x","content":[{"type":"text","text":"%s"}],"usage":{"input_tokens":3,"output_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000}}}`+"\n", n, strings.Repeat("y", 400))
		return bytes.Replace(ev, []byte("/home/u/.claude/projects/bench/bench.jsonl"), []byte(p), 1)
	})
}
