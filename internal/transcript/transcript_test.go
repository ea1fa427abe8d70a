package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestModel(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	user := `{"type":"user","message":{"role":"user","content":"hi"}}` + "\n"
	asst := func(m string) string {
		return `{"type":"assistant","message":{"id":"msg_1","role":"assistant","model":"` + m + `","content":[]}}` + "\n"
	}
	long := strings.Repeat(user, TailBytes/len(user)+10)
	tests := []struct {
		name, file, content, want string
	}{
		{"newest assistant wins", "a.jsonl", asst("claude-old") + user + asst("claude-sonnet-4-5-20250929") + user, "claude-sonnet-4-5-20250929"},
		{"synthetic messages are skipped", "b.jsonl", asst("claude-x") + asst("<synthetic>"), "claude-x"},
		{"no assistant", "c.jsonl", user, ""},
		{"beyond the tail is not read", "d.jsonl", asst("claude-far") + long, ""},
		{"a fragment at the cut is skipped", "e.jsonl", long + asst("claude-near"), "claude-near"},
		{"unsafe ids are refused", "f.jsonl", asst(`claude"; rm -rf /`), ""},
		{"not a jsonl file", "g.txt", asst("claude-x"), ""},
		{"a user line quoting the model field", "h.jsonl", asst("claude-real") + `{"type":"user","message":{"role":"user","content":"\"model\":\"evil\" assistant"}}` + "\n", "claude-real"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Model(write(tt.file, tt.content)); got != tt.want {
				t.Errorf("Model = %q, want %q", got, tt.want)
			}
		})
	}
	if got := Model(filepath.Join(dir, "missing.jsonl")); got != "" {
		t.Errorf("missing file: %q", got)
	}
	if got := Model(dir + "/"); got != "" {
		t.Errorf("directory: %q", got)
	}
}
