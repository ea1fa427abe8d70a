package shell

import (
	"reflect"
	"testing"
)

// TestSelfRunners: a call of intenthook through a package runner carries
// the runner, where its search for node_modules/.bin starts, and whether it
// may download the package instead (the gate trusts none that may, and
// looks up the others); a call by a path carries the path.
func TestSelfRunners(t *testing.T) {
	sel := func(sc SelfCall) []SelfCall {
		if sc.Kind == 0 {
			sc.Kind = SelfSelect
		}
		if sc.Args == nil {
			sc.Args = []string{"select", "INT-001"}
		}
		return []SelfCall{sc}
	}
	for _, tc := range []struct {
		cmd  string
		want []SelfCall
	}{
		// npx and npm exec download what the project lacks unless told not to.
		{`npx intenthook select INT-001`, sel(SelfCall{Runner: "npx", Dir: ".", Fetches: true})},
		{`npx --yes intenthook select INT-001`, sel(SelfCall{Runner: "npx", Dir: ".", Fetches: true})},
		{`npx --no-install intenthook select INT-001`, sel(SelfCall{Runner: "npx", Dir: "."})},
		{`npx --no intenthook select INT-001`, sel(SelfCall{Runner: "npx", Dir: "."})},
		{`npx --yes=false intenthook select INT-001`, sel(SelfCall{Runner: "npx", Dir: "."})},
		{`npx --offline intenthook select INT-001`, sel(SelfCall{Runner: "npx", Dir: ".", Fetches: true})},
		{`npx --no-install -p intenthook intenthook select INT-001`, sel(SelfCall{Runner: "npx", Dir: ".", Fetches: true})},
		{`npx --no-install ./node_modules/intenthook/bin/intenthook select INT-001`, sel(SelfCall{Runner: "npx", Dir: ".", Fetches: true, Path: "./node_modules/intenthook/bin/intenthook"})},
		{`npx --no-install intenthook submit INT-001`, sel(SelfCall{Kind: SelfSubmit, Args: []string{"submit", "INT-001"}, Runner: "npx", Dir: "."})},
		{`npx --no-install intenthook intents list`, sel(SelfCall{Kind: SelfReadOnly, Args: []string{"intents", "list"}, Runner: "npx", Dir: "."})},
		{`npx --no-install intenthook select --clear --session s2`, sel(SelfCall{Kind: SelfLever, Args: []string{"select", "--clear", "--session", "s2"}, Runner: "npx", Dir: "."})},
		{`npm exec --no -- intenthook select INT-001`, sel(SelfCall{Runner: "npm exec", Dir: "."})},
		{`npm exec -- intenthook select INT-001`, sel(SelfCall{Runner: "npm exec", Dir: ".", Fetches: true})},
		{`npm x --no -- intenthook select INT-001`, sel(SelfCall{Runner: "npm x", Dir: "."})},
		{`npm --no exec -- intenthook select INT-001`, sel(SelfCall{Runner: "npm exec", Dir: "."})},
		{`npm --prefix sub exec --no -- intenthook select INT-001`, sel(SelfCall{Runner: "npm exec", Dir: "sub/."})},
		// pnpm exec and yarn exec never download; dlx always does.
		{`pnpm exec intenthook select INT-001`, sel(SelfCall{Runner: "pnpm exec", Dir: "."})},
		{`pnpm -C web exec intenthook select INT-001`, sel(SelfCall{Runner: "pnpm exec", Dir: "web/."})},
		{`pnpm -r exec intenthook select INT-001`, sel(SelfCall{Runner: "pnpm exec", Unplaced: true})},
		{`pnpm dlx intenthook select INT-001`, sel(SelfCall{Runner: "pnpm dlx", Dir: ".", Fetches: true})},
		{`pnpx intenthook select INT-001`, sel(SelfCall{Runner: "pnpx", Dir: ".", Fetches: true})},
		{`yarn exec intenthook select INT-001`, sel(SelfCall{Runner: "yarn exec", Dir: "."})},
		{`yarn dlx intenthook select INT-001`, sel(SelfCall{Runner: "yarn dlx", Dir: ".", Fetches: true})},
		{`bunx intenthook select INT-001`, sel(SelfCall{Runner: "bunx", Dir: ".", Fetches: true})},
		{`bunx --no-install intenthook select INT-001`, sel(SelfCall{Runner: "bunx", Dir: "."})},
		{`bun x --no-install intenthook select INT-001`, sel(SelfCall{Runner: "bun x", Dir: "."})},
		// Where the runner starts its search.
		{`cd src && npx --no-install intenthook select INT-001`, sel(SelfCall{Runner: "npx", Dir: "src/."})},
		{`cd "$D" && npx --no-install intenthook select INT-001`, sel(SelfCall{Runner: "npx", Unplaced: true})},
		// A script the runner runs finds intenthook the runner's way; nothing is downloaded.
		{`npx -c 'intenthook select INT-001'`, sel(SelfCall{Runner: "npx", Dir: "."})},
		{`npm exec --no -- env intenthook select INT-001`, sel(SelfCall{Runner: "npm exec", Dir: "."})},
		// By a path.
		{`node_modules/intenthook/bin/intenthook select INT-001`, sel(SelfCall{Path: "node_modules/intenthook/bin/intenthook"})},
		{`cd src && ../node_modules/.bin/intenthook select INT-001`, sel(SelfCall{Path: "src/../node_modules/.bin/intenthook"})},
		{`pnpm exec ./node_modules/intenthook/bin/intenthook select INT-001`, sel(SelfCall{Runner: "pnpm exec", Dir: ".", Path: "./node_modules/intenthook/bin/intenthook"})},
		// Plain: on PATH, as before.
		{`intenthook select INT-001`, sel(SelfCall{})},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			got := Analyse(tc.cmd, nil).Self
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Analyse(%q).Self\n got: %+v\nwant: %+v", tc.cmd, got, tc.want)
			}
		})
	}
}

// TestSelfRunnersWhole: a runner's select or submit that is the whole
// command is one the hook can perform (once the gate trusts the program).
func TestSelfRunnersWhole(t *testing.T) {
	for cmd, want := range map[string]string{
		`npx --no-install intenthook select INT-001`:   "INT-001",
		`npm exec --no -- intenthook select INT-002`:   "INT-002",
		`pnpm exec intenthook select INT-003`:          "INT-003",
		`npx --no-install intenthook select INT-1 | x`: "",
	} {
		if got := Analyse(cmd, nil).SelectID(); got != want {
			t.Errorf("SelectID(%q) = %q, want %q", cmd, got, want)
		}
	}
	if got := Analyse(`npx --no-install intenthook submit INT-004`, nil).SubmitID(); got != "INT-004" {
		t.Errorf("SubmitID = %q", got)
	}
}
