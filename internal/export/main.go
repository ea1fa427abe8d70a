package export

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Usage is the export command's help.
const Usage = `usage: intenthook export otlp [--root DIR] [--records own|all]

Sends the ledger's records not sent yet to an OpenTelemetry collector as OTLP
log records. Configured by config.yaml's export: block and the standard
variables OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_LOGS_ENDPOINT,
OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_PROTOCOL (grpc, http/protobuf,
http/json), OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME.

  --records own   the records this clone wrote (the default; export.records)
  --records all   every record of the ledger (CI)
`

// Main runs an export command line (after the program's name: "otlp" and
// its flags) and returns the exit code: 0, or 1 on any failure.
func Main(args []string, stdout, stderr io.Writer, version string) int {
	fs := flag.NewFlagSet("intenthook export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	root := fs.String("root", "", "")
	records := fs.String("records", "", "")
	auto := fs.Bool("auto", false, "") // started by a hook, detached
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, Usage)
		return 0
	}
	if args[0] != "otlp" {
		fmt.Fprintf(stderr, "intenthook: error: export %q: the only export is otlp\n%s", args[0], Usage)
		return 1
	}
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
		if err == nil {
			err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
		}
		fmt.Fprintf(stderr, "intenthook: error: export otlp: %v\n%s", err, Usage)
		return 1
	}
	if *records != "" && *records != config.RecordsOwn && *records != config.RecordsAll {
		fmt.Fprintf(stderr, "intenthook: error: --records is %q, want own or all\n", *records)
		return 1
	}
	wd, _ := os.Getwd()
	dir, err := workspace.Locate(*root, wd)
	if err != nil {
		fmt.Fprintf(stderr, "intenthook: error: %v\n", err)
		return 1
	}
	o := Options{Root: dir, Getenv: os.Getenv, Version: version, Records: *records, Auto: *auto, Notes: stderr}
	if *auto {
		// A hook started this run with no terminal and nobody reading:
		// what it has to say goes to state/export/otlp.log.
		log := openLog(dir)
		defer log.Close()
		stdout, stderr, o.Notes = log, log, log
		fmt.Fprintf(log, "%s export started by a hook\n", time.Now().UTC().Format(time.RFC3339))
	} else if terminal(os.Stderr) && stderr == os.Stderr {
		o.Progress = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sum, err := Run(ctx, o)
	switch {
	case errors.Is(err, ErrBusy) && *auto:
		fmt.Fprintln(stdout, "intenthook: export: another export is running; it sends these records")
		return 0
	case err != nil:
		if sum.Sent > 0 {
			fmt.Fprintf(stderr, "intenthook: export: %d records were sent before the failure\n", sum.Sent)
		}
		fmt.Fprintf(stderr, "intenthook: error: export otlp: %s\n", safetext.OneLine(err.Error()))
		return 1
	}
	fmt.Fprintln(stdout, summaryLine(sum))
	return 0
}

// summaryLine says who exported what, where.
func summaryLine(s Summary) string {
	whose := "this clone's records"
	if s.Target.Records == config.RecordsAll {
		whose = "every record"
	}
	files := "ledger files"
	if s.Files == 1 {
		files = "ledger file"
	}
	line := fmt.Sprintf("intenthook: export: sent %s in %s from %d %s (%s) to %s over %s", count(s.Sent, "record"), count(int64(s.Batches), "batch"), s.Files, files, whose, Visible(s.Target.URL), s.Target.Protocol)
	if s.Sent == 0 {
		line = fmt.Sprintf("intenthook: export: nothing new to send from %d %s (%s) to %s over %s", s.Files, files, whose, Visible(s.Target.URL), s.Target.Protocol)
	}
	if s.Skipped > 0 {
		line += fmt.Sprintf("; %d lines that are no record skipped", s.Skipped)
	}
	return line
}

// count is "1 record", "2 records", "1 batch", "2 batches".
func count(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "ch") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// logLimit bounds state/export/otlp.log: past it the log starts over.
const logLimit = 256 << 10

func openLog(root string) *os.File {
	if err := state.Ensure(root, stateDir); err == nil {
		path := state.Path(root, stateDir, logName)
		flags := os.O_WRONLY | os.O_APPEND | os.O_CREATE
		if st, err := os.Stat(path); err == nil && st.Size() > logLimit {
			flags |= os.O_TRUNC
		}
		if f, err := osfile.OpenFile(path, flags, 0o644); err == nil {
			return f
		}
	}
	f, _ := os.Open(os.DevNull)
	return f
}

func terminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && !strings.EqualFold(os.Getenv("TERM"), "dumb")
}
