package precommit

import (
	"sync"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/workspace"
)

// governance is the governance table commits are judged by: intenthook's,
// every agent's and git's rows (a commit may hold any agent's wiring). It
// is made once; callers must not change it.
var governance = sync.OnceValue(func() governed.Table { return workspace.Governance(agent.Governance()) })

// Listed says why a commit's change to rel is listed among its governance
// changes (a Listed row's reason); ok is false for any other path. Audit
// lists by it too.
func Listed(rel string) (reason string, ok bool) {
	return workspace.GovernanceChange(governance(), rel)
}

// Sidecar reports whether rel is a file intenthook keeps, which no scope
// judges (workspace.Sidecar, the lessons file in its default place).
func Sidecar(rel string) bool { return workspace.Sidecar(governance(), rel, "") }
