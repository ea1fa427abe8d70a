package gate

import (
	"os"
	"path"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/shell"
	"github.com/intenthook/intenthook/internal/workspace"
)

// venvWriteWindow bounds the search for an agent's write of an activate script: the newest
// records of the ledger's newest files, as the stale check's who line reads them.
const venvWriteWindow = staleWhoWindow

// activations judges the activate scripts a command sources (source .venv/bin/activate): the
// script of a virtual environment inside the workspace, whose directory holds the pyvenv.cfg
// python -m venv and virtualenv write, and which no agent's write in the ledger touched, is
// the one the environment was made with; any other is a script file like any other sourced,
// and opaque.
func (g *Gate) activations(a *shell.Analysis) {
	for _, p := range a.Activates {
		why := g.activateUnknown(p)
		if why == "" {
			g.explain.step("shell", "venv", hook.Ev("script", p), "a virtual environment's own activate script")
			continue
		}
		g.explain.step("shell", "source", hook.Ev("script", p), why)
		a.Opaque = append(a.Opaque, "source runs a script file: "+p)
	}
	a.Activates = nil
}

// activateUnknown says why the activate script at p is not known to be its environment's
// own, or "" when it is.
func (g *Gate) activateUnknown(p string) string {
	res := g.resolver.Resolve(p)
	if res.Place != workspace.Inside {
		return "outside the workspace"
	}
	cfg := filepath.Join(filepath.Dir(filepath.Dir(res.Abs)), "pyvenv.cfg")
	if st, err := os.Stat(cfg); err != nil || !st.Mode().IsRegular() {
		return "no pyvenv.cfg beside its bin directory"
	}
	if st, err := os.Lstat(res.Abs); err != nil || !st.Mode().IsRegular() {
		return "not a regular file"
	}
	recs, err := ledger.ReadTailMentioning(g.Root, venvWriteWindow, res.Rel)
	if err != nil {
		return "the ledger cannot be read: " + err.Error()
	}
	for i := range recs {
		for _, f := range recs[i].Files {
			if path.Clean(f.Path) == res.Rel {
				return "an agent's write of it is recorded"
			}
		}
	}
	return ""
}
