package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/hookcmd"
)

func nowFunc() time.Time { return time.Now() }

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and Go version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			commit := hookcmd.Commit
			if info, ok := debug.ReadBuildInfo(); ok {
				for _, s := range info.Settings {
					if s.Key == "vcs.revision" && commit == "" {
						commit = s.Value
					}
				}
			}
			if commit == "" {
				commit = "unknown"
			}
			fmt.Fprintf(a.stdout, "intenthook %s (commit %s, %s)\n", Version, commit, runtime.Version())
		},
	}
}
