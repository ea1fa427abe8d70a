// Package bench builds the workloads of `make bench` (SPEC §15): a governed
// workspace with a generated catalog, a chained ledger of any length, and the
// events a session sends. It measures nothing itself.
package bench

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/ledger"
)

// File is the workspace file the bench session edits, in INT-200's scope.
const File = "src/mod100/file.go"

// Event is an Edit event of the bench session on the workspace's file in scope.
func Event(ws, name, id string) []byte {
	resp := ""
	if name == "PostToolUse" {
		resp = fmt.Sprintf(`,"tool_response":{"type":"update","filePath":%q,"structuredPatch":[{"oldStart":1,"oldLines":1,"newStart":1,"newLines":1,"lines":["-x","+x"]}]}`, ws+"/src/mod100/file.go")
	}
	return []byte(fmt.Sprintf(`{"session_id":"bench","transcript_path":"/home/u/.claude/projects/bench/bench.jsonl","cwd":%q,"hook_event_name":%q,"tool_name":"Edit","tool_input":{"file_path":%q,"old_string":"x","new_string":"x"},"tool_use_id":%q%s}`,
		ws, name, ws+"/src/mod100/file.go", id, resp))
}

// Workspace writes a governed workspace with n intents (INT-101 selected by
// the bench session), one small file in its scope, and a chained ledger of
// records lines.
func Workspace(ws string, n, records int) error {
	var cat strings.Builder
	cat.WriteString("# Generated for make bench.\nactive_intents:\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&cat, `  - id: "INT-%03d"
    name: "Generated intent %d"
    status: "IN_PROGRESS"
    owned_scope: ["src/mod%d/**", "docs/mod%d.md"]
    constraints: ["Keep the public API stable", "No new dependencies"]
    acceptance_criteria:
      - "Behaviour %d is covered by tests"
      - description: "unit tests pass"
        check: "go test ./src/mod%d/..."
    related_specs: [{type: speckit, ref: ".specify/specs/mod%d.md"}]
    tags: ["generated"]
    created_at: "2026-11-01T09:00:00Z"
    updated_at: "2026-11-02T09:00:00Z"
`, i+100, i, i, i, i, i, i)
	}
	files := map[string]string{
		".orchestration/active_intents.yaml": cat.String(),
		// Roles on (the top-level agent's is checked on every call) and
		// loop detection at its defaults: the gate as users configure it.
		".orchestration/config.yaml":               "roles:\n  main: {tools: [read, write, shell, select]}\n  Explore: {tools: [read]}\nloop: {repeats: 3, window: 10m, action: deny}\n",
		".orchestration/state/.gitignore":          "*\n",
		".orchestration/state/sessions/bench.json": `{"session_id":"bench","last_seen":"2026-11-22T00:00:00Z","intent":"INT-200"}`,
		"src/mod100/file.go":                       "x\n",
	}
	for name, content := range files {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	if records == 0 {
		return nil
	}
	if _, err := writeSegments(ws, records); err != nil {
		return err
	}
	return ledger.Continue(ws, Writer)
}

// Writer is the writer id of the generated segments.
const Writer = "be0c4be0c4be0c4b"

// SegmentRecords is how many generated records a segment holds: about
// 6 MiB, so that 1 000 000 records are 150 segments under the default
// 8 MiB, as a writer's would be.
const SegmentRecords = 6667

// segmentPath is generated segment n of the bench writer.
func segmentPath(ws string, n int) string {
	return filepath.Join(ws, ".orchestration", "ledger", Writer, "2026-11", fmt.Sprintf("%06d.jsonl", n))
}

// writeSegments writes a hash-chained ledger of n records shaped like the
// ones post writes, SegmentRecords to a segment; it returns the number of
// segments.
func writeSegments(ws string, n int) (int, error) {
	prev := "null"
	seg := 0
	var f *os.File
	var w *bufio.Writer
	closeSeg := func() error {
		if f == nil {
			return nil
		}
		if err := w.Flush(); err != nil {
			return err
		}
		return f.Close()
	}
	for i := 1; i <= n; i++ {
		if (i-1)%SegmentRecords == 0 {
			if err := closeSeg(); err != nil {
				return 0, err
			}
			seg++
			path := segmentPath(ws, seg)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return 0, err
			}
			var err error
			if f, err = os.Create(path); err != nil {
				return 0, err
			}
			w = bufio.NewWriterSize(f, 1<<20)
		}
		var line string
		line, prev = ledgerLine(i, prev, i%200+101, "null")
		w.WriteString(line)
		w.WriteByte('\n')
	}
	return seg, closeSeg()
}

// ledgerLine is record seq of a generated ledger, an edit of module mod's
// file under INT-<mod> (postHash a JSON value: null, or the quoted digest
// of the content written), chained to prev (null or the quoted digest of
// the line before); next is this line's digest, quoted, for the next.
func ledgerLine(seq int, prev string, mod int, postHash string) (line, next string) {
	line = fmt.Sprintf(`{"version":"0.1.0","id":"00000000-0000-4000-8000-%012d","timestamp":"2026-11-22T10:00:00.000Z","tool":{"name":"intenthook","version":"bench"},"files":[{"path":"src/mod%d/file.go","conversations":[{"contributor":{"type":"ai","model_id":"anthropic/claude-sonnet-5"},"ranges":[{"start_line":1,"end_line":1}],"related":[{"type":"intent","url":"intent:INT-%03d"}]}]}],"metadata":{"dev.intenthook":{"seq":%d,"prev":%s,"event":"PostToolUse","intent_id":"INT-%03d","session_id":"old","agent_id":null,"tool_name":"Edit","tool_use_id":"toolu_%d","mutation_class":"AST_REFACTOR","pre_hash":null,"post_hash":%s,"scope_validation":"PASS","decision":"allow","code":null,"success":true,"error":null}}}`,
		seq, mod, mod, seq, prev, mod, seq, postHash)
	sum := sha256.Sum256([]byte(line))
	return line, `"sha256:` + hex.EncodeToString(sum[:]) + `"`
}

// Settle waits until the workspace's catalog is two seconds old, as it is
// in a session (it changes when a person edits it): a hook trusts a large
// catalog's fingerprint for its digest only after that (intents.settleTime),
// and hashes it before.
func Settle(ws string) {
	st, err := os.Stat(filepath.Join(ws, ".orchestration", "active_intents.yaml"))
	if err == nil {
		time.Sleep(time.Until(st.ModTime().Add(2100 * time.Millisecond)))
	}
}

// Generator appends generated records to a workspace's ledger, one chain:
// to the single file of before segments, or to segments of at most
// SegmentRecords records, a new one after each Seal.
type Generator struct {
	ws       string
	segments bool
	seq      int
	prev     string
	seg      int // the open segment's number; 0: none
	inSeg    int // records in it
}

// NewGenerator starts an empty ledger in ws.
func NewGenerator(ws string, segments bool) *Generator {
	return &Generator{ws: ws, segments: segments, prev: "null"}
}

// Write appends n records.
func (g *Generator) Write(n int) error {
	for n > 0 {
		path := filepath.Join(g.ws, ".orchestration", "agent_trace.jsonl")
		k := n
		if g.segments {
			if g.seg == 0 || g.inSeg >= SegmentRecords {
				g.seg, g.inSeg = g.seg+1, 0
			}
			path = segmentPath(g.ws, g.seg)
			k = min(n, SegmentRecords-g.inSeg)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		for range k {
			g.seq++
			var line string
			line, g.prev = ledgerLine(g.seq, g.prev, g.seq%200+101, "null")
			w.WriteString(line)
			w.WriteByte('\n')
		}
		if err := w.Flush(); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		g.inSeg += k
		n -= k
	}
	return nil
}

// Seal ends the open segment: the next record starts another.
func (g *Generator) Seal() {
	if g.segments && g.inSeg > 0 {
		g.inSeg = SegmentRecords
	}
}
