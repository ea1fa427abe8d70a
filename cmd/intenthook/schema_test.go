package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/intenthook/intenthook/internal/ledger"
)

// TestLedgerMatchesAgentTraceSchema drives a session through the real
// binary, in a git repository, until the ledger holds every kind of record
// the hooks and commands write, then validates each line against the Agent
// Trace spec's own JSON Schema with formats (uuid, date-time, uri) asserted.
func TestLedgerMatchesAgentTraceSchema(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	bin := binary(t)
	root := t.TempDir()
	mustWriteFile(t, filepath.Join(root, ".orchestration/active_intents.yaml"), `active_intents:
  - {id: INT-001, name: Schema, status: PENDING, owned_scope: ["src/**"], constraints: [], acceptance_criteria: [{description: ok, check: "true"}], related_specs: [{type: speckit, ref: ".specify/specs/a b.md"}, {type: github_issue, ref: "https://github.com/o/r/issues/1"}], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}
`)
	mustWriteFile(t, filepath.Join(root, "src/a.go"), "package a\n")
	run := func(stdin string, args ...string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = root
		cmd.Stdin = strings.NewReader(strings.ReplaceAll(stdin, "ROOT", root))
		out, err := cmd.CombinedOutput()
		if err != nil {
			var ee *exec.ExitError
			if !(errors.As(err, &ee) && ee.ExitCode() == 2) {
				t.Fatalf("intenthook %v: %v\n%s", args, err, out)
			}
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	const base = `"session_id":"s 1","transcript_path":"C:\\Users\\me\\.claude\\projects\\p q\\s 1.jsonl","cwd":"ROOT"`
	run(`{`+base+`,"hook_event_name":"SessionStart","source":"startup","model":"claude-sonnet-5"}`, "context")
	run(`{`+base+`,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"intenthook select INT-001"},"tool_use_id":"t0"}`, "pre")
	run(`{`+base+`,"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"ROOT/src/a.go","old_string":"a","new_string":"a // x"},"tool_use_id":"t1"}`, "pre")
	mustWriteFile(t, filepath.Join(root, "src/a.go"), "package a // x\n")
	run(`{`+base+`,"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"ROOT/src/a.go","old_string":"a","new_string":"a // x"},"tool_response":{"structuredPatch":[{"oldStart":1,"oldLines":1,"newStart":1,"newLines":1}]},"tool_use_id":"t1"}`, "post")
	run(`{`+base+`,"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"ROOT/lib/x.go","content":"x"},"tool_use_id":"t2"}`, "pre")
	run(`{`+base+`,"hook_event_name":"PostToolUse","tool_name":"mcp__db__query","tool_input":{},"tool_use_id":"t3"}`, "post")
	run(`{`+base+`,"hook_event_name":"PostToolUseFailure","tool_name":"Write","tool_input":{"file_path":"ROOT/src/b.go"},"error":"disk full","tool_use_id":"t4"}`, "post")
	run(`{`+base+`,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make gen"},"tool_use_id":"t5"}`, "pre")
	mustWriteFile(t, filepath.Join(root, "lib/gen.go"), "package lib\n")
	mustWriteFile(t, filepath.Join(root, "src/gen.go"), "package a\n")
	run(`{`+base+`,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make gen"},"tool_response":{"stdout":""},"tool_use_id":"t5"}`, "post")
	run("", "intents", "scope", "INT-001", "--add", "docs/**", "--reason", "docs")
	run("", "intents", "verify", "INT-001")

	sch := agentTraceSchema(t)
	f := bytes.NewReader(ledgerFileBytes(t, root))
	events := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(sc.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("record does not validate: %v\n%s", err, sc.Bytes())
		}
		r, err := ledger.ParseLine(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if r.VCS == nil || len(r.VCS.Revision) != 40 {
			t.Errorf("record without the git revision: %s", sc.Bytes())
		}
		events[r.Metadata.Intenthook.Event] = true
	}
	for _, want := range []string{"transition", "select", "PostToolUse", "PreToolUse", "PostToolUseFailure", "violation", "amend", "verify"} {
		if !events[want] {
			t.Errorf("no %s record was written; events: %v", want, events)
		}
	}
}

func agentTraceSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("../../internal/ledger/testdata/agent-trace-record.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://agent-trace.dev/schemas/v1/trace-record.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// ledgerFileBytes is every ledger file's bytes, in the order ledger.Files
// names them (the legacy file, then each segment).
func ledgerFileBytes(t *testing.T, root string) []byte {
	t.Helper()
	files, err := ledger.Files(root)
	if err != nil || len(files) == 0 {
		t.Fatalf("ledger files: %v, %v", files, err)
	}
	var out []byte
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
	}
	return out
}
