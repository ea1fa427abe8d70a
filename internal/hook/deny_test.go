package hook

import "testing"

func TestDenyMessageShape(t *testing.T) {
	d := Denial{Code: "scope_violation", Headline: "a\nb", Why: "w", Instead: "i", Evidence: []string{Ev("path", "a b"), Ev("intent", "")}}.Decision()
	want := "intenthook: deny [scope_violation] a b\nwhy: w\ninstead: i\nevidence: path=\"a b\" intent=-"
	if d.Message != want || d.Verdict != Deny {
		t.Errorf("got %q", d.Message)
	}
}
