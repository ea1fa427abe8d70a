// Command intenthook-attest writes and checks signed attestations of a
// range's agent work (intenthook attest, attest verify). It is a binary of
// its own so that neither the hook binary nor intenthook-full, which a hook
// may start, links Sigstore's libraries or pays for their package
// initialisation; run it through intenthook, which finds it beside itself.
package main

import (
	"os"

	"github.com/intenthook/intenthook/internal/attest"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	os.Exit(attest.Main(os.Args[1:], os.Stdout, os.Stderr, version))
}
