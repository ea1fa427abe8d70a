//go:build !linux || !(amd64 || arm64)

package osfile

// Replace puts the file at tmp in place of the one at path: Rename.
func Replace(tmp, path string) error { return Rename(tmp, path) }
