package shell

import (
	"slices"
	"testing"
)

// Package managers' commands that change node_modules: the words that
// name intenthook's packages, the ones that name a package by a local
// path, a tarball or a git URL, the ones the shell expands, and the
// commands that reinstall everything; other packages from a registry are
// nothing to report.
func TestPackageCalls(t *testing.T) {
	type want struct {
		command                string
		self, sources, unknown []string
		all                    bool
	}
	for _, tc := range []struct {
		cmd  string
		want []want
	}{
		{"npm install intenthook", []want{{command: "npm install", self: []string{"intenthook"}}}},
		{"npm i -D intenthook@latest", []want{{command: "npm i", self: []string{"intenthook@latest"}}}},
		{"npm install --save-dev @intenthook/linux-x64@1.2.3", []want{{command: "npm install", self: []string{"@intenthook/linux-x64@1.2.3"}}}},
		{"npm install ih@npm:intenthook@1", []want{{command: "npm install", self: []string{"ih@npm:intenthook@1"}}}},
		{"npm uninstall intenthook", []want{{command: "npm uninstall", self: []string{"intenthook"}}}},
		{"npm rm IntentHook", []want{{command: "npm rm", self: []string{"IntentHook"}}}},
		{"npm link intenthook", []want{{command: "npm link", self: []string{"intenthook"}}}},
		{"npm update intenthook", []want{{command: "npm update", self: []string{"intenthook"}}}},
		{"npm rebuild intenthook", []want{{command: "npm rebuild", self: []string{"intenthook"}}}},
		{"npm rebuild", []want{{command: "npm rebuild", all: true}}},
		{"npm rebuild esbuild", []want{{command: "npm rebuild"}}},
		{"npm ci", []want{{command: "npm ci", all: true}}},
		{"npm clean-install --ignore-scripts", []want{{command: "npm clean-install", all: true}}},
		{"npm --prefix web install intenthook", []want{{command: "npm install", self: []string{"intenthook"}}}},
		{"npm -w web install left-pad", []want{{command: "npm install"}}},
		{"npm install --tag intenthook left-pad", []want{{command: "npm install", self: []string{"intenthook"}}}},
		{"pnpm add -D intenthook", []want{{command: "pnpm add", self: []string{"intenthook"}}}},
		{"pnpm --filter web add intenthook", []want{{command: "pnpm add", self: []string{"intenthook"}}}},
		{"pnpm -C web remove @intenthook/darwin-arm64", []want{{command: "pnpm remove", self: []string{"@intenthook/darwin-arm64"}}}},
		{"yarn add intenthook", []want{{command: "yarn add", self: []string{"intenthook"}}}},
		{"yarn workspace web add intenthook", []want{{command: "yarn add", self: []string{"intenthook"}}}},
		{"yarn", []want{{command: "yarn"}}},
		{"bun add intenthook", []want{{command: "bun add", self: []string{"intenthook"}}}},
		{"bun remove intenthook", []want{{command: "bun remove", self: []string{"intenthook"}}}},
		{"corepack pnpm add intenthook", []want{{command: "pnpm add", self: []string{"intenthook"}}}},
		// Sources no registry vouches for.
		{"npm install --no-save --offline ./src/fmtpkg", []want{{command: "npm install", sources: []string{"./src/fmtpkg"}}}},
		{"npm i src/fmtpkg", []want{{command: "npm i", sources: []string{"src/fmtpkg"}}}},
		{"npm i ../fmt.tgz", []want{{command: "npm i", sources: []string{"../fmt.tgz"}}}},
		{"npm i https://example.com/fmt.tgz", []want{{command: "npm i", sources: []string{"https://example.com/fmt.tgz"}}}},
		{"npm i git+https://github.com/x/y.git", []want{{command: "npm i", sources: []string{"git+https://github.com/x/y.git"}}}},
		{"npm i x/y", []want{{command: "npm i", sources: []string{"x/y"}}}},
		{"npm i github:x/y", []want{{command: "npm i", sources: []string{"github:x/y"}}}},
		{"npm i fmt@file:../fmt", []want{{command: "npm i", sources: []string{"fmt@file:../fmt"}}}},
		{"npm i intenthook@file:./fork", []want{{command: "npm i", self: []string{"intenthook@file:./fork"}}}},
		{"npm link ../lib", []want{{command: "npm link", sources: []string{"../lib"}}}},
		{"pnpm add link:../lib", []want{{command: "pnpm add", sources: []string{"link:../lib"}}}},
		{"yarn add fmt@portal:../fmt", []want{{command: "yarn add", sources: []string{"fmt@portal:../fmt"}}}},
		{"bun add ./pkg.tgz", []want{{command: "bun add", sources: []string{"./pkg.tgz"}}}},
		{"npm uninstall ./src/fmtpkg", []want{{command: "npm uninstall"}}},
		{"npm i $PKG", []want{{command: "npm i", unknown: []string{"$PKG"}}}},
		// A registry install of another package: nothing to report.
		{"npm install left-pad", []want{{command: "npm install"}}},
		{"npm install @types/node@20 lodash@^4", []want{{command: "npm install"}}},
		{"npm install", []want{{command: "npm install"}}},
		{"npm link", []want{{command: "npm link"}}},
		// Through wrappers and shells.
		{"cd web && env CI=1 npm install intenthook", []want{{command: "npm install", self: []string{"intenthook"}}}},
		{"sh -c 'npm i ./x'", []want{{command: "npm i", sources: []string{"./x"}}}},
		// Not installs.
		{"npm test", nil},
		{"npm run build", nil},
		{"npm exec -- tsc", nil},
		{"echo npm install intenthook", nil},
		{"go test ./...", nil},
	} {
		got := PackageCalls(tc.cmd)
		if len(got) != len(tc.want) {
			t.Errorf("%q: %d calls %+v, want %d", tc.cmd, len(got), got, len(tc.want))
			continue
		}
		for i, w := range tc.want {
			g := got[i]
			if g.Command != w.command || !slices.Equal(g.Self, w.self) || !slices.Equal(g.Sources, w.sources) || !slices.Equal(g.Unknown, w.unknown) || g.All != w.all {
				t.Errorf("%q: %+v, want %+v", tc.cmd, g, w)
			}
		}
	}
}
