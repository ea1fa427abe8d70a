package mockmodel

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestScriptedTurns(t *testing.T) {
	did := 0
	s := New([]Turn{{Calls: []ToolCall{{Name: "Write", Args: map[string]any{"file_path": "a"}}}, Do: func() { did++ }}})
	defer s.Close()
	tests := []struct {
		name, path, body, want string
	}{
		{"side request keeps the turn", "/v1/messages", `{"stream":false}`, `"text":"done"`},
		{"first tool request plays turn 1", "/v1/messages", `{"stream":false,"tools":[{}]}`, `"name":"Write"`},
		{"past the script: done", "/v1/messages", `{"stream":true,"tools":[{}]}`, `"text":"done","type":"text_delta"`},
		{"gemini stream past the script", "/v1beta/models/m:streamGenerateContent", `{}`, `"text":"done"`},
		{"chat stream past the script", "/v1/chat/completions", `{"stream":true,"tools":[{}]}`, `data: [DONE]`},
		{"responses past the script", "/v1/responses", `{}`, `"text":"done","type":"output_text"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(s.URL+tt.path, "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if !strings.Contains(string(b), tt.want) {
				t.Errorf("response %s lacks %s", b, tt.want)
			}
		})
	}
	if got := len(s.Requests()); got != len(tests) {
		t.Errorf("recorded %d requests, want %d", got, len(tests))
	}
	if did != 1 {
		t.Errorf("the turn's Do ran %d times, want once (side requests do not take turns)", did)
	}
	if !s.Saw(`"tools":[{}]`) {
		t.Error("Saw misses a recorded body")
	}
}

// TestAugmentAndSearch: the Augment tenant's endpoints Auggie needs, and a
// Responses turn that searches Codex's deferred tools, then calls one in
// its namespace.
func TestAugmentAndSearch(t *testing.T) {
	s := New([]Turn{
		{Calls: []ToolCall{{Name: "save-file", Args: map[string]any{"path": "a"}}}},
		{Calls: []ToolCall{{Search: true, Args: map[string]any{"query": "intenthook"}}}},
		{Calls: []ToolCall{{Name: "select_active_intent", Namespace: "mcp__intenthook", Args: map[string]any{"intent_id": "INT-001"}}}},
	})
	defer s.Close()
	tests := []struct {
		name, path string
		want       []string
	}{
		{"hooks switched on", "/augment/get-models", []string{`"default_model":"mock"`, `"enable_hooks":true`}},
		{"no remote tools", "/augment/agents/list-remote-tools", []string{`{"tools":[]}`}},
		{"other endpoints", "/augment/report-error", []string{`{}`}},
		{"a tool-use node, then the stop reason", "/augment/chat-stream", []string{`"type":5`, `"tool_name":"save-file"`, `"input_json":"{\"path\":\"a\"}"`, `{"stop_reason":3,"text":""}`}},
		{"a client tool search", "/v1/responses", []string{`"type":"tool_search_call"`, `"execution":"client"`, `"arguments":{"query":"intenthook"}`}},
		{"a call in a namespace", "/v1/responses", []string{`"name":"select_active_intent"`, `"namespace":"mcp__intenthook"`}},
		{"chat past the script", "/augment/chat-stream", []string{`"content":"done"`, `{"stop_reason":1,"text":""}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(s.URL+tt.path, "application/json", strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			for _, w := range tt.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("response %s lacks %s", b, w)
				}
			}
		})
	}
}
