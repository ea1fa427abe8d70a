// Package transcript reads what intenthook needs from an agent's
// conversation transcript (a JSONL file the agent names in its events):
// the model of the newest assistant message, for sessions whose events do
// not carry it (Claude Code's -p runs), read from a bounded tail; and the
// tokens spent since a mark kept in the session's state (Usage), read from
// the bytes appended since, bounded too. It never reads a whole file, and
// returns only model and message ids of a safe shape.
package transcript

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/intenthook/intenthook/internal/osfile"
)

// TailBytes bounds how much of a transcript's end is read.
const TailBytes = 64 << 10

// Model returns the model of the newest assistant message in the last
// TailBytes of the JSONL transcript at path, or "" when there is none, the
// file is not a regular .jsonl file, or the id has an unexpected shape.
func Model(path string) string {
	if !strings.HasSuffix(path, ".jsonl") {
		return ""
	}
	f, err := osfile.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return ""
	}
	off := max(st.Size()-TailBytes, 0)
	buf := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
		return ""
	}
	return lastModel(buf, off > 0)
}

// lastModel scans the lines of tail from the end; when cut, the first line
// is a fragment and is skipped.
func lastModel(tail []byte, cut bool) string {
	lines := bytes.Split(tail, []byte("\n"))
	if cut && len(lines) > 0 {
		lines = lines[1:]
	}
	for i := len(lines) - 1; i >= 0; i-- {
		line := lines[i]
		if !bytes.Contains(line, []byte(`"model"`)) || !bytes.Contains(line, []byte(`"assistant"`)) {
			continue
		}
		var entry struct {
			Type    string `json:"type"`
			Message struct {
				Role  string `json:"role"`
				Model string `json:"model"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &entry) != nil {
			continue
		}
		if (entry.Type == "assistant" || entry.Message.Role == "assistant") && safe(entry.Message.Model) {
			return entry.Message.Model
		}
	}
	return ""
}

// safe accepts model ids like claude-sonnet-4-5-20250929, gpt-5.5 or
// us.anthropic.claude-x:0; the synthetic marker Claude Code writes for its
// own messages is not a model.
func safe(m string) bool {
	if m == "" || len(m) > 100 || m == "<synthetic>" {
		return false
	}
	for _, r := range m {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("._:/-@", r):
		default:
			return false
		}
	}
	return true
}
