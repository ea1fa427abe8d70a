package export

import (
	"reflect"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/ledger"
)

func TestRepoURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://github.com/acme/app.git", "https://github.com/acme/app.git"},
		{"https://x-access-token:ghs_abcdef@github.com/acme/app.git", "https://github.com/acme/app.git"},
		{"https://oauth2:glpat-xyz@gitlab.com/acme/app?private_token=abc#frag", "https://gitlab.com/acme/app"},
		{"ssh://git@github.com:22/acme/app.git", "ssh://github.com:22/acme/app.git"},
		{"git@github.com:acme/app.git", "github.com:acme/app.git"},
		{"/srv/git/app.git", "/srv/git/app.git"},
		{"weird@thing/with@", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := RepoURL(tt.in); got != tt.want {
			t.Errorf("RepoURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func attrMap(e Entry) map[string]any {
	m := map[string]any{}
	for _, a := range e.Attrs {
		m[a.Key] = a.Value
	}
	return m
}

func TestNewEntry(t *testing.T) {
	edit := ledger.NewRecord("0123456789012345678901234567890123456789", ledger.Meta{Seq: 7, Event: ledger.EventPostToolUse, IntentID: "INT-001", SessionID: "s1",
		ToolName: "Edit", ToolUseID: "toolu_1", MutationClass: "AST_REFACTOR", ScopeValidation: "PASS", Decision: "allow"})
	edit.ID, edit.Timestamp = "9b0c6f4e-0000-4000-8000-000000000001", "2026-11-22T10:00:00.000Z"
	edit.Files = []ledger.File{{Path: "src/a.go", Conversations: []ledger.Conversation{{Contributor: &ledger.Contributor{Type: "ai", ModelID: "anthropic/claude-sonnet-5"}}}}}

	deny := ledger.NewRecord("", ledger.Meta{Seq: 8, Event: ledger.EventPreToolUse, IntentID: "INT-001", SessionID: "s1", ToolName: "Write",
		ScopeValidation: "FAIL", Decision: "deny", Code: "scope_violation", Paths: []string{"src/api/x.go"}})
	deny.ID = "id-deny"
	deny.Metadata.Intenthook.Success = false

	leak := ledger.NewRecord("", ledger.Meta{Event: ledger.EventViolation, Decision: "violation", Code: "out_of_scope_change", SessionID: "s2", ToolName: "Bash",
		Command: "curl -H 'Authorization: Bearer sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789' https://x", Paths: []string{"a.go", "b.go", "c.go", "d.go"}})
	leak.ID = "id-leak"
	leak.Metadata.Intenthook.Success = false

	tests := []struct {
		name     string
		rec      *ledger.Record
		severity int
		body     string
		attrs    map[string]any
	}{
		{"edit", edit, SeverityInfo, "allowed Edit src/a.go under INT-001 (AST_REFACTOR)", map[string]any{
			KeyUID: edit.ID, KeySession: "s1", KeyRepoURL: "https://github.com/acme/app", KeyRevision: "0123456789012345678901234567890123456789",
			KeyModel: "anthropic/claude-sonnet-5", KeyFilePath: "src/a.go", KeyEvent: "PostToolUse", KeyIntent: "INT-001", KeyDecision: "allow",
			KeyTool: "Edit", KeyToolUse: "toolu_1", KeyMutationClass: "AST_REFACTOR", KeyScope: "PASS", KeySuccess: true, KeySeq: int64(7),
			KeyLedgerFile: ledger.FileName}},
		{"denial", deny, SeverityWarn, "denied Write src/api/x.go under INT-001: scope_violation", map[string]any{
			KeyUID: "id-deny", KeySession: "s1", KeyRepoURL: "https://github.com/acme/app", KeyFilePath: "src/api/x.go", KeyEvent: "PreToolUse",
			KeyIntent: "INT-001", KeyDecision: "deny", KeyCode: "scope_violation", KeyTool: "Write", KeyScope: "FAIL", KeySuccess: false,
			KeySeq: int64(8), KeyLedgerFile: ledger.FileName}},
		{"violation, redacted", leak, SeverityError, "violation: Bash a.go, b.go, c.go and 1 more changed outside the hooks' consent: out_of_scope_change", map[string]any{
			KeyUID: "id-leak", KeySession: "s2", KeyRepoURL: "https://github.com/acme/app", KeyFilePath: "a.go", KeyEvent: "violation",
			KeyDecision: "violation", KeyCode: "out_of_scope_change", KeyTool: "Bash", KeySuccess: false,
			KeyPaths: []string{"a.go", "b.go", "c.go", "d.go"}, KeyCommand: "curl -H 'Authorization: Bearer [REDACTED]' https://x",
			KeyLedgerFile: ledger.FileName, KeyRecordRedacted: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := NewEntry(tt.rec, ledger.FileName, Repo{URL: "https://github.com/acme/app"})
			if e.Severity != tt.severity || e.Body != tt.body {
				t.Errorf("severity %d body %q, want %d %q", e.Severity, e.Body, tt.severity, tt.body)
			}
			if got := attrMap(e); !reflect.DeepEqual(got, tt.attrs) {
				t.Errorf("attributes\n%v\nwant\n%v", got, tt.attrs)
			}
			for _, a := range e.Attrs {
				if s, ok := a.Value.(string); ok && strings.Contains(s, "sk-ant-") {
					t.Errorf("%s carries a token: %q", a.Key, s)
				}
			}
		})
	}
}

// TestNewEntryUsage: a record's usage reaches the log record in the GenAI
// conventions' names: input tokens of every kind (cached ones included),
// output tokens, the cache kinds apart and the model the usage names; a
// record without usage, or whose usage counted no tokens, carries none.
func TestNewEntryUsage(t *testing.T) {
	usageKeys := []string{KeyRequestModel, KeyInputTokens, KeyOutputTokens, KeyCacheReadTokens, KeyCacheCreationTokens}
	tests := []struct {
		name  string
		usage *ledger.Usage
		want  map[string]any
	}{
		{"no usage", nil, map[string]any{}},
		{"calls only", &ledger.Usage{Calls: 1}, map[string]any{}},
		{"calls and a model, no tokens", &ledger.Usage{Model: "gpt-5", Calls: 1}, map[string]any{KeyRequestModel: "gpt-5"}},
		{"claude, every kind", &ledger.Usage{Model: "claude-sonnet-4-5-20250929", Calls: 1, InputTokens: 3, OutputTokens: 10, CacheCreationInputTokens: 100, CacheReadInputTokens: 1000, USD: 834},
			map[string]any{KeyRequestModel: "claude-sonnet-4-5-20250929", KeyInputTokens: int64(1103), KeyOutputTokens: int64(10),
				KeyCacheReadTokens: int64(1000), KeyCacheCreationTokens: int64(100)}},
		{"codex, cache reads", &ledger.Usage{Model: "gpt-5-codex", Calls: 1, InputTokens: 40, OutputTokens: 7, CacheReadInputTokens: 2000},
			map[string]any{KeyRequestModel: "gpt-5-codex", KeyInputTokens: int64(2040), KeyOutputTokens: int64(7), KeyCacheReadTokens: int64(2000)}},
		{"output only, no model", &ledger.Usage{Calls: 1, OutputTokens: 5},
			map[string]any{KeyInputTokens: int64(0), KeyOutputTokens: int64(5)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ledger.NewRecord("", ledger.Meta{Event: ledger.EventPostToolUse, IntentID: "INT-001", SessionID: "s1", ToolName: "Write", Decision: "allow"})
			r.ID = "id-usage"
			r.Metadata.Intenthook.Usage = tt.usage
			all := attrMap(NewEntry(r, ledger.FileName, Repo{}))
			got := map[string]any{}
			for _, k := range usageKeys {
				if v, ok := all[k]; ok {
					got[k] = v
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("usage attributes\n%v\nwant\n%v", got, tt.want)
			}
		})
	}
}
