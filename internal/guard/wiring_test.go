package guard

import (
	"testing"

	"github.com/intenthook/intenthook/internal/governed"
)

func TestRestoreWiring(t *testing.T) {
	keys := []string{"hooks", "disableAllHooks", "allowManagedHooksOnly"}
	for _, tc := range []struct{ name, before, after, want string }{
		{"only the wiring changed: the old bytes", "{\"hooks\": {\"PreToolUse\": []}}\n", `{"hooks":{}}`, "{\"hooks\": {\"PreToolUse\": []}}\n"},
		{"switch added beside a permission", `{}`, `{"disableAllHooks":true,"permissions":{"allow":["Bash(ls)"]}}`, "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(ls)\"\n    ]\n  }\n}\n"},
		{"hooks removed beside a permission", `{"hooks":{"Stop":[1]}}`, `{"permissions":{}}`, "{\n  \"hooks\": {\n    \"Stop\": [\n      1\n    ]\n  },\n  \"permissions\": {}\n}\n"},
		{"not JSON any more: the old bytes", `{"hooks":{}}`, `nope`, `{"hooks":{}}`},
	} {
		if got := string(restoreWiring([]byte(tc.before), []byte(tc.after), keys)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := string(restoreWiring([]byte(`{"hooksConfig":{"enabled":true},"a":1}`), []byte(`{"a":2}`), []string{"hooks", "hooksConfig"})); got != "{\n  \"a\": 2,\n  \"hooksConfig\": {\n    \"enabled\": true\n  }\n}\n" {
		t.Errorf("a row's key: got %q", got)
	}
}

// TestRewired: a change counts when it makes intenthook's hooks fire
// less, adds a hook or changes a row's key, whatever the file's shape.
func TestRewired(t *testing.T) {
	claude := &governed.Hooks{Keys: []string{"disableAllHooks", "allowManagedHooksOnly"}, Matchers: []string{"Write|Edit|Bash|mcp__.*"}}
	const ours = `{"permissions":{"allow":["Bash(ls)"]},"hooks":{"PreToolUse":[{"matcher":"Write|Edit|Bash|mcp__.*","hooks":[{"type":"command","command":"intenthook pre","timeout":10}]}],"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}`
	flat := &governed.Hooks{Keys: []string{"version"}}
	const cursor = `{"version":1,"hooks":{"beforeShellExecution":[{"command":"intenthook pre --agent cursor"}],"stop":[{"command":"notify"}]}}`
	const copilot = `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"intenthook pre --agent copilot","powershell":"intenthook pre --agent copilot","timeoutSec":30}]}}`
	const droid = `{"hooks":{"PreToolUse":[{"matcher":"Execute","hooks":[{"type":"command","command":"intenthook pre --agent droid"}]}]}}`
	for _, tc := range []struct {
		name          string
		spec          *governed.Hooks
		before, after string
		want          bool
	}{
		{"formatting and key order", claude, ours, `{"hooks":{"Stop":[{"hooks":[{"command":"notify","type":"command"}]}],"PreToolUse":[{"hooks":[{"timeout":10,"command":"intenthook pre","type":"command"}],"matcher":"Write|Edit|Bash|mcp__.*"}]},"permissions":{"allow":["Bash(ls)"]}}`, false},
		{"the rest of the file", claude, ours, `{"permissions":{"allow":["Bash(ls)","Bash(make)"]},"model":"x","hooks":{"PreToolUse":[{"matcher":"Write|Edit|Bash|mcp__.*","hooks":[{"type":"command","command":"intenthook pre","timeout":10}]}],"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}`, false},
		{"another hook taken out", claude, ours, `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit|Bash|mcp__.*","hooks":[{"type":"command","command":"intenthook pre","timeout":10}]}]}}`, false},
		{"matcher widened", claude, ours, `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"intenthook pre","timeout":10}]}],"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}`, false},
		{"matcher reordered", claude, ours, `{"hooks":{"PreToolUse":[{"matcher":"mcp__.*|Bash|Edit|Write","hooks":[{"type":"command","command":"intenthook pre","timeout":10}]}],"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}`, false},
		{"matcher without Bash", claude, ours, `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit|mcp__.*","hooks":[{"type":"command","command":"intenthook pre","timeout":10}]}],"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}`, true},
		{"matcher without MCP tools", claude, ours, `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit|Bash","hooks":[{"type":"command","command":"intenthook pre","timeout":10}]}],"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}`, true},
		{"our entry removed", claude, ours, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}`, true},
		{"our command changed", claude, ours, `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit|Bash|mcp__.*","hooks":[{"type":"command","command":"intenthook pre || true","timeout":10}]}],"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}`, true},
		{"our timeout changed", claude, ours, `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit|Bash|mcp__.*","hooks":[{"type":"command","command":"intenthook pre","timeout":1}]}],"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}`, true},
		{"our entry moved to another event", claude, ours, `{"hooks":{"PostToolUse":[{"matcher":"Write|Edit|Bash|mcp__.*","hooks":[{"type":"command","command":"intenthook pre","timeout":10}]}],"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}`, true},
		{"a hook planted", claude, ours, `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit|Bash|mcp__.*","hooks":[{"type":"command","command":"intenthook pre","timeout":10}]}],"Stop":[{"hooks":[{"type":"command","command":"notify"}]}],"SessionStart":[{"hooks":[{"type":"command","command":"sh evil.sh"}]}]}}`, true},
		{"a switch", claude, ours, `{"disableAllHooks":true,"hooks":{"PreToolUse":[{"matcher":"Write|Edit|Bash|mcp__.*","hooks":[{"type":"command","command":"intenthook pre","timeout":10}]}],"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}`, true},
		{"hooks not an object", claude, ours, `{"hooks":[]}`, true},
		{"not JSON", claude, ours, `{`, true},
		{"gone", claude, ours, ``, true},
		{"gone, without hooks", claude, `{"permissions":{}}`, ``, false},
		{"new, without hooks", claude, ``, `{"permissions":{}}`, false},
		{"new, with a switch", claude, ``, `{"disableAllHooks":true}`, true},
		{"new, with a hook", claude, ``, `{"hooks":{"Stop":[{"hooks":[{"command":"x"}]}]}}`, true},
		{"flat: another hook taken out", flat, cursor, `{"version":1,"hooks":{"beforeShellExecution":[{"command":"intenthook pre --agent cursor"}]}}`, false},
		{"flat: the command replaced", flat, cursor, `{"version":1,"hooks":{"beforeShellExecution":[{"command":"true"}],"stop":[{"command":"notify"}]}}`, true},
		{"flat: a matcher added to ours", flat, cursor, `{"version":1,"hooks":{"beforeShellExecution":[{"command":"intenthook pre --agent cursor","matcher":"^ls$"}],"stop":[{"command":"notify"}]}}`, true},
		{"flat: the version", flat, cursor, `{"version":2,"hooks":{"beforeShellExecution":[{"command":"intenthook pre --agent cursor"}],"stop":[{"command":"notify"}]}}`, true},
		{"copilot: a key of its own", flat, copilot, `{"description":"x","version":1,"hooks":{"preToolUse":[{"type":"command","bash":"intenthook pre --agent copilot","powershell":"intenthook pre --agent copilot","timeoutSec":30}]}}`, false},
		{"copilot: the bash command", flat, copilot, `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"true","powershell":"intenthook pre --agent copilot","timeoutSec":30}]}}`, true},
		{"droid: hooksDisabled", nil, droid, `{"hooks":{"hooksDisabled":true,"PreToolUse":[{"matcher":"Execute","hooks":[{"type":"command","command":"intenthook pre --agent droid"}]}]}}`, true},
		{"droid: commandRegex on our group", nil, droid, `{"hooks":{"PreToolUse":[{"matcher":"Execute","commandRegex":"^ls","hooks":[{"type":"command","command":"intenthook pre --agent droid"}]}]}}`, true},
	} {
		if got := rewired([]byte(tc.before), []byte(tc.after), tc.spec); got != tc.want {
			t.Errorf("%s: rewired = %v, want %v", tc.name, got, tc.want)
		}
	}
}
