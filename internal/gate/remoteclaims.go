package gate

import (
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/selection"
)

// renewClaim starts, detached, the renewal of the claim on claims.remote
// of the intent the call's agent works under when it is near its expiry
// (selection.RenewDue): with claims.remote off it reads nothing.
func renewClaim(g *Gate) {
	if g.Config.Claims.Remote == "" {
		return
	}
	if selection.RenewDue(g.Workspace, g.session, g.call.AgentID, g.env.now()) {
		id, _ := g.activeIntent()
		g.explain.step("claims", "renew", hook.Ev("intent", id), "on the remote "+g.Config.Claims.Remote)
	}
}
