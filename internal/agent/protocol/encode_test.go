package protocol

import "testing"

// TestOutputJSON: the answer written field by field is what encoding/json
// writes for it, for every combination of its members.
func TestOutputJSON(t *testing.T) {
	texts := []string{"", "intenthook: deny [scope_violation] <x> & \"y\"\n\tz", "é\u2028\x01\xff"}
	var outs []output
	for _, a := range texts {
		for _, b := range texts {
			outs = append(outs,
				output{Decision: a, Reason: b},
				output{SystemMessage: a, HookSpecificOutput: &specific{HookEventName: "PreToolUse", PermissionDecision: b}},
				output{Decision: "block", Reason: a, SystemMessage: b, HookSpecificOutput: &specific{
					HookEventName: b, PermissionDecisionReason: a, AdditionalContext: b}},
				output{HookSpecificOutput: &specific{HookEventName: a, AdditionalContext: b}},
			)
		}
	}
	for _, o := range outs {
		if got, want := o.json(), JSON(o); got != want {
			t.Errorf("%+v:\n got %s\nwant %s", o, got, want)
		}
	}
}
