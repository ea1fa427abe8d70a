package hookconfig

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestMatches(t *testing.T) {
	tests := []struct {
		matcher, name string
		want          bool
	}{
		{"", "Write", true},
		{"*", "Bash", true},
		{"Write", "Write", true},
		{"Write", "write", false}, // case-sensitive
		{"Write|Edit", "Edit", true},
		{"Write|Edit", "NotebookEdit", false}, // exact names, not substrings
		{"Write, Edit", "Edit", true},         // ',' separates too; spaces trimmed
		{"Write,Edit", "MultiEdit", false},
		{"mcp__memory__create-entity", "mcp__memory__create-entity", true},
		{"Edit.*", "NotebookEdit", true}, // a regexp, unanchored
		{"Edit.*", "Edit", true},
		{"^Edit$", "NotebookEdit", false},
		{"Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell|select_active_intent|mcp__.*__select_active_intent", "Bash", true},
		{"Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell|select_active_intent|mcp__.*__select_active_intent", "Read", false},
		{"Write|Ed", "Edit", false},
		{"(", "Write", false}, // does not compile: selects nothing
		{"startup|resume|clear|compact", "compact", true},
		{"startup", "resume", false},
	}
	for _, tt := range tests {
		if got := Matches(tt.matcher, tt.name); got != tt.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tt.matcher, tt.name, got, tt.want)
		}
	}
}

func TestParseCommandSubcommand(t *testing.T) {
	env := map[string]string{"CLAUDE_PROJECT_DIR": "/p r/oj"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		command, program, sub string
		ok                    bool
	}{
		{"intenthook pre", "intenthook", "pre", true},
		{"  intenthook   post ", "intenthook", "post", true},
		{`"$CLAUDE_PROJECT_DIR"/bin/intenthook context`, "/p r/oj/bin/intenthook", "context", true},
		{"/usr/local/bin/intenthook --root . pre", "/usr/local/bin/intenthook", "pre", true},
		{"intenthook --explain pre", "intenthook", "pre", true},
		{"INTENTHOOK_DISABLE=0 intenthook pre", "intenthook", "pre", true},
		{`C:\tools\intenthook.exe pre`, `C:\tools\intenthook.exe`, "pre", true},
		{`'C:\tools\intenthook.exe' pre`, `C:\tools\intenthook.exe`, "pre", true},
		{FromRoot + " post --agent codex", NPMBinary, "post", true},
		{LegacySearchUp + " post --agent codex", NPMLink, "post", true},
		{"sh -c 'exec intenthook \"$@\"' intenthook pre", "sh", "", true},
		{"other-tool pre", "other-tool", "", true},
		{"intenthook-wrapper pre", "intenthook-wrapper", "", true},
		{"intenthook", "intenthook", "", true},
		{"intenthook pre && echo done", "", "", false},
		{"$(which intenthook) pre", "", "", false},
		{"intenthook pre |", "", "", false},
	}
	for _, tt := range tests {
		inv, ok := ParseCommand(tt.command, getenv)
		if ok != tt.ok || inv.Program != tt.program || inv.Subcommand() != tt.sub {
			t.Errorf("ParseCommand(%q) = %q %q %v, want %q %q %v", tt.command, inv.Program, inv.Subcommand(), ok, tt.program, tt.sub, tt.ok)
		}
	}
}

