//go:build linux && (amd64 || arm64)

package osfile

import (
	"os"
	"syscall"
	"unsafe"
)

// renameExchange is renameat2's RENAME_EXCHANGE.
const renameExchange = 1 << 1

// Replace puts the file at tmp in place of the one at path, as Rename does:
// a reader sees the old file or the new one, whole, and tmp's name is gone.
//
// Where a file is at path the two are exchanged (renameat2 with
// RENAME_EXCHANGE) and tmp's name, which then holds the old file, is
// removed. A rename over a file makes ext4 start writing the new file's
// data back there and then (auto_da_alloc: 0.13 ms for a 200-byte file on
// this project's virtual machine, against 0.02 ms for the exchange and
// the unlink), so that a power cut soon after leaves the old content or the
// new. Without it, a file replaced in the last seconds before a power cut
// may read empty, as on a file system mounted noauto_da_alloc: a writer
// that needs the bytes on the disk syncs them first (state.WriteFile's
// durable). Where nothing is at path, or the file system cannot exchange,
// it is Rename.
func Replace(tmp, path string) error {
	if exchange(tmp, path) != nil {
		return Rename(tmp, path)
	}
	if err := syscall.Unlink(tmp); err != nil {
		// tmp names what was at path, and it is no file (a directory):
		// put it back, and fail as the rename over it would.
		_ = exchange(tmp, path)
		return &os.LinkError{Op: "rename", Old: tmp, New: path, Err: err}
	}
	return nil
}

func exchange(a, b string) error {
	pa, err := syscall.BytePtrFromString(a)
	if err != nil {
		return err
	}
	pb, err := syscall.BytePtrFromString(b)
	if err != nil {
		return err
	}
	atFDCWD := -100
	_, _, errno := syscall.Syscall6(sysRenameat2, uintptr(atFDCWD), uintptr(unsafe.Pointer(pa)), uintptr(atFDCWD), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
