//go:build unix

package hookcmd

import (
	"fmt"
	"os"
	"syscall"

	"github.com/intenthook/intenthook/internal/full"
)

// execFull replaces this process with the full binary: the same process,
// streams and exit code, and no second process to wait for.
func execFull(path string, args []string) error {
	argv := append([]string{path}, args...)
	env := append(os.Environ(), full.Marker+"=1")
	if err := syscall.Exec(path, argv, env); err != nil {
		return fmt.Errorf("cannot run %s: %v", path, err)
	}
	return nil
}
