// Command intenthook is the hook binary that keeps AI coding agents inside the
// intents they were given and records why each line changed.
//
// It links only what the hooks need (an agent runs one on every tool call,
// and Go runs every linked package's initialisation on every start); every
// other command line is handed to intenthook-full, in this process's place.
package main

import (
	"os"

	"github.com/intenthook/intenthook/internal/hookcmd"
	"github.com/intenthook/intenthook/internal/runner"
)

func main() {
	if code, ok := hookcmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); ok {
		os.Exit(code)
	}
	os.Exit(hookcmd.Delegate(os.Args[1:], runner.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
