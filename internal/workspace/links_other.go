//go:build !unix

package workspace

import "os"

// linkCount is not known here.
func linkCount(os.FileInfo) (uint64, bool) { return 0, false }
