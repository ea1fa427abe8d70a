//go:build unix

package intents

import (
	"os"
	"syscall"

	"github.com/intenthook/intenthook/internal/osfile"
)

// mapCatalog returns the bytes of the catalog at path mapped read-only, or
// ok false when it cannot be mapped. Reading a large catalog into the heap
// costs a fresh page, zeroed and faulted in, per 4 KiB, on every hook call;
// mapped pages come from the page cache. The mapping is never unmapped: a
// hook process is one call, and a person's command reads the catalog once.
// It returns the file's status as it was mapped too.
func mapCatalog(path string) (data []byte, st os.FileInfo, ok bool) {
	f, err := osfile.Open(path)
	if err != nil {
		return nil, nil, false
	}
	defer f.Close() // the mapping outlives the descriptor
	st, err = f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 || st.Size() > maxMapped {
		return nil, nil, false
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	return data, st, err == nil
}
