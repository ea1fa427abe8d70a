package setup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/hookconfig"
	"github.com/intenthook/intenthook/internal/state"
)

// wireClaude merges intenthook's hooks into .claude/settings.json, keeping
// every key, hook and the order of keys. The file is rewritten only when a
// hook was added, so a second run leaves it byte for byte as it was.
func wireClaude(root string) (Change, error) {
	name := hookconfig.SettingsFile
	path := filepath.Join(root, filepath.FromSlash(name))
	data, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Change{}, err
	}
	settings, err := hookconfig.Decode(data)
	if err != nil {
		return Change{}, &ConflictError{Path: name, Reason: "not valid JSON: " + err.Error(),
			Hint: "fix " + name + " (or move it aside) and run intenthook init again"}
	}
	added, err := hookconfig.Merge(settings, hookconfig.Claude())
	if err != nil {
		return Change{}, &ConflictError{Path: name, Reason: err.Error(),
			Hint: "see hooks.example.json for the shape Claude Code expects"}
	}
	if len(added) == 0 {
		return Change{Kept, name, "the hooks are wired"}, nil
	}
	out, err := hookconfig.Encode(settings)
	if err != nil {
		return Change{}, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Change{}, err
	}
	if err := state.WriteFile(path, out, modeOf(path, 0o644), true); err != nil {
		return Change{}, err
	}
	action := Created
	if existed {
		action = Updated
	}
	return Change{action, name, "added " + describe(added)}, nil
}

func describe(hooks []hookconfig.Hook) string {
	parts := make([]string, len(hooks))
	for i, h := range hooks {
		parts[i] = fmt.Sprintf("%s: %s", h.Event, h.Command())
	}
	return strings.Join(parts, ", ")
}
