//go:build ledgerfault

package ledger

import (
	"os"
	"syscall"
)

// Fault points, built only with -tags ledgerfault: INTENTHOOK_LEDGER_FAULT
// names the point at which the appender kills its own process with
// SIGKILL, as a crash or an out-of-memory kill would.
const (
	faultAppend      = "append"
	faultSealCount   = "seal-count"
	faultSealCreated = "seal-created"
)

func faultAt(point string) bool { return os.Getenv("INTENTHOOK_LEDGER_FAULT") == point }

func kill() {
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}
