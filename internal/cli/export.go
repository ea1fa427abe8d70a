package cli

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/full"
)

// ExportName is the binary that holds `export`: the OpenTelemetry SDK and
// gRPC stay out of this one, which hooks start.
const ExportName = "intenthook-export"

// exportCommand hands `export …` to intenthook-export beside this binary,
// with the same streams, and takes its exit code.
func (a *app) exportCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "export otlp [--records own|all]",
		Short: "Send the ledger's records not sent yet to an OpenTelemetry collector (OTLP logs)",
		Long: `Send the ledger's records not sent yet to an OpenTelemetry collector as OTLP
log records, one per record, configured by config.yaml's export: block and the
standard OTEL_EXPORTER_OTLP_* variables. Run by intenthook-export, installed
beside intenthook. See docs/otel.md.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.handOff(ExportName, args)
		},
	}
}

// handOff runs the program name beside this binary with args (and the
// global --root), with the same streams, and takes its exit code. An
// interrupt or a termination sent to this process is passed on, and this
// one waits for the program's end: a console must not outlive the command
// that was stopped.
func (a *app) handOff(name string, args []string) error {
	path, err := full.Beside(name)
	if err != nil {
		return err
	}
	if a.root != "" {
		args = append(args, "--root", a.root)
	}
	c := exec.Command(path, args...)
	c.Stdin, c.Stdout, c.Stderr = a.stdin, a.stdout, a.stderr
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err = c.Start(); err == nil {
		done := make(chan struct{})
		go func() {
			for {
				select {
				case sig := <-sigs:
					c.Process.Signal(sig) // Windows has no interrupt to send: its console sends it to both
				case <-done:
					return
				}
			}
		}()
		err = c.Wait()
		close(done)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return exitError{code: ee.ExitCode()}
	}
	return err
}
