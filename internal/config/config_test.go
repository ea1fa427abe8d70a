package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, content string) string {
	t.Helper()
	root := t.TempDir()
	p := filepath.Join(root, File)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		content string // "" = no file
		env     []string
		check   func(*Config) bool
		wantErr string
		warn    string
	}{
		{name: "defaults", check: func(c *Config) bool {
			return c.FailMode == "open" && c.ProtectGovernanceFiles && c.Shell.Opaque == Ask && c.Shell.Backstop &&
				c.ContextBudgetBytes == 9500 && c.LockTimeout == 2*time.Second && c.StaleCheck && c.LessonsFile == ".orchestration/CLAUDE.md"
		}},
		{name: "settings override", content: "fail_mode: closed\nlock_timeout: 500ms\nshell: {destructive: deny, opaque: allow, backstop: false}\ntools: {mcp__db__query: write}\ncontext_budget_bytes: 4000\n",
			check: func(c *Config) bool {
				return c.Closed() && c.LockTimeout == 500*time.Millisecond && c.Shell.Destructive == Deny && c.Shell.Opaque == Allow &&
					!c.Shell.Backstop && c.Tools["mcp__db__query"] == "write" && c.ContextBudgetBytes == 4000
			}},
		{name: "env overrides fail mode", content: "fail_mode: open\n", env: []string{"INTENTHOOK_FAIL_MODE", "closed"}, check: func(c *Config) bool { return c.Closed() }},
		{name: "env ignored when bogus", env: []string{"INTENTHOOK_FAIL_MODE", "maybe"}, check: func(c *Config) bool { return !c.Closed() }},
		{name: "unknown key warns", content: "fail_mode: open\ncolour: blue\n", warn: `unknown setting "colour"`, check: func(c *Config) bool { return true }},
		{name: "bad value", content: "shell: {opaque: sometimes}\n", wantErr: `shell.opaque is "sometimes"`},
		{name: "people commits default", check: func(c *Config) bool { return c.People.Commits == CommitsScoped }},
		{name: "people commits free", content: "people:\n  commits: free\n", check: func(c *Config) bool { return c.People.Commits == CommitsFree }},
		{name: "people commits clamped", content: "people: {commits: open}\n", warn: `people.commits is "open", want free or scoped: scoped is used`,
			check: func(c *Config) bool { return c.People.Commits == CommitsScoped }},
		{name: "people commits not a string (yaml.v3)", content: "people: {commits: [free]}\n", wantErr: "cannot unmarshal"},
		{name: "ask default", check: func(c *Config) bool {
			return c.Ask.Via == AskHost && !c.Ask.Waits() && c.Ask.Timeout == 120*time.Second
		}},
		{name: "ask wait", content: "ask: {via: wait, timeout: 2s}\n", check: func(c *Config) bool { return c.Ask.Waits() && c.Ask.Timeout == 2*time.Second }},
		{name: "ask via console waits", content: "ask: {via: console}\n", check: func(c *Config) bool { return c.Ask.Via == AskConsole && c.Ask.Waits() }},
		{name: "ask via clamped", content: "ask: {via: browser}\n", warn: `ask.via is "browser", want host, wait or console: host is used`,
			check: func(c *Config) bool { return c.Ask.Via == AskHost }},
		{name: "ask timeout clamped low", content: "ask: {via: wait, timeout: 10ms}\n", warn: "ask.timeout 10ms is out of range 1s to 30m0s: 1s is used",
			check: func(c *Config) bool { return c.Ask.Waits() && c.Ask.Timeout == time.Second }},
		{name: "ask timeout clamped high", content: "ask:\n  via: wait\n  timeout: 5h\n", warn: "ask.timeout 5h0m0s is out of range 1s to 30m0s: 30m0s is used",
			check: func(c *Config) bool { return c.Ask.Timeout == 30*time.Minute }},
		{name: "delegation depth default", check: func(c *Config) bool { return c.Delegation.MaxDepth == 3 }},
		{name: "delegation depth", content: "delegation: {max_depth: 2}\n", check: func(c *Config) bool { return c.Delegation.MaxDepth == 2 }},
		{name: "delegation depth clamped low", content: "delegation: {max_depth: 0}\n", warn: "delegation.max_depth 0 is out of range 1 to 10: 1 is used",
			check: func(c *Config) bool { return c.Delegation.MaxDepth == 1 }},
		{name: "delegation depth clamped high", content: "delegation:\n  max_depth: 50\n", warn: "50 is out of range 1 to 10: 10 is used",
			check: func(c *Config) bool { return c.Delegation.MaxDepth == 10 }},
		{name: "delegation depth negative (yaml.v3)", content: "delegation: {max_depth: -4}\n", warn: "-4 is out of range",
			check: func(c *Config) bool { return c.Delegation.MaxDepth == 1 }},
		{name: "bad fail mode", content: "fail_mode: shut\n", wantErr: "fail_mode"},
		{name: "not a mapping", content: "- a\n- b\n", wantErr: "expected a mapping"},
		{name: "not yaml", content: "a: [\n", wantErr: File},
		{name: "bad tool class", content: "tools: {mcp__x__y: writer}\n", wantErr: `tools.mcp__x__y is "writer"`},
		{name: "zero budget", content: "context_budget_bytes: 0\n", wantErr: "context_budget_bytes must be between 512 and 10000"},
		{name: "budget past Claude Code's cut", content: "context_budget_bytes: 20000\n", wantErr: "context_budget_bytes must be between 512 and 10000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if tt.content != "" {
				root = write(t, tt.content)
			}
			c, err := Load(root, env(tt.env...))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if c == nil {
					t.Fatal("no config alongside the error: the fail mode would be unknown")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Errorf("config = %+v", c)
			}
			if tt.warn != "" && (len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], tt.warn)) {
				t.Errorf("warnings = %v", c.Warnings)
			}
		})
	}
}

