package gate

import (
	"path/filepath"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/shell"
	"github.com/intenthook/intenthook/internal/workspace"
)

// GovernanceMissing answers a PreToolUse that found no governed root
// (Open's nil Gate) in a work tree init marked as governed whose catalog
// is gone (workspace.Missing): a program the shell parser could not read
// moved .orchestration/ away, or a person's checkout took it. Every call
// that may change anything is denied governance_missing, in either fail
// mode (the settings that name one left with the catalog); reads, exempt
// and unclassified tools and shell commands the analysis proves
// read-only pass, so that the agent can see what happened. ok is false
// for any other call: it stays ungoverned, as before. Only this path,
// never a governed call, reads the marker.
func GovernanceMissing(env *Env, call *hook.Call) (hook.Decision, bool) {
	if call.Event != hook.PreToolUse {
		return hook.Decision{}, false
	}
	switch call.Class {
	case hook.ClassRead, hook.ClassExempt, hook.ClassUnclassified, hook.ClassSelect:
		return hook.Decision{}, false
	case hook.ClassShell:
		if shell.Analyse(call.Command, nil).ReadOnly {
			return hook.Decision{}, false
		}
	}
	root := workspace.Missing(env.Root, env.projectDir(), call.Cwd, env.Wd)
	if root == "" {
		return hook.Decision{}, false
	}
	marker, _, _ := workspace.MarkerPath(root)
	explain := newExplainer(env.Explain)
	explain.step("governance", "missing", "root="+root+" is marked governed ("+marker+") and holds no catalog")
	explain.flush()
	return hook.Denial{
		Code:     hook.CodeGovernanceMissing,
		Headline: "the rules of this work tree are gone: " + workspace.Marker + " is missing under " + root + ", which intenthook init made governed",
		Why:      "without the catalog the hooks would read the work tree as ungoverned and allow everything, so every call that may change anything is refused, whatever the fail mode, until a person puts the rules back",
		Instead:  "stop, and ask the user to restore .orchestration/ from their own terminal (move it back, or git checkout -- .orchestration), or to run `intenthook uninstall` there to stop governing this work tree",
		Evidence: []string{hook.Ev("root", filepath.ToSlash(root)), hook.Ev("marker", filepath.ToSlash(marker)), hook.Ev("session", call.SessionID)},
	}.Decision(), true
}
