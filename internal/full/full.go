// Package full finds and runs intenthook-full, the binary that holds every
// command. The intenthook binary links only what the hooks need; it hands
// the full binary every other command line (hookcmd.Delegate) and, built
// with the noyaml tag, the rare YAML work of a hook (Call): parsing a
// catalog the cache has not seen, settings outside the plain subset, and a
// lifecycle edit of the catalog. It also finds intenthook's other programs
// beside it (Beside: intenthook-export) and starts one detached (Detach).
package full

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Name is the full binary's name.
const Name = "intenthook-full"

// Console is the console's binary's name: net/http's server and client
// live there, out of the hook's binary and the full one.
const Console = "intenthook-console"

// Marker is set in the full binary's environment by the process that
// started it; a line that comes back to intenthook with it set went round
// (a hook binary installed under the full binary's name). The full binary
// clears it (Clear), so that the programs it runs start clean.
const Marker = "INTENTHOOK_DELEGATED"

// Clear removes Marker from this process's environment.
func Clear() { os.Unsetenv(Marker) }

// Returned reports whether this process was started by Call or Delegate:
// it is then meant to be the full binary, and must not hand the work on.
func Returned() bool { return os.Getenv(Marker) != "" }

// Path finds the full binary beside this one (Beside).
func Path() (string, error) { return Beside(Name) }

// Beside finds the intenthook program name (intenthook-full,
// intenthook-export) beside this one: beside it as it was called (a link
// to it in a bin directory), else beside the file that runs (links
// resolved). It is not looked for on PATH: a hook takes the full binary's
// parse of the catalog, and the catalog edits it makes, as its own, so it
// trusts only the one installed with it, not one that any directory of PATH
// could hold.
func Beside(name string) (string, error) {
	var dirs []string
	if called, err := exec.LookPath(os.Args[0]); err == nil {
		dirs = append(dirs, filepath.Dir(called))
	}
	if self, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(self))
		if real, err := filepath.EvalSymlinks(self); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
	}
	for _, dir := range dirs {
		path := filepath.Join(dir, name)
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return path, nil
		}
	}
	where := "beside intenthook"
	if len(dirs) > 0 {
		where = "in " + dirs[0]
	}
	what := ", which runs every command but the hooks,"
	if name != Name {
		what = ""
	}
	return "", fmt.Errorf("%s%s is not installed %s (make install puts it there; it is not looked for on PATH)", name, what, where)
}

// ErrNotFull is returned when the program found under Name hands the work
// back.
var ErrNotFull = errors.New("is not the full binary: it handed the work back to intenthook")

// YAMLCommand is the hidden command of the full binary that Call runs.
const YAMLCommand = "__yaml"

// Call runs the full binary's YAML service for kind ("catalog", "config"
// or "splice") with in on its stdin and returns what it writes to stdout.
// A refusal is returned as an error with the text the service gave.
func Call(kind string, in []byte) ([]byte, error) {
	if Returned() {
		return nil, fmt.Errorf("%s %w", Name, ErrNotFull)
	}
	path, err := Path()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, YAMLCommand, kind)
	cmd.Env = append(os.Environ(), Marker+"=1")
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == Refused:
		return nil, errors.New(strings.TrimSuffix(stderr.String(), "\n"))
	case err != nil:
		return nil, fmt.Errorf("%s %s %s: %v: %s", path, YAMLCommand, kind, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// Refused is the YAML service's exit code for an input it refuses; its
// stderr is then the error's text, exactly.
const Refused = 3

// Names are the binaries installed together.
var Names = []string{"intenthook", Name, "intenthook-mcp"}

// Installed lists the installed binaries found beside this one (as Path
// finds the full binary), this one first.
func Installed() []string {
	var out []string
	add := func(p string) {
		for _, q := range out {
			if q == p {
				return
			}
		}
		out = append(out, p)
	}
	var dirs []string
	if self, err := os.Executable(); err == nil {
		add(self)
		dirs = append(dirs, filepath.Dir(self))
		if real, err := filepath.EvalSymlinks(self); err == nil {
			add(real)
			dirs = append(dirs, filepath.Dir(real))
		}
	}
	if called, err := exec.LookPath(os.Args[0]); err == nil && filepath.IsAbs(called) {
		dirs = append(dirs, filepath.Dir(called))
	}
	for _, dir := range dirs {
		for _, n := range Names {
			add(filepath.Join(dir, n))
		}
	}
	return out
}

// IsInstalled reports whether the program at path is one of the installed
// binaries under another name: a link to one (the same device and inode)
// or a copy (the same size, then the same bytes; a file of another size is
// never read).
func IsInstalled(path string) bool {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	for _, p := range Installed() {
		bst, err := os.Stat(p)
		if err != nil || !bst.Mode().IsRegular() {
			continue
		}
		if os.SameFile(st, bst) {
			return true
		}
		if bst.Size() == st.Size() && sameBytes(path, p) {
			return true
		}
	}
	return false
}

// sameBytes compares two files of one size, block by block.
func sameBytes(a, b string) bool {
	fa, err := os.Open(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false
		}
		if ea != nil || eb != nil {
			return (ea == io.EOF || ea == io.ErrUnexpectedEOF) && (eb == io.EOF || eb == io.ErrUnexpectedEOF)
		}
	}
}
