package bench

import (
	"fmt"
	"os"
	"path/filepath"
)

// AgentEvents returns, per agent, the PreToolUse event its hook receives for
// the bench session's in-scope edit of src/mod100/file.go in ws, in that
// agent's own shape: `make bench` times each agent's pre against the floor.
func AgentEvents(ws, id string) map[string][]byte {
	file := ws + "/src/mod100/file.go"
	return map[string][]byte{
		"claude":   Event(ws, "PreToolUse", id),
		"gemini":   fmt.Appendf(nil, `{"session_id":"bench","transcript_path":"/h/.gemini/tmp/chats/bench.jsonl","cwd":%q,"hook_event_name":"BeforeTool","timestamp":"2026-11-22T10:30:53.930Z","tool_name":"replace","tool_input":{"file_path":%q,"old_string":"x","new_string":"x"}}`, ws, file),
		"qwen":     fmt.Appendf(nil, `{"session_id":"bench","transcript_path":"/h/.qwen/chats/bench.jsonl","cwd":%q,"hook_event_name":"PreToolUse","permission_mode":"yolo","prompt_id":"bench########0","tool_name":"edit","tool_input":{"file_path":%q,"old_string":"x","new_string":"x"},"tool_use_id":%q,"tool_call_id":"call_0"}`, ws, file, id),
		"codex":    fmt.Appendf(nil, `{"session_id":"bench","turn_id":"t","transcript_path":"/h/sessions/bench.jsonl","cwd":%q,"hook_event_name":"PreToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: src/mod100/file.go\n@@\n-x\n+x\n*** End Patch"},"tool_use_id":%q}`, ws, id),
		"copilot":  fmt.Appendf(nil, `{"sessionId":"bench","timestamp":1795344033266,"cwd":%q,"toolName":"edit","toolArgs":{"path":%q,"old_str":"x","new_str":"x"}}`, ws, file),
		"droid":    fmt.Appendf(nil, `{"session_id":"bench","transcript_path":"/h/.factory/sessions/bench.jsonl","cwd":%q,"permission_mode":"auto-high","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":%q,"old_str":"x","new_str":"x"}}`, ws, file),
		"auggie":   fmt.Appendf(nil, `{"hook_event_name":"PreToolUse","conversation_id":"bench","workspace_roots":[%q],"tool_name":"str-replace-editor","tool_input":{"command":"str_replace","path":"src/mod100/file.go"},"tool_output":"[undefined]","tool_error":null,"is_mcp_tool":false}`, ws),
		"cursor":   fmt.Appendf(nil, `{"conversation_id":"bench","generation_id":%q,"hook_event_name":"preToolUse","cursor_version":"1.7.0","workspace_roots":[%q],"tool_name":"Edit","tool_input":{"file_path":%q}}`, id, ws, file),
		"windsurf": fmt.Appendf(nil, `{"agent_action_name":"pre_write_code","trajectory_id":"bench","execution_id":%q,"tool_info":{"file_path":%q,"edits":[{"old_string":"x","new_string":"x"}]}}`, id, file),
		"cline":    fmt.Appendf(nil, `{"clineVersion":"3.30.0","hookName":"PreToolUse","timestamp":"2026-11-22T10:00:00Z","taskId":"bench","workspaceRoots":[%q],"preToolUse":{"toolName":"replace_in_file","parameters":{"path":"src/mod100/file.go","diff":"x"}}}`, ws),
		"opencode": fmt.Appendf(nil, `{"cwd":%q,"hook_event_name":"PreToolUse","session_id":"bench","tool_use_id":%q,"tool_name":"edit","tool_input":{"filePath":%q,"oldString":"x","newString":"x"}}`, ws, id, file),
	}
}

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
