//go:build !unix

package acceptance

import "os/exec"

// ownGroup leaves the default: only the shell is killed on a timeout.
func ownGroup(*exec.Cmd) {}

// endGroup has no group to end.
func endGroup(*exec.Cmd) {}
