package claude

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

func settings(t *testing.T, s string) []protocol.SettingsDoc {
	t.Helper()
	doc, err := hookconfig.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return []protocol.SettingsDoc{{Name: ".claude/settings.json", Doc: doc}}
}

func TestCheckRequirement(t *testing.T) {
	pre := requirements()[0]
	session := requirements()[3]
	prompt := requirements()[4]
	tests := []struct {
		name   string
		json   string
		req    protocol.Requirement
		status protocol.Status
		detail string
	}{
		{"example wiring", `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell","hooks":[{"type":"command","command":"intenthook pre"}]}]}}`,
			pre, protocol.Pass, "intenthook pre for Write, Edit, MultiEdit, NotebookEdit, Bash, in .claude/settings.json"},
		{"no matcher is every tool", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"intenthook pre"}]}]}}`, pre, protocol.Pass, ""},
		{"star", `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"intenthook pre"}]}]}}`, pre, protocol.Pass, ""},
		{"regexp covers", `{"hooks":{"PreToolUse":[{"matcher":".*Edit|Write|Bash","hooks":[{"type":"command","command":"intenthook pre"}]}]}}`, pre, protocol.Pass, ""},
		{"split over two groups", `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"intenthook pre"}]},
			{"matcher":"MultiEdit,NotebookEdit,Bash","hooks":[{"type":"command","command":"/opt/bin/intenthook pre"}]}]}}`, pre, protocol.Pass, ""},
		{"missing tools", `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"intenthook pre"}]}]}}`,
			pre, protocol.Fail, `intenthook pre does not run for MultiEdit, NotebookEdit, Bash (matcher "Write|Edit")`},
		{"exact names are not substrings", `{"hooks":{"PreToolUse":[{"matcher":"Edit|Write|Bash|MultiEdit","hooks":[{"type":"command","command":"intenthook pre"}]}]}}`,
			pre, protocol.Fail, `intenthook pre does not run for NotebookEdit (matcher "Edit|Write|Bash|MultiEdit")`},
		{"another command's matcher does not count", `{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"intenthook pre"}]},{"matcher":"*","hooks":[{"type":"command","command":"lint"}]}]}}`,
			pre, protocol.Fail, `intenthook pre does not run for MultiEdit, NotebookEdit, Bash (matcher "Write|Edit")`},
		{"wrong subcommand", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"intenthook post"}]}]}}`, pre, protocol.Fail, "no handler runs intenthook pre"},
		{"not a command handler", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"prompt","command":"intenthook pre"}]}]}}`, pre, protocol.Fail, "no handler runs intenthook pre"},
		{"no hooks", `{}`, pre, protocol.Fail, "no handler runs intenthook pre"},
		{"sources", `{"hooks":{"SessionStart":[{"matcher":"startup|resume","hooks":[{"type":"command","command":"intenthook context"}]}]}}`,
			session, protocol.Fail, `intenthook context does not run for clear, compact (matcher "startup|resume")`},
		{"prompt has no matcher", `{"hooks":{"UserPromptSubmit":[{"matcher":"ignored","hooks":[{"type":"command","command":"intenthook context"}]}]}}`,
			prompt, protocol.Pass, "intenthook context in .claude/settings.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, _ := jsonCheck().Requirements(settings(t, tt.json), []protocol.Requirement{tt.req})
			c := cs[0]
			if c.Status != tt.status || (tt.detail != "" && c.Detail != tt.detail) {
				t.Errorf("got %s %q, want %s %q", c.Status, c.Detail, tt.status, tt.detail)
			}
			if c.Status == protocol.Fail && c.Hint == "" {
				t.Error("a failed check without a hint")
			}
		})
	}
}

func TestCheckCommands(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "intenthook")
	_ = os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	plain := filepath.Join(dir, "plain")
	_ = os.WriteFile(plain, []byte("x"), 0o644)
	onPath := func(name string) (string, error) {
		if name == "intenthook" {
			return "/usr/local/bin/intenthook", nil
		}
		return "", errors.New("not found")
	}
	notOnPath := func(string) (string, error) { return "", errors.New("not found") }
	handler := func(cmd string) hookconfig.Handler {
		inv, _ := hookconfig.ParseCommand(cmd, protocol.ProjectEnv(dir, []string{"CLAUDE_PROJECT_DIR"}, nil))
		return hookconfig.Handler{Command: cmd, Invocation: inv, Parsed: true}
	}
	tests := []struct {
		name   string
		cmds   []string
		look   func(string) (string, error)
		status protocol.Status
		detail string
	}{
		{"on PATH", []string{"intenthook pre", "intenthook post"}, onPath, protocol.Pass, "intenthook → /usr/local/bin/intenthook"},
		{"not on PATH", []string{"intenthook pre"}, notOnPath, protocol.Fail, "intenthook is not on PATH"},
		{"project dir expanded", []string{`"$CLAUDE_PROJECT_DIR"/intenthook pre`}, notOnPath, protocol.Pass, exe},
		{"missing file", []string{`"$CLAUDE_PROJECT_DIR"/bin/intenthook pre`}, onPath, protocol.Fail, filepath.Join(dir, "bin/intenthook") + " does not exist"},
		{"not executable", []string{plain + " pre"}, onPath, protocol.Fail, plain + " is not an executable file"},
		{"none", nil, onPath, protocol.Skip, "no intenthook hook configured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hs []hookconfig.Handler
			for _, c := range tt.cmds {
				hs = append(hs, handler(c))
			}
			c := protocol.CheckCommands("hook command", "Claude Code", dir, hs, tt.look)
			if c.Status != tt.status || c.Detail != tt.detail {
				t.Errorf("got %s %q, want %s %q", c.Status, c.Detail, tt.status, tt.detail)
			}
		})
	}
}

func TestDisabledHooks(t *testing.T) {
	for _, tt := range []struct {
		name, settings string
		env            string
		want           string
	}{
		{"disableAllHooks", `{"disableAllHooks": true}`, "", `"disableAllHooks": true`},
		{"settings env", `{"env": {"INTENTHOOK_DISABLE": "1"}}`, "", "INTENTHOOK_DISABLE=1 for every hook"},
		{"process env", `{}`, "1", "INTENTHOOK_DISABLE=1 in this environment"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := hookconfig.Decode([]byte(tt.settings))
			if err != nil {
				t.Fatal(err)
			}
			c, off := disabled([]protocol.SettingsDoc{{Name: ".claude/settings.json", Doc: doc}}, func(k string) string {
				if k == "INTENTHOOK_DISABLE" {
					return tt.env
				}
				return ""
			})
			if !off || c.Status != protocol.Fail || !strings.Contains(c.Detail, tt.want) || c.Hint == "" {
				t.Errorf("checkDisabled = %+v, %v", c, off)
			}
		})
	}
	doc, _ := hookconfig.Decode([]byte(`{"env": {"OTHER": "1"}, "disableAllHooks": false}`))
	if _, off := disabled([]protocol.SettingsDoc{{Name: "s", Doc: doc}}, func(string) string { return "" }); off {
		t.Error("enabled hooks reported as disabled")
	}
}

func jsonCheck() protocol.JSONCheck {
	return protocol.JSONCheck{Fix: "fix", Matches: hookconfig.Matches, Ours: Hooks()}
}

// TestHooksMatchExample keeps the wiring init writes in step with the
// hooks.example.json people copy by hand.
func TestHooksMatchExample(t *testing.T) {
	data, err := os.ReadFile("../../../hooks.example.json")
	if err != nil {
		t.Fatal(err)
	}
	example, err := hookconfig.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	fresh := &hookconfig.Object{}
	if _, err := hookconfig.Merge(fresh, Hooks()); err != nil {
		t.Fatal(err)
	}
	a, _ := hookconfig.Encode(example)
	b, _ := hookconfig.Encode(fresh)
	var x, y any
	_ = json.Unmarshal(a, &x)
	_ = json.Unmarshal(b, &y)
	if !reflect.DeepEqual(x, y) {
		t.Errorf("Hooks() wiring differs from hooks.example.json:\n%s\nwant\n%s", b, a)
	}
}

// TestSandboxHere: Claude Code's sandbox passes as runnable only where its
// programs are on PATH and bwrap runs; each other case names what is
// missing.
func TestSandboxHere(t *testing.T) {
	on := func(progs ...string) func(string) (string, error) {
		return func(p string) (string, error) {
			for _, q := range progs {
				if p == q {
					return "/usr/bin/" + p, nil
				}
			}
			return "", errors.New("not found")
		}
	}
	var ran []string
	runs := func(err error) func(string, ...string) error {
		return func(p string, args ...string) error {
			ran = append([]string{p}, args...)
			return err
		}
	}
	tests := []struct {
		name   string
		env    protocol.CheckEnv
		status protocol.Status
		detail string
	}{
		{"linux, all there", protocol.CheckEnv{GOOS: "linux", LookPath: on("bwrap", "socat"), Run: runs(nil)}, protocol.Pass, "bwrap /usr/bin/bwrap, socat /usr/bin/socat on PATH; bwrap --ro-bind / / true runs"},
		{"linux, no bwrap", protocol.CheckEnv{GOOS: "linux", LookPath: on("socat"), Run: runs(nil)}, protocol.Warn, "bwrap is not on PATH: "},
		{"linux, neither", protocol.CheckEnv{GOOS: "linux", LookPath: on(), Run: runs(nil)}, protocol.Warn, "bwrap is not on PATH, socat is not on PATH"},
		{"linux, bwrap fails", protocol.CheckEnv{GOOS: "linux", LookPath: on("bwrap", "socat"), Run: runs(errors.New("exit status 1: bwrap: No permissions to create new namespace"))}, protocol.Warn, "bwrap --ro-bind / / true fails here (exit status 1: bwrap: No permissions"},
		{"linux, nothing run", protocol.CheckEnv{GOOS: "linux", LookPath: on("bwrap", "socat")}, protocol.Skip, "bwrap was not run"},
		{"macOS", protocol.CheckEnv{GOOS: "darwin", LookPath: on("sandbox-exec")}, protocol.Pass, "sandbox-exec"},
		{"macOS without Seatbelt on PATH", protocol.CheckEnv{GOOS: "darwin", LookPath: on()}, protocol.Warn, "sandbox-exec (Seatbelt) is not on PATH"},
		{"Windows", protocol.CheckEnv{GOOS: "windows", LookPath: on("bwrap", "socat")}, protocol.Warn, "Linux and macOS only, not on windows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran = nil
			c := sandboxHere(tt.env)
			if c.Name != "claude sandbox here" || c.Status != tt.status || !strings.Contains(c.Detail, tt.detail) {
				t.Errorf("sandboxHere = %+v; want %s …%s…", c, tt.status, tt.detail)
			}
			if c.Status == protocol.Warn && c.Hint == "" {
				t.Errorf("a warning without a hint: %+v", c)
			}
			if ran != nil && strings.Join(ran, " ") != "/usr/bin/bwrap --ro-bind / / true" {
				t.Errorf("ran %q", ran)
			}
		})
	}
}
