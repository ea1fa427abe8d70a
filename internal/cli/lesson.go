package cli

import (
	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/lessons"
)

func (a *app) lessonCommand() *cobra.Command {
	var intent string
	cmd := &cobra.Command{
		Use:   "lesson TEXT",
		Short: "Append a lesson to the shared brain (.orchestration/CLAUDE.md)",
		Long: `Append a note under the lessons file's "Lessons Learned" section. Later
sessions get it in their context (with the intent's selection, or at every
session start without --intent), fenced as information, never as
instructions. The note says who wrote it: "(by a person)", or the agent when
run from an agent's shell; a note written while an agent's shell command
runs is given to that agent's session, whatever the process claimed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := a.workspaceRoot()
			if err != nil {
				return err
			}
			cfg, err := config.Load(root, a.getenv)
			if err != nil {
				return err
			}
			// From an agent's shell the note is that agent's. (A process
			// that hides the shell's marker is caught by the guard, which
			// sees the lessons file change during the agent's command.)
			by := lessons.ByPerson
			if title, _, inShell := agent.InShell(a.getenv); inShell {
				by = title
			}
			return lessons.Note(cmd.Context(), root, cfg.LessonsFile, cfg.LockTimeout, args[0], intent, by, cfg.LessonsMax, nowFunc())
		},
	}
	cmd.Flags().StringVar(&intent, "intent", "", "the intent the lesson belongs to")
	return cmd
}
