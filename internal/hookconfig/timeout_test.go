package hookconfig

import (
	"strings"
	"testing"
)

func TestRaiseTimeout(t *testing.T) {
	tests := []struct {
		name       string
		settings   string
		event, key string
		need       int
		unset      int
		raised     int
		want       string // in the encoded result
	}{
		{"a group's pre", `{"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"intenthook pre","timeout":10}]}]}}`,
			"PreToolUse", "timeout", 130, 600, 1, `"timeout": 130`},
		{"post is not touched", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"intenthook post","timeout":10}]}]}}`,
			"PreToolUse", "timeout", 130, 600, 0, `"timeout": 10`},
		{"another program is not touched", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"lint pre","timeout":10}]}]}}`,
			"PreToolUse", "timeout", 130, 600, 0, `"timeout": 10`},
		{"longer kept", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"intenthook pre","timeout":900}]}]}}`,
			"PreToolUse", "timeout", 130, 600, 0, `"timeout": 900`},
		{"unset, host default enough", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"intenthook pre"}]}]}}`,
			"PreToolUse", "timeout", 130, 600, 0, `"command": "intenthook pre"`},
		{"unset, host default short", `{"hooks":{"preToolUse":[{"type":"command","bash":"intenthook pre --agent copilot"}]}}`,
			"preToolUse", "timeoutSec", 130, 30, 1, `"timeoutSec": 130`},
		{"flat entry", `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"intenthook pre --agent copilot","timeoutSec":30}]}}`,
			"preToolUse", "timeoutSec", 130, 30, 1, `"timeoutSec": 130`},
		{"npm program", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/node_modules/intenthook/bin/intenthook pre","timeout":10}]}]}}`,
			"PreToolUse", "timeout", 130, 600, 1, `"timeout": 130`},
		{"a number as a string", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"intenthook pre","timeout":"10"}]}]}}`,
			"PreToolUse", "timeout", 130, 600, 1, `"timeout": 130`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Decode([]byte(tt.settings))
			if err != nil {
				t.Fatal(err)
			}
			if got := RaiseTimeout(s, tt.event, "pre", tt.key, tt.need, tt.unset); got != tt.raised {
				t.Errorf("raised %d, want %d", got, tt.raised)
			}
			out, _ := Encode(s)
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("settings lack %s:\n%s", tt.want, out)
			}
			for _, have := range Timeouts(s, tt.event, "pre", tt.key, tt.unset) {
				if tt.raised > 0 && have < tt.need {
					t.Errorf("a pre's timeout is %d after raising to %d", have, tt.need)
				}
			}
		})
	}
}
