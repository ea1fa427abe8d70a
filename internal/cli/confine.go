package cli

import (
	"io"
	"os"

	"github.com/intenthook/intenthook/internal/acceptance"
	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/confine"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/workspace"
)

// FullMain is intenthook-full's entry point: Main, after the re-executed
// helper that confines an intent's checks (confine.Arg), and with the
// checks confined where the kernel has Landlock. Only this binary sets
// acceptance.Confine (the helper is itself, re-executed) and
// acceptance.Reap.
func FullMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == confine.Arg {
		return confine.Main(args[1:], stderr)
	}
	// One command per process: the checks' process may take every child
	// it has when a check ends.
	acceptance.Reap = true
	if self, err := os.Executable(); err == nil && confine.Available() {
		acceptance.Isolate = confine.Isolate
		acceptance.Network = func(root string) string {
			if !checksOffline(root) {
				return ""
			}
			return confine.Network()
		}
		acceptance.Confine = func(root string) ([]string, bool, func()) {
			offline := checksOffline(root)
			dirs, files := confine.Writable(root, append(workspace.SandboxReadOnly(workspace.Governance(agent.Governance())), checksReadOnly(root)...))
			extra, held := confine.Outside(root, confine.Caches(os.Getenv))
			tmp, done := "", func() {}
			if held {
				// A workspace under temp: the check gets a temp directory
				// of its own instead.
				if d, err := os.MkdirTemp("", "intenthook-check-"); err == nil {
					tmp, done = d, func() { os.RemoveAll(d) }
				}
			}
			return append([]string{self}, confine.Args(append(dirs, extra...), files, tmp, offline, nil)...), offline, done
		}
	}
	return Main(args, stdin, stdout, stderr)
}

// checksOffline reports whether the checks of the workspace at root run
// off the network: unless its settings say checks.network: allow.
func checksOffline(root string) bool {
	cfg, err := config.Load(root, os.Getenv)
	return err != nil || cfg.Checks.Network != config.NetworkAllow
}

// checksReadOnly is what an intent's checks may not write beyond what an
// agent's sandbox keeps read-only: git's refs and its own ignore and
// attribute files (a check that moves a branch, or hides or re-attributes
// a path, changes what the next commit and audit see), and the ledger's
// writer file and active segment. git's index and objects stay writable:
// git status writes the index.
func checksReadOnly(root string) []string {
	ro := []string{".git/refs", ".git/packed-refs", ".git/info/attributes", ".git/info/exclude", ".gitignore", ".gitattributes", ledger.WriterFile}
	if seg := ledger.ActiveSegment(root); seg != "" {
		ro = append(ro, seg)
	}
	return ro
}
