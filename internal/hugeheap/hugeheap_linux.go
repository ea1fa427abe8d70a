//go:build amd64 || arm64

package hugeheap

import (
	"syscall"
	"unsafe"
)

const (
	// hugePage is a huge page's size where base pages are 4 KiB.
	hugePage = 2 << 20

	madvHugepage = 14 // MADV_HUGEPAGE
	madvCollapse = 25 // MADV_COLLAPSE
)

// anchor is the heap object whose region is collapsed: allocated as the
// initialiser runs, it lies where the runtime's own allocations are, and
// the heap grows on from there.
var anchor *[64]byte

// collapsed is what the kernel answered the collapse: 0, or why not.
var collapsed syscall.Errno

func init() {
	// Nothing is allocated before the collapse: what is, is faulted in a
	// page at a time.
	var buf [64]byte
	if syscall.Getpagesize() != 4096 || !allowed(thpEnabled(&buf)) {
		return
	}
	anchor = new([64]byte)
	region := uintptr(unsafe.Pointer(anchor)) &^ (hugePage - 1)
	if collapsed = madvise(region, hugePage, madvCollapse); collapsed != 0 {
		return
	}
	// The region after it is the runtime's too: mapped heap, or address
	// space reserved for it (advice the runtime's later mapping drops).
	madvise(region+hugePage, hugePage, madvHugepage)
}

func madvise(addr, n uintptr, advice int) syscall.Errno {
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, addr, n, uintptr(advice))
	return errno
}

// enabledPath is the system's transparent huge page setting, as the
// kernel takes a path: the string's bytes end in a NUL.
const enabledPath = "/sys/kernel/mm/transparent_hugepage/enabled\x00"

// thpEnabled reads the system's transparent huge page setting into buf,
// or returns nil where there is none. It opens the file with a raw openat
// of the constant path: syscall.Open would copy it to the heap.
func thpEnabled(buf *[64]byte) []byte {
	atFDCWD := -100
	r, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(unsafe.StringData(enabledPath))),
		syscall.O_RDONLY|syscall.O_CLOEXEC, 0, 0, 0)
	if errno != 0 {
		return nil
	}
	fd := int(r)
	defer syscall.Close(fd)
	n, err := syscall.Read(fd, buf[:])
	if err != nil || n <= 0 {
		return nil
	}
	return buf[:n]
}
