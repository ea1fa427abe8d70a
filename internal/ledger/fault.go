//go:build !ledgerfault

package ledger

// Fault points: where a test build kills the appender (see fault_on.go).
// The release binary has none.
const (
	faultAppend      = "append"
	faultSealCount   = "seal-count"
	faultSealCreated = "seal-created"
)

func faultAt(string) bool { return false }

func kill() {}
