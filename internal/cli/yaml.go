package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/intents/splice"
)

// yamlCommand is the YAML service of the hook binary, which links no YAML
// parser (package full): it reads one request on stdin and writes the
// result to stdout. A refused input exits full.Refused with the error's
// text, exactly, on stderr.
func (a *app) yamlCommand() *cobra.Command {
	serve := map[string]func([]byte) ([]byte, error){
		"catalog": intents.ServeParse,
		"config":  config.ServeParse,
		"splice":  splice.Serve,
	}
	return &cobra.Command{
		Use:    full.YAMLCommand + " catalog|config|splice",
		Short:  "Parse or edit YAML for the hook binary (internal)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := serve[args[0]]
			if f == nil {
				return fmt.Errorf("unknown YAML request %q", args[0])
			}
			in, err := io.ReadAll(a.stdin)
			if err != nil {
				return err
			}
			out, err := f(in)
			if err != nil {
				fmt.Fprintln(a.stderr, err.Error())
				return exitError{full.Refused}
			}
			_, err = a.stdout.Write(out)
			return err
		},
	}
}
