//go:build !linux

package acceptance

// subreaper is Linux's alone: elsewhere a check's process that leaves its
// process group outlives the check.
func subreaper() bool { return false }

// reap has nothing to reap without a subreaper.
func reap() (ended int, clear bool) { return 0, true }
