package codex

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
)

// ConfigFile is Codex's project configuration layer (read in trusted
// projects).
const ConfigFile = ".codex/config.toml"

// Sandbox sets Codex's sandbox_mode to workspace-write in the project's
// configuration, so that shell commands write only in the workspace (and
// temp); a sandbox_mode already set is kept and reported. Codex's sandbox
// cannot make single files inside the workspace read-only: the governance
// files stay the backstop's and precommit's to guard.
func Sandbox(root string, _ []string) (protocol.Change, error) {
	path := filepath.Join(root, filepath.FromSlash(ConfigFile))
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return protocol.Change{}, err
	}
	if mode, ok := topLevel(string(data), "sandbox_mode"); ok {
		ch := protocol.Change{Action: protocol.Kept, Path: ConfigFile, Detail: "sandbox_mode = " + mode}
		if strings.Trim(mode, `"'`) == "danger-full-access" {
			ch.Notes = append(ch.Notes, "sandbox_mode is danger-full-access: shell commands are not sandboxed")
		}
		return ch, nil
	}
	line := "# Written by intenthook init --sandbox: shell commands write only in the workspace.\nsandbox_mode = \"workspace-write\"\n"
	action := protocol.Created
	if len(data) > 0 {
		action = protocol.Updated
		line += "\n"
	}
	// Top-level keys go before the first table.
	if err := protocol.WriteFile(path, append([]byte(line), data...)); err != nil {
		return protocol.Change{}, err
	}
	return protocol.Change{Action: action, Path: ConfigFile, Detail: `sandbox_mode = "workspace-write"`,
		Notes: []string{"Codex's sandbox confines writes to the workspace but cannot make the governance files inside it read-only: the backstop and precommit guard those"}}, nil
}

// topLevel finds key = value before the first [table] of a TOML text.
func topLevel(text, key string) (string, bool) {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			return "", false
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}
