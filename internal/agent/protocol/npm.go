package protocol

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/hookconfig"
)

// ForInstall returns hooks with the program the way this intenthook was
// installed calls for: NPMProgram when npm installed it into the workspace's
// own node_modules (the running executable is under it), else the bare
// Program, found on PATH.
func ForInstall(root string, ag Agent, hooks []hookconfig.Hook) []hookconfig.Hook {
	if !NPMInstalled(root) {
		return hooks
	}
	prog := NPMProgram(ag)
	out := make([]hookconfig.Hook, len(hooks))
	for i, h := range hooks {
		h.Program = prog
		out[i] = h
	}
	return out
}

// FlatForInstall is ForInstall for a flat hooks file's entries.
func FlatForInstall(root string, ag Agent, hooks []FlatHook) []FlatHook {
	if !NPMInstalled(root) {
		return hooks
	}
	out := make([]FlatHook, len(hooks))
	for i, h := range hooks {
		h.Program = NPMProgram(ag)
		out[i] = h
	}
	return out
}

// NPMProgram is the program word of an npm install's hook commands: the
// project's binary (hookconfig.NPMBinary, the package's own file, never
// npm's .bin link), with no global install, by words that read the same on
// every teammate's system. An agent that names the project's directory in
// its hooks' environment gets "$<its project
// variable>"/node_modules/intenthook/bin/intenthook, which reaches the
// binary from any working directory; one that names none gets
// hookconfig.FromRoot, which finds the workspace root from the working
// directory up and runs that root's binary.
func NPMProgram(ag Agent) string {
	if len(ag.ProjectDirVars) == 0 {
		return hookconfig.FromRoot
	}
	return `"$` + ag.ProjectDirVars[0] + `"/` + hookconfig.NPMBinary
}

// NPMInstalled reports whether the running executable was installed by npm
// into root's node_modules and the package's own binary is in place there
// (hookconfig.NPMBinary).
func NPMInstalled(root string) bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return false
	}
	modules, err := filepath.EvalSymlinks(filepath.Join(root, "node_modules"))
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(modules, exe)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	_, err = os.Stat(filepath.Join(root, filepath.FromSlash(hookconfig.NPMBinary)))
	return err == nil
}

// nodeLauncher reports whether the executable at path is a script run by
// Node (npm's launcher, where its install step did not put the native
// binary in place) rather than a native binary.
func nodeLauncher(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 128)
	n, _ := f.Read(head)
	head = head[:n]
	line, _, _ := bytes.Cut(head, []byte("\n"))
	return bytes.HasPrefix(line, []byte("#!")) && bytes.Contains(line, []byte("node"))
}
