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
	return writeLedger(filepath.Join(ws, ".orchestration/agent_trace.jsonl"), records)
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

// writeLedger writes a hash-chained ledger of n records shaped like the ones
// post writes.
func writeLedger(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	prev := "null"
	for i := 1; i <= n; i++ {
		var line string
		line, prev = ledgerLine(i, prev, i%200+101, "null")
		w.WriteString(line)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
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
