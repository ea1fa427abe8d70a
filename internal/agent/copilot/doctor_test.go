package copilot

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
)

func TestCheckPromptMode(t *testing.T) {
	for v, want := range map[string]protocol.Status{"": protocol.Warn, "0": protocol.Warn, "false": protocol.Warn, "OFF": protocol.Warn, "1": protocol.Pass, "true": protocol.Pass} {
		got := checkPromptMode(func(k string) string {
			if k == PromptModeVar {
				return v
			}
			return ""
		})
		if got.Status != want {
			t.Errorf("%s=%q: %s, want %s", PromptModeVar, v, got.Status, want)
		}
	}
	if got := checkPromptMode(nil); got.Status != protocol.Warn {
		t.Errorf("no environment: %s, want a warning", got.Status)
	}
}

// TestPluginHooks: a plugin's hooks file (beside its plugin.json) that
// runs intenthook is found in the workspace and under the Copilot home;
// one with no plugin.json, or one not running intenthook, is not.
func TestPluginHooks(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ours := `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"intenthook pre --agent copilot"}]}}`
	write(filepath.Join(root, ".github/plugin/plugin.json"), `{"name":"a"}`)
	write(filepath.Join(root, ".github/plugin/hooks.json"), ours)
	write(filepath.Join(root, "tools/hooks.json"), ours) // no plugin.json
	write(filepath.Join(home, "installed-plugins/m/p/plugin.json"), `{"name":"p"}`)
	write(filepath.Join(home, "installed-plugins/m/p/hooks/hooks.json"), ours)
	write(filepath.Join(home, "installed-plugins/q/plugin.json"), `{"name":"q"}`)
	write(filepath.Join(home, "installed-plugins/q/hooks.json"), `{"version":1,"hooks":{}}`)
	got := pluginHooks(root, func(k string) string {
		if k == "COPILOT_HOME" {
			return home
		}
		return ""
	})
	want := []string{filepath.Join(root, ".github/plugin/hooks.json"), filepath.Join(home, "installed-plugins/m/p/hooks/hooks.json")}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("missing %s in %q", w, got)
		}
	}
}
