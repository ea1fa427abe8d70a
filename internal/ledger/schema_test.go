package ledger

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/state"
)

// schema compiles the Agent Trace spec's own JSON Schema (a verbatim copy of
// ../shared/schemas/agent-trace-record.schema.json) with formats asserted.
func schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/agent-trace-record.schema.json")
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

func validate(t *testing.T, sch *jsonschema.Schema, what string, line []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s does not validate: %v\n%s", what, err, line)
	}
}

// Every kind of record intenthook writes validates, as written to the
// ledger and as written to the spool.
func TestSchema(t *testing.T) {
	sch := schema(t)

	// The validator must be able to fail, or this test proves nothing.
	for what, bad := range map[string]string{
		"bad uuid":      `{"version":"0.1.0","id":"nope","timestamp":"2026-11-22T10:00:00.000Z","files":[]}`,
		"bad date-time": `{"version":"0.1.0","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","timestamp":"2026-11-22 10:00","files":[]}`,
		"relative url":  `{"version":"0.1.0","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","timestamp":"2026-11-22T10:00:00.000Z","files":[{"path":"a","conversations":[{"url":"x/y","ranges":[]}]}]}`,
		"null files":    `{"version":"0.1.0","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","timestamp":"2026-11-22T10:00:00.000Z","files":null}`,
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(inst) == nil {
			t.Errorf("%s validated: the validator asserts nothing", what)
		}
	}

	hash := digest.String("x")
	longRanges := writeRecord("s", "big.go")
	for i := range 4000 {
		longRanges.Files[0].Conversations[0].Ranges = append(longRanges.Files[0].Conversations[0].Ranges,
			Range{StartLine: i + 1, EndLine: i + 2, ContentHash: hash})
	}
	odd := writeRecord("s", "dir with space/é.go")
	odd.Files[0].Conversations[0].URL = FileURL(`C:\Users\me\.claude\projects\my proj\t#1.jsonl`)
	odd.Files[0].Conversations[0].Related = append(odd.Files[0].Conversations[0].Related,
		Related{Type: "specification", URL: "spec:.specify/specs/a%20b.md"},
		Related{Type: "specification", URL: "https://example.com/spec?x=1"})
	spent := writeRecord("s", "spent.go")
	spent.Metadata.Intenthook.Usage = &Usage{Model: "claude-sonnet-4-5", Calls: 1, InputTokens: 3, OutputTokens: 10,
		CacheCreationInputTokens: 100, CacheReadInputTokens: 1000}
	spent.Metadata.Intenthook.UsageReset = true
	empty := writeRecord("s", "empty.txt")
	empty.Files[0].Conversations[0].Ranges = nil
	empty.Files[0].Conversations[0].URL = ""

	kinds := map[string]*Record{
		"write":                        writeRecord("s", "a.go"),
		"edit with odd names and urls": odd,
		"empty file, no transcript":    empty,
		"write with usage":             spent,
		"denial": {Metadata: Metadata{Intenthook: Meta{Event: EventPreToolUse, SessionID: "s", ToolName: "Write",
			ToolUseID: "t", ScopeValidation: "FAIL", Decision: "deny", Code: "scope_violation", Success: false,
			Error: "src/x.go is outside INT-001's owned_scope"}}},
		"shell": {Metadata: Metadata{Intenthook: Meta{Event: EventPostToolUse, IntentID: "INT-001", SessionID: "s",
			ToolName: "Bash", MutationClass: "CONFIGURATION", ScopeValidation: "EXEMPT", Decision: "allow",
			Success: true, Command: "go test ./... && echo <ok>"}}},
		"long command": {Metadata: Metadata{Intenthook: Meta{Event: EventPostToolUse, ToolName: "Bash",
			Command: strings.Repeat("echo hi; ", 20000)}}},
		"failure with long error": {Metadata: Metadata{Intenthook: Meta{Event: EventPostToolUseFailure,
			Error: NullString(strings.Repeat("boom ", 30000))}}},
		"ranges dropped": longRanges,
		"violation": {Metadata: Metadata{Intenthook: Meta{Event: EventViolation, Paths: []string{"a", "b"},
			Decision: "deny", Code: "shell_scope_violation"}}},
		"select":     {Metadata: Metadata{Intenthook: Meta{Event: EventSelect, IntentID: "INT-001", Decision: "allow", Success: true}}},
		"transition": {Metadata: Metadata{Intenthook: Meta{Event: EventTransition, IntentID: "INT-001", From: "PENDING", To: "IN_PROGRESS", Reason: "r", Success: true}}},
		"verify":     {Metadata: Metadata{Intenthook: Meta{Event: EventVerify, IntentID: "INT-001", Success: true}}},
		"amend":      {Metadata: Metadata{Intenthook: Meta{Event: EventAmend, IntentID: "INT-001", Reason: "add src/**", Success: true}}},
	}
	l := newLedger(t)
	for what, r := range kinds {
		t.Run(what, func(t *testing.T) {
			mustAppend(t, l, r)
			lines := ledgerLines(t, l.Root)
			validate(t, sch, what, lines[len(lines)-1])
		})
	}

	// The repair record, made by a real repair.
	f, err := os.OpenFile(testLedgerPath(t, l.Root), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"torn`)
	f.Close()
	mustAppend(t, l, writeRecord("s", "a.go"))
	lines := ledgerLines(t, l.Root)
	if !bytes.Contains(lines[len(lines)-2], []byte(`"event":"repair"`)) {
		t.Fatalf("no repair record: %s", lines[len(lines)-2])
	}
	validate(t, sch, "repair", lines[len(lines)-2])

	// A spooled record.
	unlock, err := state.Lock(context.Background(), l.Root, state.LockLedger, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	l.LockTimeout = 10 * time.Millisecond
	mustAppend(t, l, writeRecord("s", "a.go"))
	unlock()
	names := spoolNames(t, l.Root)
	if len(names) != 1 {
		t.Fatalf("spool %q", names)
	}
	b, err := os.ReadFile(state.Path(l.Root, spoolDir, names[0]))
	if err != nil {
		t.Fatal(err)
	}
	validate(t, sch, "spooled", b)
	mustVerify(t, l.Root)
}
