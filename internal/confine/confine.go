// Package confine runs an intent's checks with the least rights they need
// (`intents verify`, `submit`): a check is code an agent may have written,
// and a person's command would otherwise run it with the person's rights.
//
// On Linux the check runs under Landlock: intenthook-full re-executes
// itself as `intenthook-full __confine --rw PATH… -- sh -c CHECK`, restricts
// itself and then executes the check, which inherits the restriction. It may
// read everything and write the workspace without its governance rows that
// are read-only in an agent's sandbox, temp and the named caches. The hook
// binary never links it (Landlock's library lives here, behind the
// companion's entry point). Elsewhere, or on a kernel without Landlock, the
// check runs unconfined and Describe says so.
package confine

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Arg is the first argument of intenthook-full's re-executed helper.
const Arg = "__confine"

// Writable lists what a check may write under root: every entry of the
// work tree that holds no read-only path, each granted whole, and inside
// the directories that hold one, the same again, one level down. A
// directory that holds a read-only path gets no right of its own, so a
// check cannot create a file directly in it (the workspace's top level
// included). Links are never granted: Landlock follows them, and a link in
// a writable place could name a governance file.
func Writable(root string, readOnly []string) (dirs, files []string) {
	ro := make([]string, 0, len(readOnly))
	for _, p := range readOnly {
		p = strings.TrimSuffix(strings.TrimSuffix(p, "/**"), "/")
		if p != "" {
			ro = append(ro, p)
		}
	}
	var walk func(rel string)
	walk = func(rel string) {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return
		}
		for _, e := range entries {
			p := e.Name()
			if rel != "" {
				p = rel + "/" + e.Name()
			}
			if slices.Contains(ro, p) || e.Type()&fs.ModeSymlink != 0 {
				continue
			}
			holds := slices.ContainsFunc(ro, func(r string) bool { return strings.HasPrefix(r, p+"/") })
			switch {
			case holds && e.IsDir():
				walk(p)
			case holds:
			case e.IsDir():
				dirs = append(dirs, filepath.Join(root, filepath.FromSlash(p)))
			case e.Type().IsRegular():
				files = append(files, filepath.Join(root, filepath.FromSlash(p)))
			}
		}
	}
	walk("")
	return dirs, files
}

// Caches are the directories outside the workspace a check may write
// besides temp: the build and package caches of the common toolchains,
// where they exist.
func Caches(getenv func(string) string) []string {
	home, _ := os.UserHomeDir()
	var out []string
	add := func(p string) {
		if p != "" && filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "XDG_CACHE_HOME", "npm_config_cache", "CARGO_HOME", "RUSTUP_HOME", "PIP_CACHE_DIR", "GRADLE_USER_HOME", "MAVEN_OPTS_CACHE"} {
		add(getenv(v))
	}
	if home != "" {
		for _, p := range []string{".cache", "go", ".npm", ".cargo", ".rustup", ".gradle", ".m2", ".pnpm-store", ".yarn", ".bun", ".deno", "Library/Caches"} {
			add(filepath.Join(home, p))
		}
	}
	add(os.TempDir())
	add("/tmp")
	add("/var/tmp")
	add("/dev/shm")
	add("/dev/pts")
	slices.Sort(out)
	return slices.Compact(out)
}

// Outside drops the directories that hold root (a workspace under /tmp):
// granting one would grant the whole workspace, governance files included.
// held reports whether any was dropped; the check then gets a temp
// directory of its own (Args' tmp).
func Outside(root string, dirs []string) (out []string, held bool) {
	for _, d := range dirs {
		if rel, err := filepath.Rel(d, root); err == nil && filepath.IsLocal(rel) || rel == "." {
			held = true
			continue
		}
		out = append(out, d)
	}
	return out, held
}

// Devices are the device files a check may write.
var Devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/random", "/dev/urandom"}

// Args are the arguments of the re-executed helper that runs argv with
// the rights to write dirs and files, and TMPDIR set to tmp when not "".
// With offline, the check gets no network: in a network namespace of its
// own (Isolate) the helper brings its loopback up; where the process was
// not given one, Landlock denies its TCP (and, on newer kernels, UDP).
func Args(dirs, files []string, tmp string, offline bool, argv []string) []string {
	out := []string{Arg}
	if offline {
		// The helper tells a namespace of its own from this one's.
		out = append(out, "--offline="+hostNet())
	}
	if tmp != "" {
		out = append(out, "--tmpdir", tmp)
	}
	for _, d := range dirs {
		out = append(out, "--rw", d)
	}
	for _, f := range files {
		out = append(out, "--rw-file", f)
	}
	out = append(out, "--")
	return append(out, argv...)
}

// helperArgs are Args' arguments, read back.
type helperArgs struct {
	dirs, files []string
	tmp         string
	offline     bool
	hostNet     string // the network namespace of the process that ran the helper
	argv        []string
}

// parse reads Args' arguments back.
func parse(args []string) (h helperArgs, ok bool) {
	dirs, files, tmp, argv, ok := parsePaths(args)
	if len(args) > 0 && strings.HasPrefix(args[0], "--offline=") {
		dirs, files, tmp, argv, ok = parsePaths(args[1:])
		h.offline, h.hostNet = true, strings.TrimPrefix(args[0], "--offline=")
	}
	h.dirs, h.files, h.tmp, h.argv = dirs, files, tmp, argv
	return h, ok
}

func parsePaths(args []string) (dirs, files []string, tmp string, argv []string, ok bool) {
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--":
			return dirs, files, tmp, args[i+1:], len(args) > i+1
		case args[i] == "--tmpdir" && i+1 < len(args):
			tmp = args[i+1]
			i++
		case args[i] == "--rw" && i+1 < len(args):
			dirs = append(dirs, args[i+1])
			i++
		case args[i] == "--rw-file" && i+1 < len(args):
			files = append(files, args[i+1])
			i++
		default:
			return nil, nil, "", nil, false
		}
	}
	return nil, nil, "", nil, false
}

// How an offline check is kept off the network (Network).
const (
	// NetNamespace: a network namespace of its own, with its own loopback
	// only.
	NetNamespace = "a network namespace of their own (their own loopback only)"
	// NetLandlock: Landlock's rules, which deny TCP (UDP on newer
	// kernels) by port; Unix sockets stay open.
	NetLandlock = "Landlock's network rules (TCP denied, UDP too on newer kernels; Unix sockets stay open; user namespaces are refused here)"
	// NetNone: no way here.
	NetNone = "nothing (no user namespaces, and no Landlock network rules in this kernel): they reach the network"
)

// hostNet names this process's network namespace ("" where there are
// none to name).
func hostNet() string {
	ns, _ := os.Readlink("/proc/self/ns/net")
	return ns
}