// A broken config still tells the hook its fail mode from the environment.
func TestLoadErrorKeepsFailMode(t *testing.T) {
	root := write(t, "a: [\n")
	c, err := Load(root, env("INTENTHOOK_FAIL_MODE", "closed"))
	if err == nil || c == nil || !c.Closed() {
		t.Fatalf("c=%+v err=%v", c, err)
	}
}

// Bad values of the task graph's settings are clamped with a warning, never
// an error: an error would fail open.
func TestLoadClamps(t *testing.T) {
	tests := []struct {
		name, content string
		check         func(*Config) bool
		warning       string
	}{
		{"review default kept", "review: {default: none}\n", func(c *Config) bool { return c.Review.Default == "none" }, ""},
		{"review default clamped", "review: {default: later}\n", func(c *Config) bool { return c.Review.Default == "required" }, `review.default is "later"`},
		{"role path kept", "roles: {x: {paths: [src/**]}}\n", func(c *Config) bool { return len(c.Roles["x"].Paths) == 1 }, ""},
		{"role path left out", "roles: {x: {paths: [/etc/**, src/**]}}\n", func(c *Config) bool {
			return len(c.Roles["x"].Paths) == 1 && c.Roles["x"].Paths[0] == "src/**"
		}, `roles.x.paths: pattern "/etc/**" is not root-relative`},
		{"every role path left out denies", "roles: {x: {paths: ['../**']}}\n", func(c *Config) bool {
			return c.Roles["x"].Paths != nil && len(c.Roles["x"].Paths) == 0
		}, "left out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(write(t, tt.content), nil)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Errorf("settings %+v", c)
			}
			got := strings.Join(c.Warnings, "\n")
			if (tt.warning == "") != (got == "") || !strings.Contains(got, tt.warning) {
				t.Errorf("warnings %q, want %q", got, tt.warning)
			}
		})
	}
}
func TestExportClamped(t *testing.T) {
	tests := []struct {
		name, content string
		want          Export
		warnings      int
	}{
		{"absent", "", DefaultExport(), 0},
		{"set", "export:\n  endpoint: http://localhost:4318\n  protocol: grpc\n  records: all\n  when: stop\n  batch: 100\n  timeout: 3s\n",
			Export{Endpoint: "http://localhost:4318", Protocol: ProtocolGRPC, Records: RecordsAll, When: WhenStop, Batch: 100, Timeout: 3 * time.Second, ServiceName: "intenthook"}, 0},
		{"out of range", "export:\n  protocol: udp\n  records: mine\n  when: always\n  batch: 0\n  timeout: 1h\n",
			Export{Protocol: ProtocolProtobuf, Records: RecordsOwn, When: WhenNever, Batch: 1, Timeout: 5 * time.Minute, ServiceName: "intenthook"}, 5},
		{"huge batch", "export:\n  batch: 100000\n  timeout: 10ms\n",
			Export{Protocol: ProtocolProtobuf, Records: RecordsOwn, When: WhenNever, Batch: 10000, Timeout: time.Second, ServiceName: "intenthook"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if tt.content != "" {
				root = write(t, tt.content)
			}
			c, err := Load(root, nil)
			if err != nil {
				t.Fatalf("a bad export setting is an error: %v", err)
			}
			if c.Export != tt.want {
				t.Errorf("export = %+v, want %+v", c.Export, tt.want)
			}
			if len(c.Warnings) != tt.warnings {
				t.Errorf("warnings = %q, want %d", c.Warnings, tt.warnings)
			}
		})
	}
}
