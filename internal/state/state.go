// Package state holds intenthook's machine state under .orchestration/state/:
// per-session files, the workspace default selection, sidecar locks and atomic
// rewrites. It knows nothing of intents or of the ledger's format; it only keeps
// event data from ever naming a path outside state/.
package state

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Dir names, relative to the workspace root.
const (
	OrchestrationDir = ".orchestration"
	StateDir         = ".orchestration/state"
)

// ErrLockTimeout is returned when a lock could not be taken within its timeout.
var ErrLockTimeout = errors.New("lock timeout")

// Key turns an event-supplied identifier (session id, agent id) into a file
// name that cannot leave its directory: the id itself when it is plainly safe,
// else "h-" and its sha256. An empty id becomes empty, for the caller to name.
func Key(id string) string {
	if id == "" {
		return ""
	}
	if safeName(id) {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "h-" + hex.EncodeToString(sum[:])
}

// safeName reports whether id matches ^[A-Za-z0-9._-]{1,128}$ and is not
// "." or "..": a name that stays inside its directory on every system.
func safeName(id string) bool {
	if len(id) == 0 || len(id) > 128 || id == "." || id == ".." {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Path joins the workspace root, the state directory and the given elements.
// Elements must be constants or Key results.
func Path(root string, elem ...string) string {
	return filepath.Join(append([]string{root, filepath.FromSlash(StateDir)}, elem...)...)
}

// Ensure creates state/ (with a .gitignore holding "*") and the given
// subdirectories on demand.
func Ensure(root string, subdirs ...string) error {
	dir := Path(root)
	if st, err := os.Lstat(dir); err == nil && !st.IsDir() {
		// Something else took state/'s place (a file, a link): move it
		// aside and rebuild. state/ only holds what can be rebuilt.
		aside := fmt.Sprintf("%s.broken-%d", dir, time.Now().UnixNano())
		if err := os.Rename(dir, aside); err != nil {
			return fmt.Errorf("state/ is not a directory and cannot be moved aside: %w", err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".gitignore")); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create state directory: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*\n"), 0o644); err != nil {
			return fmt.Errorf("create state/.gitignore: %w", err)
		}
	}
	for _, s := range subdirs {
		if err := os.MkdirAll(filepath.Join(dir, s), 0o755); err != nil {
			return fmt.Errorf("create state/%s: %w", s, err)
		}
	}
	return nil
}
