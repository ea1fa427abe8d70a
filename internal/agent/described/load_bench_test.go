package described

import (
	"os"
	"path/filepath"
	"testing"
)

const acmeDesc = `{
  "name": "acme",
  "title": "Acme Agent",
  "settings": {"project": ".acme/hooks.json", "user": "~/.acme/hooks.json", "shape": "claude", "timeout": 20, "root": true},
  "events": {"pre": "BeforeTool", "post": "AfterTool", "start": "SessionStart"},
  "input": {"event": "hookEventName", "session": "sessionId", "cwd": ["cwd", "workspaceRoot"], "tool": "toolName", "args": "toolInput", "call_id": "toolCallId"},
  "tools": {
    "edit_file": {"class": "write", "path": "target", "new_strings": "replacement"},
    "run": {"class": "shell", "command": "cmd"},
    "look": {"class": "read", "path": "target"}
  },
  "answer": "decision_json",
  "project_dir_env": "ACME_PROJECT_DIR"
}
`

func benchRoot(b *testing.B) string {
	root := b.TempDir()
	dir := filepath.Join(root, ".orchestration", "agents")
	if err := os.MkdirAll(filepath.Join(root, ".orchestration", "state"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "acme.json"), []byte(acmeDesc), 0o644); err != nil {
		b.Fatal(err)
	}
	return root
}

// BenchmarkLoad times what a workspace agent's hook pays for its description
// on every call: a read and a parse.
func BenchmarkLoad(b *testing.B) {
	root := benchRoot(b)
	if _, err := Load(root, "acme"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(root, "acme"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse([]byte(acmeDesc)); err != nil {
			b.Fatal(err)
		}
	}
}
