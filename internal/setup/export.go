package setup

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/state"
)

// exportBlock is what `init --export otlp` adds to config.yaml: in the
// fast subset the hooks read.
const exportBlock = `# intenthook export otlp (docs/otel.md): the ledger's records to an
# OpenTelemetry collector, started detached when a session ends. The
# standard OTEL_EXPORTER_OTLP_* variables win over these; headers (tokens)
# come from the environment only.
export:
  endpoint: http://localhost:4318
  protocol: http/protobuf
  when: session_end
`

// peopleBlock is what init writes into a new workspace's config.yaml.
const peopleBlock = `# People's own commits (docs/ci.md#peoples-commits): free, a commit no
# agent's process makes passes, its untraced changes listed and the commit
# marked Intenthook-Person for audit (warnings); scoped, every commit is
# judged as an agent's. A commit made with --no-verify can carry the mark
# forged: a team that needs every change bound to an intent says scoped.
people:
  commits: free
`

// writePeople adds the people block and the starter price table to a new
// workspace's config.yaml, unless it has a people block.
func writePeople(root string) (Change, error) {
	return appendBlock(root, "people", peopleBlock+"\n"+config.StarterPrices, "has a people: block",
		"people.commits: free: a person's own commits pass, marked Intenthook-Person; agents' commits are judged; prices: a dated starter table of list prices (check them)")
}

// appendBlock adds block, the top-level key key's, to config.yaml unless a
// line already starts it (then kept says so); note says what the block
// does.
func appendBlock(root, key, block, kept, note string) (Change, error) {
	path := filepath.Join(root, filepath.FromSlash(config.File))
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Change{}, err
	}
	c := Change{Path: config.File}
	for _, line := range bytes.Split(old, []byte("\n")) {
		if bytes.HasPrefix(line, []byte(key+":")) {
			c.Action, c.Note = Kept, kept
			return c, nil
		}
	}
	data := old
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	if len(data) > 0 {
		data = append(data, '\n')
	}
	data = append(data, block...)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Change{}, err
	}
	if err := state.WriteFile(path, data, modeOf(path, 0o644), true); err != nil {
		return Change{}, err
	}
	c.Action, c.Note = Created, note
	if len(old) > 0 {
		c.Action = Updated
	}
	return c, nil
}

// sessionEndWired are the agents whose end of session init wires to
// intenthook context, which starts the export.
var sessionEndWired = map[string]bool{"claude": true, "gemini": true, "codex": true, "qwen": true, "droid": true, "copilot": true}

// writeExport adds the export block to config.yaml, unless it has one.
func writeExport(root string, ag protocol.Agent) (Change, error) {
	c, err := appendBlock(root, "export", exportBlock, "has an export: block", "export: otlp at the end of each session")
	if err == nil && !sessionEndWired[ag.Name] {
		c.Notes = append(c.Notes, ag.Title+"'s end of session is not wired to intenthook context: run 'intenthook export otlp' by hand or from CI")
	}
	return c, err
}
