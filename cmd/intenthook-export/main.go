// Command intenthook-export sends the ledger's records to an OpenTelemetry
// collector (intenthook export otlp). It is a binary of its own so that
// neither the hook binary nor intenthook-full, which a hook may start, pays
// for the OpenTelemetry SDK's and gRPC's package initialisation; run it
// through intenthook, which finds it beside itself.
package main

import (
	"os"

	"github.com/intenthook/intenthook/internal/export"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	os.Exit(export.Main(os.Args[1:], os.Stdout, os.Stderr, version))
}
