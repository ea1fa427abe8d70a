package doctor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/hookconfig"
	"github.com/intenthook/intenthook/internal/release"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/workspace"
)

// reinstallHint is how a person puts an npm install's binaries back.
const reinstallHint = "check that package.json names intenthook from the registry (no file:, link:, git or tarball source), then reinstall it from your own terminal: rm -rf node_modules/intenthook node_modules/@intenthook && npm ci (or npm install)"

// checkHookBinary checks the programs an npm install's hooks run against
// the checksums the platform package shipped (release.CheckInstalled). No
// npm install: no line. The check proves something only when doctor is a
// binary from outside the workspace: one the agent replaced would answer
// for itself.
func checkHookBinary(root string) []Check {
	const name = "hook binary"
	in, err := release.CheckInstalled(root)
	switch {
	case errors.Is(err, release.ErrNotInstalled):
		return nil
	case err != nil && len(in.Checked) == 0:
		return []Check{{Status: Warn, Name: name, Detail: err.Error(), Hint: "upgrade intenthook with npm from your own terminal: its platform package ships the checksums this check reads"}}
	case err != nil:
		return []Check{{Status: Fail, Name: name, Detail: err.Error(), Hint: reinstallHint}}
	}
	detail := strings.Join(in.Checked, ", ") + " are the files " + in.Platform + " shipped (" + release.ChecksumsFile + ")"
	if inside(root) {
		detail += "; checked by a binary inside this workspace, which a replaced one would imitate: run doctor with an intenthook from outside it to trust this"
	}
	return []Check{{Status: Pass, Name: name, Detail: detail}}
}

// checkHookReplaced reports a program the hooks run that an agent's
// command replaced and that is still as it left it: the hooks deny every
// call that may change anything (hook_replaced) until a person reinstalls.
func checkHookReplaced(root string) []Check {
	r, ok := guard.ReadReplaced(filepath.Join(root, filepath.FromSlash(workspace.HookReplacedFile)))
	if !ok {
		return nil
	}
	still := r.Still(root)
	if len(still) == 0 {
		return nil
	}
	return []Check{{Status: Fail, Name: "hook program",
		Detail: strings.Join(still, ", ") + " replaced during session " + safetext.Quote(r.Session) + "'s shell command `" + safetext.Quote(safetext.Clip(r.Command, 120)) + "` (" + r.At.UTC().Format("2006-01-02 15:04:05Z") + "): the hooks deny every call that may change anything (hook_replaced)",
		Hint:   reinstallHint}}
}

// inside reports whether the running binary lies under root.
func inside(root string) bool {
	exe, err := os.Executable()
	if err != nil {
		return true
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	rel, err := filepath.Rel(root, exe)
	return err == nil && filepath.IsLocal(rel)
}

// checkCommandForm says how agents and people run intenthook in this
// workspace, the form every text the hooks show names (full.Speak):
// intenthook on PATH, or, where npm installed it into the project only,
// npx --no-install intenthook, which runs npm's link to the package's
// binary (the hook performs a selection through it only while that link
// runs the package's own file).
func checkCommandForm(root string, env Env) []Check {
	const name = "command form"
	lookPath := env.LookPath
	if lookPath == nil {
		return nil
	}
	pkg := filepath.Join(root, filepath.FromSlash(hookconfig.NPMBinary))
	link := filepath.Join(root, filepath.FromSlash(hookconfig.NPMLink))
	_, pkgErr := os.Stat(pkg)
	if path, err := lookPath(hookconfig.Program); err == nil {
		detail := "intenthook is on PATH (" + safetext.Quote(path) + "): agents run `intenthook select <ID>`"
		if full.Invocation() == full.NPXForm {
			detail += "; the hooks run the npm package's binary and name `" + full.NPXForm + " select <ID>`, which works as well"
		}
		return []Check{{Status: Pass, Name: name, Detail: detail}}
	}
	if pkgErr != nil {
		return []Check{{Status: Warn, Name: name, Detail: "intenthook is on no PATH and not installed in this workspace's node_modules: agents cannot run `intenthook select <ID>`",
			Hint: "install it (docs/install.md): on PATH, or into the project with npm install --save-dev intenthook"}}
	}
	lst, lerr := os.Stat(link)
	pst, perr := os.Stat(pkg)
	if lerr != nil || perr != nil || !os.SameFile(lst, pst) {
		return []Check{{Status: Warn, Name: name, Detail: "intenthook is on no PATH, and npm's link " + hookconfig.NPMLink + " does not run " + hookconfig.NPMBinary + ": `" + full.NPXForm + " select <ID>` is refused; `" + hookconfig.NPMBinary + " select <ID>` works from the root",
			Hint: reinstallHint}}
	}
	return []Check{{Status: Pass, Name: name, Detail: "intenthook is on no PATH; npm installed it into this project: agents run `" + full.NPXForm + " select <ID>` (npm's link " + hookconfig.NPMLink + " runs " + hookconfig.NPMBinary + "), and the hooks' texts name that form"}}
}
