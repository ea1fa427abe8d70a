package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/hookcmd"
)

// fastHook runs a hook command line the way agents write it without
// building the command tree (see hookcmd). ok is false for any other line
// (help, a stray argument, an unknown flag): cobra answers those.
func (a *app) fastHook(args []string) (code int, ok bool) {
	line, ok := hookcmd.Parse(args)
	if !ok {
		return 0, false
	}
	if line.Root != "" {
		a.root = line.Root
	}
	return hookcmd.Run(line.Name, line.Flags, a.env(), a.io()), true
}

func (a *app) hookCommand(name string) *cobra.Command {
	spec, _ := hookcmd.Lookup(name)
	var f hookcmd.Flags
	cmd := &cobra.Command{
		Use:         name,
		Short:       spec.Short,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{"hook": spec.Event},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if code := hookcmd.Run(name, f, a.env(), a.io()); code != 0 {
				return exitError{code}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&f.Explain, "explain", false, "print each step of the decision chain to stderr (the decision is unchanged)")
	cmd.Flags().StringVar(&f.Agent, "agent", "", "the agent whose protocol the event speaks: "+strings.Join(agent.Names(), ", ")+" (default: detected from the event, else claude)")
	return cmd
}
