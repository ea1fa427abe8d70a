// Command intenthook-mcp is intenthook's MCP server over stdio. It is a
// command of its own so that the hook binary, started once per tool call,
// never pays for the MCP SDK's package initialisation.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/intenthook/intenthook/internal/mcpserver"
	"github.com/intenthook/intenthook/internal/safetext"
)

// escapedWriter writes JSON messages with safetext.EscapeJSON applied: an
// agent's text (a file name, a lesson) reaches the client's log and its
// person's screen without a control that reorders or hides the rest.
type escapedWriter struct{ w *os.File }

func (e escapedWriter) Write(b []byte) (int, error) {
	if _, err := e.w.Write(safetext.EscapeJSON(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (escapedWriter) Close() error { return nil }

// version and commit are set by the linker (make build, make dist).
var version, commit = "dev", ""

func main() {
	var opt mcpserver.Options
	flag.StringVar(&opt.Root, "root", "", "the governed workspace (default: the working directory, walked up)")
	flag.BoolVar(&opt.HookMode, "hooks", false, "the agent runs intenthook's hooks, which bind selections; without it the server binds a session of its own")
	flag.DurationVar(&opt.SubmitWait, "submit-wait", 0, "how long submit_for_review waits for the checks before answering that they run on (default 45s)")
	showVersion := flag.Bool("version", false, "print the version and commit, and exit")
	flag.Parse()
	if *showVersion {
		fmt.Printf("intenthook-mcp %s (commit %s)\n", version, commit)
		return
	}
	opt.Version = version
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// Newline-delimited JSON on stdio, as the SDK's StdioTransport, with
	// bidirectional and C1 controls escaped in what the server writes.
	transport := &mcp.IOTransport{Reader: os.Stdin, Writer: escapedWriter{os.Stdout}}
	if err := mcpserver.New(opt).Run(ctx, transport); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "intenthook: error:", err)
		os.Exit(1)
	}
}