func TestDecodeEncodeKeepsOrderAndValues(t *testing.T) {
	in := `{
  "zeta": 1,
  "alpha": {"b": [1, 2.50, "x<y>&z"], "a": null},
  "model": "opus",
  "flag": true,
  "big": 12345678901234567890
}`
	o, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := o.Keys(); !reflect.DeepEqual(got, []string{"zeta", "alpha", "model", "flag", "big"}) {
		t.Errorf("keys = %v", got)
	}
	out, err := Encode(o)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "zeta": 1,
  "alpha": {
    "b": [
      1,
      2.50,
      "x<y>&z"
    ],
    "a": null
  },
  "model": "opus",
  "flag": true,
  "big": 12345678901234567890
}
`
	if string(out) != want {
		t.Errorf("Encode =\n%s\nwant\n%s", out, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, in := range []string{`[]`, `"x"`, `{"a":1} {}`, `{"a":}`, `{`} {
		if _, err := Decode([]byte(in)); err == nil {
			t.Errorf("Decode(%q): no error", in)
		}
	}
	if o, err := Decode([]byte(" \n")); err != nil || len(o.Keys()) != 0 {
		t.Errorf("Decode(blank) = %v, %v; want an empty object", o, err)
	}
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name      string
		settings  string
		wantAdded []string // events
		wantErr   string
	}{
		{name: "empty", settings: `{}`, wantAdded: []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "SessionStart", "UserPromptSubmit"}},
		{name: "other hooks kept", settings: `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"lint-shell"}]}]}}`,
			wantAdded: []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "SessionStart", "UserPromptSubmit"}},
		{name: "ours by another path, any matcher", settings: `{"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/bin/intenthook pre"}]}],
			"PostToolUse":[{"hooks":[{"type":"command","command":"intenthook post"}]}],"PostToolUseFailure":[{"hooks":[{"type":"command","command":"intenthook post"}]}]}}`,
			wantAdded: []string{"SessionStart", "UserPromptSubmit"}},
		{name: "post under pre's event does not count", settings: `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"intenthook post"}]}]}}`,
			wantAdded: []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "SessionStart", "UserPromptSubmit"}},
		{name: "null hooks", settings: `{"hooks":null,"SessionStart":null}`,
			wantAdded: []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "SessionStart", "UserPromptSubmit"}},
		{name: "null event", settings: `{"hooks":{"PreToolUse":null}}`,
			wantAdded: []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "SessionStart", "UserPromptSubmit"}},
		{name: "hooks not an object", settings: `{"hooks":[]}`, wantErr: `"hooks" is not an object`},
		{name: "event not a list", settings: `{"hooks":{"SessionStart":{}}}`, wantErr: `"hooks.SessionStart" is not a list`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Decode([]byte(tt.settings))
			if err != nil {
				t.Fatal(err)
			}
			added, err := Merge(o, testHooks())
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var events []string
			for _, h := range added {
				events = append(events, h.Event)
			}
			if !reflect.DeepEqual(events, tt.wantAdded) {
				t.Errorf("added %v, want %v", events, tt.wantAdded)
			}
			// Merging again adds nothing: the result is a fixed point.
			again, err := Merge(o, testHooks())
			if err != nil || len(again) != 0 {
				t.Errorf("second merge added %v, %v", again, err)
			}
			for _, h := range testHooks() {
				if len(Runs(o, h.Event, h.Subcommand, nil)) == 0 {
					t.Errorf("%s does not run intenthook %s after the merge", h.Event, h.Subcommand)
				}
			}
		})
	}
}

func TestMergeKeepsEverything(t *testing.T) {
	in := `{"model":"opus","permissions":{"allow":["Bash(go test:*)"]},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify 2>&1"}]}],
"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"guard","timeout":5}]}]},"zz":1}`
	o, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(o, testHooks()); err != nil {
		t.Fatal(err)
	}
	out, err := Encode(o)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	var orig map[string]any
	_ = json.Unmarshal([]byte(in), &orig)
	for _, k := range []string{"model", "permissions", "zz"} {
		if !reflect.DeepEqual(got[k], orig[k]) {
			t.Errorf("%s = %v, want %v", k, got[k], orig[k])
		}
	}
	hooks := got["hooks"].(map[string]any)
	if !reflect.DeepEqual(hooks["Stop"], orig["hooks"].(map[string]any)["Stop"]) {
		t.Errorf("Stop hooks changed: %v", hooks["Stop"])
	}
	pre := hooks["PreToolUse"].([]any)
	if len(pre) != 2 || !reflect.DeepEqual(pre[0], orig["hooks"].(map[string]any)["PreToolUse"].([]any)[0]) {
		t.Errorf("PreToolUse = %v, want the user's group first, then ours", pre)
	}
	if !strings.Contains(string(out), `"notify 2>&1"`) {
		t.Errorf("command escaped: %s", out)
	}
	if keys := o.Keys(); !reflect.DeepEqual(keys, []string{"model", "permissions", "hooks", "zz"}) {
		t.Errorf("key order %v", keys)
	}
}

// testHooks is a Claude-shaped wiring like the one init writes for Claude
// Code (the agent package keeps the real one in step with
// hooks.example.json).
func testHooks() []Hook {
	const tools = "Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell"
	return []Hook{
		{Event: "PreToolUse", Matcher: tools, Subcommand: "pre", Timeout: 10},
		{Event: "PostToolUse", Matcher: tools + "|Read", Subcommand: "post", Timeout: 10},
		{Event: "PostToolUseFailure", Matcher: tools + "|Read", Subcommand: "post", Timeout: 10},
		{Event: "SessionStart", Matcher: "startup|resume|clear|compact", Subcommand: "context", Timeout: 10},
		{Event: "UserPromptSubmit", Subcommand: "context", Args: "--agent claude", Timeout: 10},
	}
}

