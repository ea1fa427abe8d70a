package gate

import (
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/selection"
)

// renewClaim starts, detached, the renewal of the session's claim on
// claims.remote when it is near its expiry (selection.RenewDue): with
// claims.remote off it reads nothing.
func renewClaim(g *Gate) {
	if g.Config.Claims.Remote == "" {
		return
	}
	if selection.RenewDue(g.Workspace, g.session, g.env.now()) {
		g.explain.step("claims", "renew", hook.Ev("intent", g.session.Intent), "on the remote "+g.Config.Claims.Remote)
	}
}
