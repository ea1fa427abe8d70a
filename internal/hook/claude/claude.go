// Package claude speaks Claude Code's hook protocol (PROTOCOLS.md §1): it
// decodes an event into a hook.Call and encodes a hook.Decision as the exit
// code, stdout and stderr Claude Code expects. Exit 0 with JSON, or exit 2
// with stderr; never JSON with a non-zero exit.
package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/intenthook/intenthook/internal/hook"
)

// MaxEvent is the largest event accepted on stdin.
const MaxEvent = 16 << 20

// ErrBadInput marks stdin that is not one JSON object.
var ErrBadInput = errors.New("bad hook input")

// Read reads one event from r and decodes it.
func Read(r io.Reader) (*hook.Call, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxEvent+1))
	if err != nil {
		return nil, fmt.Errorf("%w: read stdin: %v", ErrBadInput, err)
	}
	if len(data) > MaxEvent {
		return nil, fmt.Errorf("%w: event larger than 16 MiB", ErrBadInput)
	}
	return Decode(data)
}

// Decode turns one event object into a Call. Every field is optional and a
// field of an unexpected type reads as absent: a hook must not break because
// an agent version changed a shape.
func Decode(data []byte) (*hook.Call, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: empty stdin, expected a JSON event", ErrBadInput)
	}
	var ev map[string]json.RawMessage
	if err := json.Unmarshal(data, &ev); err != nil || ev == nil {
		return nil, fmt.Errorf("%w: stdin is not a JSON object", ErrBadInput)
	}
	in := object(ev["tool_input"])
	resp := object(ev["tool_response"])
	c := &hook.Call{
		Event:          str(ev["hook_event_name"]),
		SessionID:      str(ev["session_id"]),
		AgentID:        str(ev["agent_id"]),
		TranscriptPath: str(ev["transcript_path"]),
		Cwd:            NativePath(str(ev["cwd"])),
		Model:          str(ev["model"]),
		Source:         str(ev["source"]),
		Prompt:         str(ev["prompt"]),
		ToolName:       str(ev["tool_name"]),
		ToolUseID:      str(ev["tool_use_id"]),
		Command:        str(in["command"]),
		IntentID:       str(in["intent_id"]),
		MutationClass:  str(in["mutation_class"]),
		Error:          str(ev["error"]),
	}
	if p := firstPath(in, resp); p != "" {
		c.Paths = []string{p}
	}
	decodeEdits(c, in)
	decodeResponse(c, resp)
	if c.Event == hook.PostToolUseFailure {
		c.Failed = true
	}
	return c, nil
}

func firstPath(in, resp map[string]json.RawMessage) string {
	for _, p := range []string{str(in["file_path"]), str(in["notebook_path"]), str(in["path"]), str(resp["filePath"])} {
		if p != "" {
			return NativePath(p)
		}
	}
	return ""
}

func decodeEdits(c *hook.Call, in map[string]json.RawMessage) {
	if s, ok := strOK(in["new_string"]); ok {
		c.NewStrings = append(c.NewStrings, s)
	}
	var edits []map[string]json.RawMessage
	if json.Unmarshal(in["edits"], &edits) == nil {
		for _, e := range edits {
			if s, ok := strOK(e["new_string"]); ok {
				c.NewStrings = append(c.NewStrings, s)
			}
		}
	}
}

func decodeResponse(c *hook.Call, resp map[string]json.RawMessage) {
	if resp == nil {
		return
	}
	var ok bool
	if json.Unmarshal(resp["success"], &ok) == nil && !ok {
		c.Failed = true
		if c.Error == "" {
			c.Error = str(resp["error"])
		}
	}
	if s, isStr := strOK(resp["originalFile"]); isStr {
		c.OriginalFile = &s
	}
	if s, isStr := strOK(resp["content"]); isStr {
		c.ResponseContent = &s
	}
	var hunks []struct {
		NewStart *int `json:"newStart"`
		NewLines *int `json:"newLines"`
	}
	if raw := resp["structuredPatch"]; raw != nil && json.Unmarshal(raw, &hunks) == nil {
		c.HasHunks = true
		for _, h := range hunks {
			if h.NewStart != nil && h.NewLines != nil {
				c.Hunks = append(c.Hunks, hook.Hunk{NewStart: *h.NewStart, NewLines: *h.NewLines})
			}
		}
	}
}

// NativePath converts a Windows-shaped path (C:\… or \\server\…) to /
// separators when intenthook runs on Windows. Everywhere else a backslash is
// an ordinary file name character: converting would make the hook check a
// path other than the one the tool writes ("C:\a\b/../x" is one directory
// name and "..", not three levels).
func NativePath(p string) string {
	return nativePath(p, runtime.GOOS)
}

func nativePath(p, goos string) string {
	if goos != "windows" {
		return p
	}
	windows := strings.HasPrefix(p, `\\`) ||
		(len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && isLetter(p[0]))
	if !windows {
		return p
	}
	return strings.ReplaceAll(p, `\`, "/")
}

func isLetter(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }

func object(raw json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

func str(raw json.RawMessage) string {
	s, _ := strOK(raw)
	return s
}

func strOK(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
