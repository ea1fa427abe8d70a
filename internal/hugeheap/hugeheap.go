// Package hugeheap backs a new process's heap with a transparent huge page,
// once, as the process starts: imported for its initialiser by the hook
// binary alone, which an agent starts on every tool call.
//
// A hook's process lives a few milliseconds, and much of what it costs
// over a bare Go program is the first touch of its heap's pages: each is a
// page fault, and on a virtual machine a fresh page costs a process about
// 10 µs, where a whole 2 MiB huge page costs about 130 µs
// (docs/performance.md). The initialiser asks the kernel to back the
// heap's 2 MiB region with one huge page (madvise MADV_COLLAPSE, Linux 6.1
// and later), and the region after it with huge pages as the heap reaches
// it (MADV_HUGEPAGE), before the other packages' initialisers and the call
// allocate: their pages are then touched without a fault.
//
// It asks nothing where the system says no: transparent huge pages set to
// never, base pages other than 4 KiB, an operating system other than
// Linux. Where the kernel refuses the collapse, it asks nothing more and
// the call goes on as it would have without: an older kernel, a process
// that may not have huge pages (prctl PR_SET_THP_DISABLE), or a heap the Go
// runtime has marked as not to have them (GODEBUG=disablethp=1).
package hugeheap

// allowed says whether the system's transparent huge page setting, the
// contents of /sys/kernel/mm/transparent_hugepage/enabled, lets a process
// ask for huge pages. A kernel without them has no such file (nil).
func allowed(enabled []byte) bool {
	if enabled == nil {
		return false
	}
	const never = "[never]"
	for i := 0; i+len(never) <= len(enabled); i++ {
		if string(enabled[i:i+len(never)]) == never {
			return false
		}
	}
	return true
}
