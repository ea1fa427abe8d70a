package agent

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hook"
)

// TestSamples: every agent's sample edit (what make bench feeds its hook)
// decodes, through the agent's own Decode, as a PreToolUse write of the
// file in the session.
func TestSamples(t *testing.T) {
	root := "/w"
	for _, a := range All() {
		if a.Sample == nil {
			t.Errorf("%s: no sample event", a.Name)
			continue
		}
		ev, err := protocol.ParseObject(a.Sample(root, "src/a.go", "s1", "toolu_1"))
		if err != nil {
			t.Errorf("%s: sample is not one JSON object: %v", a.Name, err)
			continue
		}
		c, err := a.Decode(ev, hook.PreToolUse)
		if err != nil {
			t.Errorf("%s: %v", a.Name, err)
			continue
		}
		abs := slices.ContainsFunc(c.Paths, func(p string) bool { return p == "src/a.go" || filepath.ToSlash(p) == root+"/src/a.go" })
		if c.Event != hook.PreToolUse || c.Class != hook.ClassWrite || c.SessionID != "s1" || !abs {
			t.Errorf("%s: sample decodes as %s %s session %q paths %q", a.Name, c.Event, c.Class, c.SessionID, c.Paths)
		}
	}
}
