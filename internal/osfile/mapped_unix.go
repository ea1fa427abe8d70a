//go:build unix

package osfile

import (
	"os"
	"syscall"
)

// MapRange maps n bytes of f from off read-only and returns them with the
// function that unmaps them; ok is false when they cannot be mapped (read
// them instead). A mapped range comes from the page cache: reading a large
// one into the heap costs a process a fresh page, zeroed and faulted in,
// per 4 KiB. Reads of the mapping must go through Faulted: a file cut
// short under it faults.
func MapRange(f *os.File, off, n int64) (data []byte, unmap func(), ok bool) {
	if n <= 0 || off < 0 {
		return nil, nil, false
	}
	page := int64(os.Getpagesize())
	base := off &^ (page - 1)
	m, err := syscall.Mmap(int(f.Fd()), base, int(off-base+n), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, false
	}
	return m[off-base:], func() { _ = syscall.Munmap(m) }, true
}
