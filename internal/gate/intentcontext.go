package gate

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/intentctx"
	"github.com/intenthook/intenthook/internal/intentmap"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
)

// traceWindow is how much of the ledger's end the context reads for the
// intent's recent records: never the whole ledger.
const traceWindow = 1 << 20

// specRead bounds how much of a related spec file is read; the builder
// keeps at most 2 KB of it.
const specRead = 8 << 10

// intentContext gathers what the agent should know about in (its related
// files, spec excerpts and recent trace) and renders it within budget.
func (g *Gate) intentContext(in *intents.Intent, warning string, budget int) string {
	files, _ := intentmap.Files(g.Root, in.ID)
	var specs []intentctx.SpecExcerpt
	for _, s := range in.RelatedSpecs {
		if text, ok := g.readSpec(s.Ref); ok {
			specs = append(specs, intentctx.SpecExcerpt{Ref: s.Ref, Text: text})
		}
	}
	var trace []intentctx.TraceEntry
	recs, _ := ledger.ReadTail(g.Root, traceWindow)
	for i := range recs {
		r := &recs[i]
		if r.Intent() != in.ID || len(r.Files) == 0 {
			continue
		}
		m := r.Metadata.Intenthook
		trace = append(trace, intentctx.TraceEntry{Time: r.Timestamp, Tool: m.ToolName, Path: r.Files[0].Path, Class: m.MutationClass})
	}
	if len(trace) > 10 {
		trace = trace[len(trace)-10:]
	}
	return intentctx.Build(intentctx.Inputs{Intent: in, RelatedFiles: files, Specs: specs, Trace: trace, Budget: budget, Warning: warning})
}

// readSpec reads the start of a related spec that is a file in the
// workspace; URLs and paths leaving the root are not read.
func (g *Gate) readSpec(ref string) (string, bool) {
	if strings.Contains(ref, "://") || filepath.IsAbs(ref) {
		return "", false
	}
	res := g.resolver.Resolve(filepath.Join(g.Root, filepath.FromSlash(ref)))
	if res.Rel == "" {
		return "", false
	}
	f, err := os.Open(res.Abs)
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, specRead))
	if err != nil {
		return "", false
	}
	return string(b), true
}
