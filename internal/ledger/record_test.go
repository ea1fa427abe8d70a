package ledger

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The example of SPEC §7.2, with its placeholders filled in: key order,
// nulls and the omitted extras must come out exactly so.
func TestMarshalLineShape(t *testing.T) {
	hex := strings.Repeat("ab", 32)
	rec := &Record{
		Version:   "0.1.0",
		ID:        "0b6c9a52-3f0e-4a8e-9d2b-6f1f6c0e9b11",
		Timestamp: "2026-11-22T10:00:00.000Z",
		VCS:       &VCS{Type: "git", Revision: strings.Repeat("0123456789", 4)},
		Tool:      &Tool{Name: "intenthook", Version: "0.1.0"},
		Files: []File{{Path: "src/hooks/engine.go", Conversations: []Conversation{{
			URL:         FileURL("/home/u/.claude/projects/x/abc.jsonl"),
			Contributor: &Contributor{Type: "ai", ModelID: "anthropic/claude-sonnet-5"},
			Ranges:      []Range{{StartLine: 1, EndLine: 42, ContentHash: "sha256:" + hex}},
			Related: []Related{
				{Type: "intent", URL: IntentURL("INT-001")},
				{Type: "specification", URL: "spec:.specify/specs/hook.md"},
			},
		}}}},
		Metadata: Metadata{Intenthook: Meta{
			Seq: 17, Prev: NullString("sha256:" + hex), Event: EventPostToolUse, IntentID: "INT-001",
			SessionID: "abc123", ToolName: "Write", ToolUseID: "toolu_01", MutationClass: "FILE_CREATION",
			PostHash: NullString("sha256:" + hex), ScopeValidation: "PASS", Decision: "allow", Success: true,
		}},
	}
	want := `{"version":"0.1.0","id":"0b6c9a52-3f0e-4a8e-9d2b-6f1f6c0e9b11","timestamp":"2026-11-22T10:00:00.000Z",` +
		`"vcs":{"type":"git","revision":"0123456789012345678901234567890123456789"},` +
		`"tool":{"name":"intenthook","version":"0.1.0"},` +
		`"files":[{"path":"src/hooks/engine.go","conversations":[{` +
		`"url":"file:///home/u/.claude/projects/x/abc.jsonl",` +
		`"contributor":{"type":"ai","model_id":"anthropic/claude-sonnet-5"},` +
		`"ranges":[{"start_line":1,"end_line":42,"content_hash":"sha256:` + hex + `"}],` +
		`"related":[{"type":"intent","url":"intent:INT-001"},{"type":"specification","url":"spec:.specify/specs/hook.md"}]}]}],` +
		`"metadata":{"dev.intenthook":{"seq":17,"prev":"sha256:` + hex + `","event":"PostToolUse",` +
		`"intent_id":"INT-001","session_id":"abc123","agent_id":null,"tool_name":"Write","tool_use_id":"toolu_01",` +
		`"mutation_class":"FILE_CREATION","pre_hash":null,"post_hash":"sha256:` + hex + `",` +
		`"scope_validation":"PASS","decision":"allow","code":null,"success":true,"error":null}}}`
	if got := rec.MarshalLine(); string(got) != want {
		t.Errorf("line:\n got %s\nwant %s", got, want)
	}
}

func TestMarshalLineEmpties(t *testing.T) {
	tests := []struct {
		name string
		rec  Record
		want []string // substrings
		not  []string
	}{
		{"no files, no vcs", Record{Version: "0.1.0"},
			[]string{`"files":[]`, `"prev":null`, `"intent_id":null`, `"success":false`},
			[]string{`"vcs"`, `"command"`, `"paths"`, `"cut"`}},
		{"nil conversations and ranges", Record{Files: []File{{Path: "a"}, {Path: "b", Conversations: []Conversation{{}}}}},
			[]string{`{"path":"a","conversations":[]}`, `{"path":"b","conversations":[{"ranges":[]}]}`}, nil},
		{"shell characters are not escaped", Record{Metadata: Metadata{Intenthook: Meta{Command: "a && b > c <d", Error: "x & y"}}},
			[]string{`"command":"a && b > c <d"`, `"error":"x & y"`}, nil},
		{"extras when set", Record{Metadata: Metadata{Intenthook: Meta{Paths: []string{"p"}, From: "PENDING", To: "IN_PROGRESS", Fragment: "f"}}},
			[]string{`"paths":["p"],`, `"from":"PENDING","to":"IN_PROGRESS","fragment":"f"`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.rec
			b := tt.rec.MarshalLine()
			for _, w := range tt.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("missing %s in %s", w, b)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(string(b), w) {
					t.Errorf("unexpected %s in %s", w, b)
				}
			}
			if len(before.Files) > 0 && before.Files[0].Conversations != nil {
				t.Errorf("MarshalLine changed the caller's record")
			}
		})
	}
}

