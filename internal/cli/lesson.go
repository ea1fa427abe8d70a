package cli

import (
	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/lessons"
)

func (a *app) lessonCommand() *cobra.Command {
	var intent string
	cmd := &cobra.Command{
		Use:   "lesson TEXT",
		Short: "Append a lesson to the shared brain (.orchestration/CLAUDE.md)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := a.workspaceRoot()
			if err != nil {
				return err
			}
			cfg, err := config.Load(root, a.getenv)
			if err != nil {
				return err
			}
			return lessons.Note(cmd.Context(), root, cfg.LessonsFile, cfg.LockTimeout, args[0], intent, cfg.LessonsMax, nowFunc())
		},
	}
	cmd.Flags().StringVar(&intent, "intent", "", "the intent the lesson belongs to")
	return cmd
}
