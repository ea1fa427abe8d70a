package githooks

import "testing"

func TestRead(t *testing.T) {
	const cmd = "intenthook precommit"
	for _, tc := range []struct {
		name    string
		script  string
		errexit bool
		runs    bool
		found   bool
		line    int
	}{
		{"exec", "#!/bin/sh\nexec intenthook precommit\n", false, true, true, 2},
		{"last", "#!/bin/sh\nmake lint\nintenthook precommit --strict\n", false, true, true, 3},
		{"last in a block", "#!/bin/sh\nif true; then\n\tintenthook precommit\nfi\n", false, true, true, 3},
		{"after exit", "#!/bin/sh\nmake lint\nexit 0\nintenthook precommit\n", false, false, true, 4},
		{"after exec", "#!/bin/sh\nexec make lint\nintenthook precommit\n", false, false, true, 3},
		{"exit inside a block", "#!/bin/sh\nif [ -n \"$SKIP\" ]; then\n\texit 0\nfi\nintenthook precommit\n", false, true, true, 5},
		{"status ignored", "#!/bin/sh\nintenthook precommit\nmake lint\n", false, false, true, 2},
		{"or true", "#!/bin/sh\nintenthook precommit || true\n", false, false, true, 2},
		{"in the background", "#!/bin/sh\nintenthook precommit &\n", false, false, true, 2},
		{"or true under set -e", "#!/bin/sh\nset -e\nintenthook precommit || true\nmake lint\n", false, false, true, 3},
		{"set -e", "#!/bin/sh\nset -eu\nintenthook precommit\nmake lint\n", false, true, true, 3},
		{"sh -e (husky)", "intenthook precommit\nmake lint\n", true, true, true, 1},
		{"or exit", "intenthook precommit || exit 1\nmake lint\n", false, true, true, 1},
		{"status kept", "intenthook precommit\nst=$?\nmake lint\nexit $st\n", false, true, true, 1},
		{"if not", "if ! intenthook precommit; then\n\texit 1\nfi\nmake lint\n", false, true, true, 1},
		{"a comment", "#!/bin/sh\n# intenthook precommit\nmake lint\n", false, false, false, 0},
		{"another word", "#!/bin/sh\nintenthook precommitted\n", false, false, false, 0},
		{"the chain", string(Chain("pre-commit", "intenthook precommit")), false, true, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Read([]byte(tc.script), cmd, tc.errexit)
			if v.Runs != tc.runs || v.Found != tc.found || tc.line != 0 && v.Line != tc.line {
				t.Errorf("Read = %+v, want runs %v found %v line %d", v, tc.runs, tc.found, tc.line)
			}
			if v.Found && !v.Runs && v.Why == "" {
				t.Error("no reason given")
			}
		})
	}
}
