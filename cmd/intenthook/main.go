// Command intenthook is the hook binary that keeps AI coding agents inside the
// intents they were given and records why each line changed.
package main

import (
	"os"

	"github.com/intenthook/intenthook/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
