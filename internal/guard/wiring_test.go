package guard

import "testing"

func TestRestoreWiring(t *testing.T) {
	for _, tc := range []struct{ name, before, after, want string }{
		{"only the wiring changed: the old bytes", "{\"hooks\": {\"PreToolUse\": []}}\n", `{"hooks":{}}`, "{\"hooks\": {\"PreToolUse\": []}}\n"},
		{"switch added beside a permission", `{}`, `{"disableAllHooks":true,"permissions":{"allow":["Bash(ls)"]}}`, "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(ls)\"\n    ]\n  }\n}\n"},
		{"hooks removed beside a permission", `{"hooks":{"Stop":[1]}}`, `{"permissions":{}}`, "{\n  \"hooks\": {\n    \"Stop\": [\n      1\n    ]\n  },\n  \"permissions\": {}\n}\n"},
		{"not JSON any more: the old bytes", `{"hooks":{}}`, `nope`, `{"hooks":{}}`},
	} {
		if got := string(restoreWiring([]byte(tc.before), []byte(tc.after))); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	a, _ := wiringOf([]byte(`{"permissions":{"allow":["x"]},"hooks":{"A":[]}}`))
	b, _ := wiringOf([]byte(`{"hooks": {"A": []}}`))
	if a != b {
		t.Errorf("the rest of the file changes the wiring: %q vs %q", a, b)
	}
	if c, _ := wiringOf([]byte(`{"hooks":{"A":[]},"allowManagedHooksOnly":true}`)); c == b {
		t.Error("allowManagedHooksOnly is not wiring")
	}
}
