package full

import "testing"

// TestSpeak: the commands a text names to agents and people take the npx
// form; what only looks like one (the messages' "intenthook:" prefix, the
// other binaries, a path, a command already run by a runner, evidence that
// quotes what was run) keeps its words.
func TestSpeak(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"run `intenthook select <ID>`, then retry", "run `npx --no-install intenthook select <ID>`, then retry"},
		{"select another intent (intenthook select <ID>), or ask", "select another intent (npx --no-install intenthook select <ID>), or ask"},
		{"record it: intenthook lesson \"<text>\" --intent <ID>", "record it: npx --no-install intenthook lesson \"<text>\" --intent <ID>"},
		{"  intenthook select <ID>\n", "  npx --no-install intenthook select <ID>\n"},
		{"submit again with `intenthook submit INT-1`.", "submit again with `npx --no-install intenthook submit INT-1`."},
		{"see 'intenthook status'", "see 'npx --no-install intenthook status'"},
		{"intenthook: deny [intent_required] Write", "intenthook: deny [intent_required] Write"},
		{"intenthook-full select --clear", "intenthook-full select --clear"},
		{"node_modules/intenthook/bin/intenthook select X", "node_modules/intenthook/bin/intenthook select X"},
		{"run `npx --no-install intenthook select X`", "run `npx --no-install intenthook select X`"},
		{"run `npm exec --no -- intenthook select X`", "run `npm exec --no -- intenthook select X`"},
		{`evidence: command="intenthook select X" session=s1`, `evidence: command="intenthook select X" session=s1`},
		{"the intenthook hooks run", "the intenthook hooks run"},
		{"intenthook select A and intenthook submit A", "npx --no-install intenthook select A and npx --no-install intenthook submit A"},
	} {
		if got := speakAs(tc.in, NPXForm); got != tc.want {
			t.Errorf("speakAs(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	if got := Speak("run `intenthook select <ID>`"); got != "run `intenthook select <ID>`" {
		t.Errorf("a binary outside node_modules speaks the bare name, got %q", got)
	}
}
