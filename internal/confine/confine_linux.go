package confine

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Available reports whether the kernel enforces Landlock.
func Available() bool {
	v, err := llsys.LandlockGetABIVersion()
	return err == nil && v >= 1
}

// Main is the re-executed helper: it restricts this process to writing
// what its arguments name, then executes the check in its place. Its exit
// code is 126 when it cannot, as a shell's is for a command it cannot run.
func Main(args []string, stderr io.Writer) int {
	dirs, files, tmp, argv, ok := parse(args)
	if !ok {
		fmt.Fprintln(stderr, "intenthook: __confine: usage: __confine [--rw DIR | --rw-file FILE]... -- PROGRAM [ARG]...")
		return 126
	}
	if tmp != "" {
		dirs = append(dirs, tmp)
		os.Setenv("TMPDIR", tmp)
	}
	rules := []landlock.Rule{landlock.RODirs("/")}
	if len(dirs) > 0 {
		rules = append(rules, landlock.RWDirs(dirs...).IgnoreIfMissing())
	}
	rules = append(rules, landlock.RWFiles(append(files, Devices...)...).IgnoreIfMissing())
	// Strict where the kernel has Landlock: a check must not run with less
	// confinement than reported. BestEffort only takes away the rights of
	// newer ABIs the kernel lacks.
	if err := landlock.V5.BestEffort().RestrictPaths(rules...); err != nil {
		fmt.Fprintf(stderr, "intenthook: cannot confine the check: %v\n", err)
		return 126
	}
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintf(stderr, "intenthook: %v\n", err)
		return 127
	}
	err = syscall.Exec(prog, argv, os.Environ())
	fmt.Fprintf(stderr, "intenthook: %v\n", err)
	return 126
}
