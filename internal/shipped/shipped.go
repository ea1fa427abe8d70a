// Package shipped builds intenthook's binaries as make build builds them,
// for the tests that run the real programs (the testscripts' shipped run,
// the documentation's examples): the hook binary without YAML (-tags
// noyaml), the full binary and the programs it hands commands to (the
// exporter, the attester, the console) beside it, statically linked
// (CGO_ENABLED=0) and without the instrumentation of the test that asks
// (-race makes each process ten times slower). It builds nothing a release
// ships: make build and GoReleaser do that.
package shipped

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// A Binary is one program make build puts in bin/.
type Binary struct {
	Name    string // the file's name, which the hook binary finds its peers by
	Package string // its import path
	Tags    string // its build tags
}

const module = "github.com/intenthook/intenthook/"

// The binaries the tests run. intenthook-mcp, a server of its own, is built
// by its own package's test.
var (
	Hook    = Binary{"intenthook", module + "cmd/intenthook", "noyaml"}
	Full    = Binary{"intenthook-full", module + "cmd/intenthook-full", ""}
	Export  = Binary{"intenthook-export", module + "cmd/intenthook-export", ""}
	Attest  = Binary{"intenthook-attest", module + "cmd/intenthook-attest", ""}
	Console = Binary{"intenthook-console", module + "cmd/intenthook-console", ""}
)

// Build builds each binary into dir, side by side as make build leaves
// them. It runs the go command from the working directory, which must lie
// inside intenthook's module (a test's does). Built with the same flags
// everywhere, the tests of different packages share the build cache.
func Build(dir string, bins ...Binary) error {
	for _, b := range bins {
		cmd := exec.Command("go", "build", "-tags", b.Tags, "-o", filepath.Join(dir, b.Name), b.Package)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", b.Name, err, out)
		}
	}
	return nil
}
