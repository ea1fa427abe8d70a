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

func TestAddLocalHook(t *testing.T) {
	item := func(indent, nl string) string {
		return indent + "- repo: local" + nl +
			indent + "  hooks:" + nl +
			indent + "    - id: intenthook" + nl +
			indent + "      name: intenthook precommit" + nl +
			indent + "      entry: intenthook precommit" + nl +
			indent + "      language: system" + nl +
			indent + "      pass_filenames: false" + nl +
			indent + "      always_run: true" + nl
	}
	remote := "  - repo: https://github.com/psf/black\n    rev: 24.1.0  # pinned\n    hooks:\n      - id: black\n"
	for _, tc := range []struct {
		name, in, want string
		err            bool
	}{
		{"last key", "repos:\n" + remote, "repos:\n" + remote + item("  ", "\n"), false},
		{"a key after the list", "# lint\nrepos:\n" + remote + "\n# what runs when\ndefault_stages: [pre-commit]\n",
			"# lint\nrepos:\n" + remote + item("  ", "\n") + "\n# what runs when\ndefault_stages: [pre-commit]\n", false},
		{"items at column 0", "repos:\n- repo: local\n  hooks:\n  - id: x\n    entry: make lint\nfail_fast: true\n",
			"repos:\n- repo: local\n  hooks:\n  - id: x\n    entry: make lint\n" + item("", "\n") + "fail_fast: true\n", false},
		{"no final line break", "repos:\n  - repo: meta\n    hooks:\n      - id: identity", "repos:\n  - repo: meta\n    hooks:\n      - id: identity\n" + item("  ", "\n"), false},
		{"crlf", "repos:\r\n  - repo: meta\r\n    hooks:\r\n      - id: identity\r\n", "repos:\r\n  - repo: meta\r\n    hooks:\r\n      - id: identity\r\n" + item("  ", "\r\n"), false},
		{"an empty list", "repos:\n", "repos:\n" + item("  ", "\n"), false},
		{"no repos", "minimum_pre_commit_version: '3.0'\n", "minimum_pre_commit_version: '3.0'\nrepos:\n" + item("  ", "\n"), false},
		{"flow list", "repos: []\n", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := AddLocalHook([]byte(tc.in), "intenthook precommit")
			if (err != nil) != tc.err {
				t.Fatalf("err = %v", err)
			}
			if !tc.err && string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if !tc.err && !ConfigRunsIntenthook(got) {
				t.Errorf("ConfigRunsIntenthook(result) = false")
			}
		})
	}
}

func TestConfigRunsIntenthook(t *testing.T) {
	for in, want := range map[string]bool{
		"repos:\n  - repo: local\n    hooks:\n      - id: scope\n        entry: intenthook precommit --strict\n":            true,
		"repos:\n  - repo: https://github.com/intenthook/intenthook\n    rev: v0.1.0\n    hooks:\n      - id: intenthook\n": true,
		"repos:\n  - repo: local\n    hooks:\n      - id: 'intenthook'\n":                                                   true,
		"repos:\n  - repo: local\n    hooks:\n      - id: intenthook-lint\n        entry: make lint\n":                      false,
		"# entry: intenthook precommit\nrepos: []\n":                                                                        false,
	} {
		if got := ConfigRunsIntenthook([]byte(in)); got != want {
			t.Errorf("ConfigRunsIntenthook(%q) = %v, want %v", in, got, want)
		}
	}
}
