package shell

import (
	"slices"
	"strings"
)

// Package installs: what npm, pnpm, yarn and bun are asked to put into node_modules. An npm
// install of intenthook runs the hooks from node_modules/intenthook, so an install, removal,
// link, update or rebuild that names intenthook (or its platform packages, @intenthook/*)
// changes the program every later hook is; and a package from a local path, a tarball or a git
// URL runs its install scripts and links its bin entries (a bin named intenthook, a package
// named intenthook) with nothing a registry vouches for. The caller decides what each is.

// PackageCall is one command of a package manager that installs, removes, links, updates or
// rebuilds packages.
type PackageCall struct {
	// Command is the manager and its subcommand as written: "npm install", "yarn" (yarn alone
	// installs).
	Command string
	// Text is the whole simple command as written, for messages.
	Text string
	// Self are the words that name intenthook or one of its platform packages.
	Self []string
	// Sources are the words that name a package by a local path, a tarball or a git URL.
	Sources []string
	// Unknown are the words the shell expands at run time: what they name cannot be told.
	Unknown []string
	// All says the command reinstalls every package of the project whatever its words name:
	// npm ci, and a rebuild that names none (every package's install step runs again).
	All bool
}

// PackageCalls finds every package manager command of cmd that installs, removes, links,
// updates or rebuilds packages, after the wrappers in front of it (env, sudo, sh -c, npx, …)
// are taken off. A command that names no package manager costs one substring scan.
func PackageCalls(cmd string) (found []PackageCall) {
	if !strings.Contains(cmd, "npm") && !strings.Contains(cmd, "yarn") && !strings.Contains(cmd, "bun") {
		return nil // pnpm contains npm
	}
	defer func() {
		if recover() != nil {
			found = nil
		}
	}()
	w := &walker{}
	w.onCall = func(c *call) {
		if pc, ok := packageCall(c); ok {
			found = append(found, pc)
		}
	}
	w.script(&frame{src: cmd}, "")
	return found
}

// manager says whether name is a package manager, and its options before
// or after its subcommand that take the next word as their value (the long
// ones also as --opt=value). A switch, not a map: a map literal is built by
// the package's initialiser on every hook's start, whatever the call.
func manager(name string) (short, long string, ok bool) {
	switch name {
	case "npm":
		return "wC", " prefix workspace registry cache userconfig globalconfig tag omit include install-strategy save-prefix loglevel before location otp script-shell node-options cpu os libc ", true
	case "pnpm":
		return "CF", " dir filter reporter store-dir virtual-store-dir registry loglevel config modules-dir lockfile-dir workspace-dir ", true
	case "yarn":
		return "", " cwd registry modules-folder cache-folder network-timeout mutex ", true
	case "bun":
		return "c", " cwd registry cache-dir backend config ", true
	}
	return "", "", false
}

// packageSub says what a manager's subcommand does to packages: install (names or, alone,
// the project's), remove, link, update, rebuild, or reinstall everything (ci).
type packageSub uint8

const (
	subNone packageSub = iota
	subInstall
	subRemove
	subLink
	subUpdate
	subRebuild
	subReinstall
)

func subcommand(manager, sub string) packageSub {
	switch manager {
	case "npm":
		switch sub {
		case "install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add", "install-test", "it":
			return subInstall
		case "ci", "clean-install", "ic", "install-clean", "isntall-clean", "install-ci-test", "cit":
			return subReinstall
		case "uninstall", "unlink", "remove", "rm", "r", "un":
			return subRemove
		case "link", "ln":
			return subLink
		case "update", "up", "upgrade", "udpate":
			return subUpdate
		case "rebuild", "rb":
			return subRebuild
		}
	case "pnpm":
		switch sub {
		case "add", "install", "i":
			return subInstall
		case "remove", "rm", "uninstall", "un":
			return subRemove
		case "link", "ln", "unlink":
			return subLink
		case "update", "up", "upgrade":
			return subUpdate
		case "rebuild", "rb":
			return subRebuild
		}
	case "yarn":
		switch sub {
		case "add", "install":
			return subInstall
		case "remove":
			return subRemove
		case "link", "unlink":
			return subLink
		case "upgrade", "up":
			return subUpdate
		}
	case "bun":
		switch sub {
		case "add", "a", "install", "i":
			return subInstall
		case "remove", "rm":
			return subRemove
		case "link", "unlink":
			return subLink
		case "update":
			return subUpdate
		}
	}
	return subNone
}

