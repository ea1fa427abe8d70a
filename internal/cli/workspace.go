package cli

import (
	"os"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/workspace"
)

// workspaceRoot applies the one root rule of people's commands: --root, or
// the working directory, walked up to the nearest governed root; an explicit
// --root that is not governed is an error, never replaced by the working
// directory's workspace.
func (a *app) workspaceRoot() (string, error) {
	wd, _ := os.Getwd()
	root, err := workspace.Locate(a.root, wd)
	if err != nil {
		return "", withHint(err, "run inside a governed workspace, or pass --root DIR (intenthook init makes one)")
	}
	return root, nil
}

// openWorkspace loads the workspace of a command a person runs.
func (a *app) openWorkspace() (*workspace.Workspace, error) {
	root, err := a.workspaceRoot()
	if err != nil {
		return nil, err
	}
	return workspace.Load(root, workspace.Governance(agent.Governance()), a.getenv, nowFunc)
}
