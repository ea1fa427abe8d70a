package cursor

import (
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hook"
)

func TestAllowed(t *testing.T) {
	if want := protocol.JSON(answer{Permission: "allow"}); allowed != want {
		t.Errorf("allowed = %q, the encoder gives %q", allowed, want)
	}
	if got := Encode(&hook.Call{Event: hook.PreToolUse}, hook.Decision{}, 1000); got.Stdout != allowed || got.Exit != 0 {
		t.Errorf("an allow answers %+v", got)
	}
}