// TestMergeTwoMatchers: hooks of one event and subcommand with different
// matchers are added together, and a second merge adds neither.
func TestMergeTwoMatchers(t *testing.T) {
	hooks := []Hook{
		{Event: "PreToolUse", Matcher: "save-file", Subcommand: "pre"},
		{Event: "PreToolUse", Matcher: "mcp:.*", Subcommand: "pre"},
	}
	o, err := Decode([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	added, err := Merge(o, hooks)
	if err != nil || len(added) != 2 {
		t.Fatalf("first merge added %d (%v), want 2", len(added), err)
	}
	if got := len(Runs(o, "PreToolUse", "pre", nil)); got != 2 {
		t.Errorf("%d handlers run pre, want 2", got)
	}
	added, err = Merge(o, hooks)
	if err != nil || len(added) != 0 {
		t.Errorf("second merge added %d (%v), want 0", len(added), err)
	}
}

// FromRoot's command runs the binary of the workspace root's npm install,
// the nearest directory from the working directory up that holds the
// catalog, with the command's arguments; intenthook from PATH when that
// root has no npm install or there is no root. A binary planted below the
// root (src/node_modules/…, or npm's link) is never run.
func TestFromRootRunsTheRootsBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a POSIX shell command")
	}
	root := t.TempDir()
	onPath := t.TempDir()
	write := func(path, says string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh\necho "+says+" \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	catalog := func(dir string) {
		p := filepath.Join(root, dir, ".orchestration", "active_intents.yaml")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("active_intents: []\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	catalog("project")
	write(filepath.Join(root, "project", filepath.FromSlash(NPMBinary)), "project")
	// Planted below the root, and npm's link: neither is run.
	write(filepath.Join(root, "project", "src", filepath.FromSlash(NPMBinary)), "planted")
	write(filepath.Join(root, "project", "src", filepath.FromSlash(NPMLink)), "planted-link")
	write(filepath.Join(root, "project", filepath.FromSlash(NPMLink)), "link")
	if err := os.MkdirAll(filepath.Join(root, "project", "src", ".orchestration"), 0o755); err != nil {
		t.Fatal(err) // a directory without a catalog is no root
	}
	catalog("bare")
	write(filepath.Join(onPath, Program), "path")
	for _, tt := range []struct{ dir, want string }{
		{"project", "project pre --agent codex"},
		{"project/src/deep", "project pre --agent codex"},
		{"bare/src", "path pre --agent codex"},
		{"elsewhere", "path pre --agent codex"},
	} {
		dir := filepath.Join(root, filepath.FromSlash(tt.dir))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", "-c", FromRoot+" pre --agent codex")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PWD="+dir, "PATH="+onPath+string(os.PathListSeparator)+"/usr/bin:/bin")
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != tt.want {
			t.Errorf("from %s: %q %v, want %q", tt.dir, out, err, tt.want)
		}
	}
}

// The wiring an older intenthook wrote for an npm install is rewritten to
// run the package's own file; every other command is left as it is.
func TestMigrateCommand(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`"$CLAUDE_PROJECT_DIR"/node_modules/.bin/intenthook pre`, `"$CLAUDE_PROJECT_DIR"/node_modules/intenthook/bin/intenthook pre`},
		{`"$CURSOR_PROJECT_DIR"/node_modules/.bin/intenthook post --agent cursor`, `"$CURSOR_PROJECT_DIR"/node_modules/intenthook/bin/intenthook post --agent cursor`},
		{"./node_modules/.bin/intenthook pre --agent copilot", "./node_modules/intenthook/bin/intenthook pre --agent copilot"},
		{"node_modules/.bin/intenthook context", "node_modules/intenthook/bin/intenthook context"},
		{LegacySearchUp + " pre --agent codex", FromRoot + " pre --agent codex"},
		{"intenthook pre", ""},
		{`"$CLAUDE_PROJECT_DIR"/node_modules/intenthook/bin/intenthook pre`, ""},
		{"./node_modules/.bin/intenthook.cmd pre --agent copilot", ""},
		{"echo x; node_modules/.bin/intenthook pre", ""},
		{"other node_modules/.bin/intenthook pre", ""},
	} {
		got, ok := MigrateCommand(tt.in)
		if tt.want == "" {
			if ok || got != tt.in {
				t.Errorf("MigrateCommand(%q) = %q %v, want it left", tt.in, got, ok)
			}
			continue
		}
		if !ok || got != tt.want {
			t.Errorf("MigrateCommand(%q) = %q %v, want %q", tt.in, got, ok, tt.want)
		}
		inv, parsed := ParseCommand(tt.in, nil)
		if !parsed || !inv.RunsNPMLink() {
			t.Errorf("%q: RunsNPMLink false", tt.in)
		}
		if inv, _ := ParseCommand(got, nil); inv.RunsNPMLink() {
			t.Errorf("%q: RunsNPMLink true after the rewrite", got)
		}
	}
}
