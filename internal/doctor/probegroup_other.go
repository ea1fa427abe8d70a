//go:build !unix

package doctor

import "os/exec"

// ownGroup leaves the default: only git is killed on a timeout.
func ownGroup(*exec.Cmd) {}

// endGroup has no group to end.
func endGroup(*exec.Cmd) {}