func TestURLs(t *testing.T) {
	tests := []struct{ got, want string }{
		{FileURL("/home/u/.claude/projects/x/abc.jsonl"), "file:///home/u/.claude/projects/x/abc.jsonl"},
		{FileURL("/home/u/my projects/é#1?.jsonl"), "file:///home/u/my%20projects/%C3%A9%231%3F.jsonl"},
		{FileURL(`C:\Users\u\.claude\x.jsonl`), "file:///C:/Users/u/.claude/x.jsonl"},
		{FileURL(""), ""},
		{IntentURL("INT-001"), "intent:INT-001"},
		{IntentURL("INT 2/x"), "intent:INT%202%2Fx"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// Lines in the seeds' shapes (SPEC §7.2, PROTOCOLS §3) read as records.
func TestParseLineLegacy(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		check func(t *testing.T, r *Record)
	}{
		{"flat TraceEntry (seed 000)",
			`{"id":"e1","timestamp":"2026-02-20T14:30:00.000Z","intent_id":"INT-001","session_id":"session-abc-123","tool_name":"write_to_file","mutation_class":"INTENT_EVOLUTION","file":{"relative_path":"src/core/hooks/HookEngine.ts","pre_hash":"sha256:a1","post_hash":"sha256:d4"},"scope_validation":"PASS","success":true,"error":null}`,
			func(t *testing.T, r *Record) {
				m := r.Metadata.Intenthook
				eq(t, "version", r.Version, "")
				eq(t, "intent", r.Intent(), "INT-001")
				eq(t, "session", m.SessionID, "session-abc-123")
				eq(t, "tool", m.ToolName, "write_to_file")
				eq(t, "class", m.MutationClass, "INTENT_EVOLUTION")
				eq(t, "pre", string(m.PreHash), "sha256:a1")
				eq(t, "post", string(m.PostHash), "sha256:d4")
				eq(t, "scope", m.ScopeValidation, "PASS")
				eq(t, "success", m.Success, true)
				eq(t, "touches", r.Touches("src/core/hooks/HookEngine.ts"), true)
			}},
		{"AgentTraceEntry (seed 001)",
			`{"id":"e2","timestamp":"2026-02-20T14:31:00.000Z","vcs":{"revision_id":"a1b2c3d4e5f6"},"files":[{"relative_path":"src/a.ts","conversations":[{"url":"session-abc-123","contributor":{"entity_type":"AI","model_identifier":"claude-3-5-sonnet"},"ranges":[{"start_line":1,"end_line":45,"content_hash":"sha256:a8"}],"related":[{"type":"intent","value":"INT-002"},{"type":"specification","value":".specify/specs/hook-system.spec.md"}]}]}]}`,
			func(t *testing.T, r *Record) {
				eq(t, "vcs", *r.VCS, VCS{Type: "git", Revision: "a1b2c3d4e5f6"})
				eq(t, "path", r.Files[0].Path, "src/a.ts")
				c := r.Files[0].Conversations[0]
				eq(t, "contributor", *c.Contributor, Contributor{Type: "ai", ModelID: "claude-3-5-sonnet"})
				eq(t, "range", c.Ranges[0], Range{StartLine: 1, EndLine: 45, ContentHash: "sha256:a8"})
				eq(t, "related", c.Related[1], Related{Type: "specification", URL: ".specify/specs/hook-system.spec.md"})
				eq(t, "intent", r.Intent(), "INT-002")
				eq(t, "success", r.Metadata.Intenthook.Success, true)
			}},
		{"seed 004: intent filed as specification, class on top",
			`{"id":"e3","timestamp":"2026-02-21T09:00:00Z","mutation_class":"AST_REFACTOR","vcs":{"revision_id":null},"files":[{"relative_path":"src/b.ts","conversations":[{"contributor":{"entity_type":"Human"},"ranges":[{"start_line":2,"end_line":2,"content_hash":"sha256:ff"}],"related":[{"type":"specification","value":"INT-007"}]}]}]}`,
			func(t *testing.T, r *Record) {
				eq(t, "vcs", r.VCS == nil, true)
				eq(t, "intent", r.Intent(), "INT-007")
				eq(t, "class", r.Metadata.Intenthook.MutationClass, "AST_REFACTOR")
				eq(t, "contributor", r.Files[0].Conversations[0].Contributor.Type, "human")
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseLine([]byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, r)
		})
	}
}

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestParseChange: what ParseChange decodes of a line is what the whole
// record says (Record.Change), for records as the ledger writes them and
// lines in the seeds' shapes.
// parseChangeJSON is ParseChange as encoding/json reads the line: the
// oracle FuzzParseChange holds it to.
func parseChangeJSON(line []byte) (Change, error) {
	var r struct {
		Version   string `json:"version"`
		Timestamp string `json:"timestamp"`
		Files     []struct {
			Path string `json:"path"`
		} `json:"files"`
		Metadata struct {
			Intenthook struct {
				IntentID      NullString `json:"intent_id"`
				ToolName      string     `json:"tool_name"`
				MutationClass string     `json:"mutation_class"`
				Decision      string     `json:"decision"`
			} `json:"dev.intenthook"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(line, &r); err != nil {
		return Change{}, err
	}
	if r.Version == "" {
		rec, err := ParseLine(line)
		if err != nil {
			return Change{}, err
		}
		return rec.Change(), nil
	}
	m := r.Metadata.Intenthook
	c := Change{Time: r.Timestamp, Intent: string(m.IntentID), Tool: m.ToolName, Class: m.MutationClass, Decision: m.Decision}
	for _, f := range r.Files {
		c.Paths = append(c.Paths, f.Path)
	}
	return c, nil
}

// FuzzParseChange: ParseChange reads a line as encoding/json does, keys in
// another case, repeated, null and of the wrong type included.
func FuzzParseChange(f *testing.F) {
	for _, s := range []string{
		`{"version":"0.1.0","timestamp":"t","files":[{"path":"a"},null,{"PATH":"b","path":null}],"metadata":{"dev.intenthook":{"intent_id":null,"tool_name":"Edit","decision":"allow"}}}`,
		`{"Version":"0.1.0","files":[{"path":"a"}],"files":[],"METADATA":{"DEV.INTENTHOOK":{"Intent_ID":"INT-1"}},"metadata":null}`,
		`{"version":"0.1.0","files":[1]}`, `{"version":"0.1.0","timestamp":5}`, `{"version":"0.1.0","metadata":[]}`,
		`{"version":"0.1.0","files":{"path":"a"}}`, `{"id":"e1","timestamp":"t","intent_id":"INT-1"}`, `[]`, `{"version":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		want, wantErr := parseChangeJSON(line)
		got, err := ParseChange(line)
		if (err != nil) != (wantErr != nil) || err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("ParseChange(%q) = %+v, %v; json %+v, %v", line, got, err, want, wantErr)
		}
	})
}

func TestParseChange(t *testing.T) {
	denied := writeRecord("s2", "b.go")
	denied.Metadata.Intenthook.Decision, denied.Metadata.Intenthook.Code = "deny", "SCOPE_VIOLATION"
	selected := &Record{Metadata: Metadata{Intenthook: Meta{Event: "select", IntentID: "INT-002", SessionID: "s3", ToolName: "Bash", Decision: "allow"}}}
	unowned := writeRecord("s4", "c.go")
	unowned.Metadata.Intenthook.IntentID = ""
	two := writeRecord("s5", "d.go")
	two.Files = append(two.Files, File{Path: `e "quoted" \ path.go`})
	lines := []string{
		`{"id":"e1","timestamp":"2026-02-20T14:30:00.000Z","intent_id":"INT-001","session_id":"session-abc-123","tool_name":"write_to_file","mutation_class":"INTENT_EVOLUTION","file":{"relative_path":"src/core/hooks/HookEngine.ts","pre_hash":"sha256:a1","post_hash":"sha256:d4"},"scope_validation":"PASS","success":true,"error":null}`,
		`{"id":"e3","timestamp":"2026-02-21T09:00:00Z","mutation_class":"AST_REFACTOR","vcs":{"revision_id":null},"files":[{"relative_path":"src/b.ts","conversations":[{"contributor":{"entity_type":"Human"},"ranges":[{"start_line":2,"end_line":2,"content_hash":"sha256:ff"}],"related":[{"type":"specification","value":"INT-007"}]}]}]}`,
	}
	for _, r := range []*Record{writeRecord("s1", "a.go"), denied, selected, unowned, two} {
		r.Version, r.ID, r.Timestamp = "0.1.0", "id-"+r.Metadata.Intenthook.SessionID, "2026-12-03T10:00:00.000Z"
		lines = append(lines, string(r.MarshalLine()))
	}
	for _, line := range lines {
		rec, err := ParseLine([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseChange([]byte(line))
		if want := rec.Change(); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v (%v)\nwant %+v", line, got, err, want)
		}
	}
	if _, err := ParseChange([]byte(`{"version":"0.1.0","files":[`)); err == nil {
		t.Error("a torn line parsed")
	}
}
