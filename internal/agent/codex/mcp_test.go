package codex

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHasServer(t *testing.T) {
	for _, tc := range []struct {
		name, toml string
		want       bool
	}{
		{"empty", "", false},
		{"table", "[mcp_servers.intenthook]\ncommand = \"x\"\n", true},
		{"spaced table", "[ mcp_servers.intenthook ]\n", true},
		{"quoted", "[mcp_servers.\"intenthook\"]\n", true},
		{"single quoted", "[mcp_servers.'intenthook']\n", true},
		{"sub-table only", "[mcp_servers.intenthook.env]\nA = \"1\"\n", true},
		{"dotted key", "mcp_servers.intenthook.command = \"x\"\n", true},
		{"inline table", "mcp_servers = { intenthook = { command = \"x\" } }\n", true},
		{"another server", "[mcp_servers.intenthook2]\ncommand = \"x\"\n", false},
		{"a prefix of it", "[mcp_servers.intent]\n", false},
		{"commented out", "# [mcp_servers.intenthook]\n", false},
		{"in a value", "[mcp_servers.docs]\nargs = [\"intenthook\"]\n", false},
	} {
		if got := hasServer(tc.toml, "intenthook"); got != tc.want {
			t.Errorf("%s: hasServer(%q) = %v, want %v", tc.name, tc.toml, got, tc.want)
		}
	}
}

func TestMCPCommand(t *testing.T) {
	for _, tc := range []struct {
		name, toml, want string
		registered       bool
	}{
		{"none", "model = \"m\"\n", "", false},
		{"ours", mcpTable, "intenthook-mcp", true},
		{"sub-table after", "[mcp_servers.intenthook]\ncommand = \"a\"\n[mcp_servers.intenthook.env]\ncommand = \"b\"\n", "a", true},
		{"another table's command", "[mcp_servers.intenthook]\nargs = []\n[mcp_servers.docs]\ncommand = \"docs\"\n", "", true},
	} {
		root := t.TempDir()
		if _, err := writeConfig(root, tc.toml); err != nil {
			t.Fatal(err)
		}
		got, registered := mcpCommand(root)
		if got != tc.want || registered != tc.registered {
			t.Errorf("%s: mcpCommand = %q, %v; want %q, %v", tc.name, got, registered, tc.want, tc.registered)
		}
	}
}

func writeConfig(root, text string) (string, error) {
	path := filepath.Join(root, filepath.FromSlash(ConfigFile))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, []byte(text), 0o644)
}
