// Command intenthook-full holds every intenthook command: the hooks, and the
// commands people and CI run. The intenthook binary hands it every command
// line that is not a hook's; run through intenthook, not by this name.
package main

import (
	"os"

	"github.com/intenthook/intenthook/internal/cli"
)

func main() {
	os.Exit(cli.FullMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
