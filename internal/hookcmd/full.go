package hookcmd

import (
	"fmt"
	"os"

	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/runner"
)

// Delegate runs a command line that is not a hook's in the full binary, in
// this process's place. It returns only when that cannot be done. A line
// naming a hook (with a flag the full binary would refuse) then goes
// through the fail mode like any other hook error: a broken install must
// not let the agent's calls through unless the fail mode says so.
func Delegate(args []string, std runner.IO) int {
	path, err := full.Path()
	if err == nil && full.Returned() {
		err = fmt.Errorf("%s %w", path, full.ErrNotFull)
	}
	if err == nil {
		err = execFull(path, args)
	}
	for _, a := range args {
		if spec, ok := Lookup(a); ok {
			return runner.UsageError(spec.Event, err, Env("", os.Getenv), std)
		}
	}
	fmt.Fprintf(std.Stderr, "intenthook: error: %v\n", err)
	return 1
}
