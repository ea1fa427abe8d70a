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
