//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import "syscall"

// flushDisk has the kernel write every file system's dirty pages back
// (sync), and returns when it has.
func flushDisk() { syscall.Sync() }
