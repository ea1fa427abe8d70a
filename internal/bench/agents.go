package bench

import (
	"fmt"
	"os"
	"path/filepath"
)

// BashEvent is the bench session's Bash call of command, as PreToolUse or
// PostToolUse.
func BashEvent(ws, name, id, command string) []byte {
	resp := ""
	if name == "PostToolUse" {
		resp = `,"tool_response":{"stdout":"","stderr":"","interrupted":false}`
	}
	return fmt.Appendf(nil, `{"session_id":"bench","transcript_path":"/home/u/.claude/projects/bench/bench.jsonl","cwd":%q,"hook_event_name":%q,"tool_name":"Bash","tool_input":{"command":%q},"tool_use_id":%q%s}`,
		ws, name, command, id, resp)
}

// Files adds n small tracked files under gen/ to the workspace ws (for the
// large-repository workload).
func Files(ws string, n int) error {
	for i := 0; i < n; i++ {
		dir := filepath.Join(ws, "gen", fmt.Sprintf("d%03d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.txt", i)), fmt.Appendf(nil, "file %d\n", i), 0o644); err != nil {
			return err
		}
	}
	return nil
}
