//go:build !linux

package confine

import (
	"fmt"
	"io"
	"os/exec"
)

// Available reports whether the kernel enforces Landlock: never off Linux.
func Available() bool { return false }

// Main is the re-executed helper, which exists on Linux only.
func Main(_ []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "intenthook: __confine: Landlock exists on Linux only")
	return 126
}

// Isolate does nothing off Linux.
func Isolate(*exec.Cmd) {}

// Network says how an offline check is kept off the network: off Linux,
// it is not.
func Network() string { return NetNone }