// packageCall reads one simple command as a package manager's, if it is one that changes
// node_modules.
func packageCall(c *call) (PackageCall, bool) {
	name, args := c.name, c.args
	if name == "corepack" && len(args) > 0 && args[0].literal {
		name, args = args[0].name, args[1:]
	}
	short, long, ok := manager(name)
	if !ok {
		return PackageCall{}, false
	}
	valued := func(a arg) bool {
		t := a.text
		switch {
		case strings.HasPrefix(t, "--"):
			return !strings.Contains(t, "=") && strings.Contains(long, " "+t[2:]+" ")
		case len(t) == 2 && t[0] == '-':
			return strings.IndexByte(short, t[1]) >= 0
		}
		return false
	}
	// Options before the subcommand; yarn workspace NAME and pnpm's -C DIR lead to it too.
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case !a.literal:
			return PackageCall{}, false // a subcommand the shell chooses: not one the text tells
		case a.text == "workspace" && name == "yarn" && i+1 < len(args):
			i += 2
			continue
		case strings.HasPrefix(a.text, "-"):
			if valued(a) {
				i++
			}
			i++
			continue
		}
		break
	}
	sub, rest := "", args[i:]
	if len(rest) > 0 {
		sub, rest = rest[0].text, rest[1:]
	}
	kind := subcommand(name, sub)
	if sub == "" && name == "yarn" {
		kind = subInstall // yarn alone installs the project's packages
	}
	if kind == subNone {
		return PackageCall{}, false
	}
	pc := PackageCall{Command: strings.TrimSpace(name + " " + sub), Text: c.text(), All: kind == subReinstall}
	operands := 0
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if !a.literal {
			if !strings.HasPrefix(a.raw, "-") {
				pc.Unknown = append(pc.Unknown, a.raw)
			}
			continue
		}
		if a.text == "--" {
			for _, b := range rest[j+1:] {
				pc.add(b, kind)
				operands++
			}
			break
		}
		if strings.HasPrefix(a.text, "-") && a.text != "-" {
			if valued(a) && j+1 < len(rest) {
				// Not a package, but a value that names one counts all the same.
				if b := rest[j+1]; b.literal && namesSelf(b.text) {
					pc.Self = append(pc.Self, b.raw)
				}
				j++
			}
			continue
		}
		pc.add(a, kind)
		operands++
	}
	if kind == subRebuild && operands == 0 {
		pc.All = true // every package's install step runs again, intenthook's among them
	}
	return pc, true
}

// add sorts one operand: intenthook's own packages, a package from somewhere no registry
// vouches for, or a word the shell expands.
func (pc *PackageCall) add(a arg, kind packageSub) {
	switch {
	case !a.literal:
		pc.Unknown = append(pc.Unknown, a.raw)
	case namesSelf(a.text):
		pc.Self = append(pc.Self, a.raw)
	case kind != subRemove && kind != subRebuild && localSource(a.text):
		pc.Sources = append(pc.Sources, a.raw)
	}
}

// namesSelf reports whether a package spec names intenthook or one of its platform packages:
// intenthook, intenthook@1.2.3, @intenthook/linux-x64, an alias of either (ih@npm:intenthook).
func namesSelf(spec string) bool {
	spec = strings.ToLower(spec)
	name, version := splitSpec(spec)
	if name == "intenthook" || strings.HasPrefix(name, "@intenthook/") {
		return true
	}
	if target, ok := strings.CutPrefix(version, "npm:"); ok {
		return namesSelf(target)
	}
	if target, ok := strings.CutPrefix(spec, "npm:"); ok {
		return namesSelf(target)
	}
	return false
}

// splitSpec splits name@version (a scope's @ is the name's).
func splitSpec(spec string) (name, version string) {
	at := strings.IndexByte(spec[min(1, len(spec)):], '@')
	if at < 0 {
		return spec, ""
	}
	at += min(1, len(spec))
	return spec[:at], spec[at+1:]
}

// sourcePrefixes are the spec forms that name a package by where it lies rather than by a
// registry's name: local directories and files, tarballs, git.
var sourcePrefixes = []string{".", "/", "~", "\\", "file:", "link:", "portal:", "workspace:", "git:", "git+", "git@", "ssh:", "github:", "gitlab:", "bitbucket:", "gist:", "http:", "https:"}

// localSource reports whether a package spec names a local path, a tarball or a git URL
// (npm's user/repo is GitHub's), itself or as the version of a name (x@file:../x).
func localSource(spec string) bool {
	lower := strings.ToLower(spec)
	if slices.ContainsFunc(sourcePrefixes, func(p string) bool { return strings.HasPrefix(lower, p) }) {
		return true
	}
	for _, ext := range []string{".tgz", ".tar.gz", ".tar"} {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	if len(lower) > 2 && lower[1] == ':' {
		return true // C:\pkg
	}
	name, version := splitSpec(lower)
	if strings.HasPrefix(name, "@") {
		if strings.Count(name, "/") != 1 {
			return true
		}
	} else if strings.Contains(name, "/") {
		return true // a directory, or GitHub's user/repo
	}
	if target, ok := strings.CutPrefix(version, "npm:"); ok {
		return localSource(target)
	}
	return strings.ContainsAny(version, "/:")
}
