// Command intenthook-console serves a person's live view of a workspace
// (intenthook console). It is a binary of its own so that neither the
// hook binary nor intenthook-full, which a hook may start, links net/http's
// server or pays for its package initialisation; run it through
// intenthook, which finds it beside itself. The person's checks run here,
// in the process that answers.
package main

import (
	"os"

	"github.com/intenthook/intenthook/internal/consolecmd"
)

func main() {
	os.Exit(consolecmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
