//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

// flushDisk does nothing here.
func flushDisk() {}
