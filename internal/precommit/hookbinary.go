package precommit

import (
	"errors"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/release"
	"github.com/intenthook/intenthook/internal/workspace"
)

// CodeHookBinary is the finding of a program the hooks run that is not the
// one intenthook's npm package shipped, or that an agent's command
// replaced: the hooks that recorded this work may not have been
// intenthook's.
const CodeHookBinary = "hook_binary"

// reinstallHint says how a person puts an npm install's binaries back.
const reinstallHint = "check that package.json names intenthook from the registry, then reinstall it from your own terminal: rm -rf node_modules/intenthook node_modules/@intenthook && npm ci"

// HookBinary checks the programs an npm install's hooks run against the
// checksums the platform package shipped (release.CheckInstalled), and
// finds one an agent's command replaced that is still as it left it (the
// hooks' note, guard.Replaced). Without an npm install it finds nothing.
// It means something only when precommit is a binary from outside the
// workspace: a replaced one answers for itself.
func HookBinary(root string) []Finding {
	var out []Finding
	note := filepath.Join(root, filepath.FromSlash(workspace.HookReplacedFile))
	if r, ok := guard.ReadReplaced(note); ok {
		for _, rel := range r.Still(root) {
			out = append(out, Finding{Error, CodeHookBinary, rel, "replaced during session " + r.Session + "'s shell command `" + r.Command + "`: the hooks deny every agent call that may change anything until a person reinstalls intenthook; " + reinstallHint})
		}
	}
	in, err := release.CheckInstalled(root)
	switch {
	case errors.Is(err, release.ErrNotInstalled):
	case err != nil && len(in.Checked) == 0:
		out = append(out, Finding{Warning, CodeHookBinary, release.NPMBinDir, err.Error() + "; the binaries the hooks run were not checked"})
	case err != nil:
		path := release.NPMBinDir
		if len(in.Bad) > 0 {
			path = in.Bad[0]
		}
		out = append(out, Finding{Error, CodeHookBinary, path, err.Error() + ": the hooks that recorded this work may not have been intenthook's; " + reinstallHint})
	}
	return out
}
