// Package cli wires intenthook's commands and flags to the packages that do
// the work. It holds no decisions of its own; exit codes are decided here,
// in one place.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/full"
	"github.com/intenthook/intenthook/internal/gate"
	"github.com/intenthook/intenthook/internal/hookcmd"
	"github.com/intenthook/intenthook/internal/runner"
)

// Version is the build's version (set in hookcmd, which both binaries link).
var Version = hookcmd.Version

// Exit codes of people's commands: 0 on success, 1 on failure (a hook's
// 2 is the runner's).
const (
	exitOK   = 0
	exitFail = 1
)

// exitError carries a command's exit code without an extra message.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// app is one invocation's streams and global flags.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	root           string
	getenv         func(string) string
}

func (a *app) env() *gate.Env {
	env := hookcmd.Env(a.root, a.getenv)
	env.Now = nowFunc
	return env
}

func (a *app) io() runner.IO { return runner.IO{Stdin: a.stdin, Stdout: a.stdout, Stderr: a.stderr} }

// Main runs intenthook with args and returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	full.Clear()
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}
	if code, ok := a.fastHook(args); ok {
		return code
	}
	return a.execute(a.rootCommand(), args)
}

// execute runs root with args and returns the process exit code.
func (a *app) execute(root *cobra.Command, args []string) int {
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if cmd != nil && cmd.Annotations["hook"] != "" {
		// A usage error in a hooks file must not break the agent: it goes
		// through the fail mode like any other hook error.
		return runner.UsageError(cmd.Annotations["hook"], err, a.env(), a.io())
	}
	printError(a.stderr, err)
	return exitFail
}

func printError(w io.Writer, err error) {
	msg := strings.TrimSuffix(err.Error(), ".")
	fmt.Fprintf(w, "intenthook: error: %s\n", msg)
	var h hinted
	if errors.As(err, &h) {
		for _, hint := range h.hints {
			fmt.Fprintf(w, "intenthook: hint: %s\n", full.Speak(hint))
		}
	}
}

// hinted is an error with hints for the user.
type hinted struct {
	err   error
	hints []string
}

func (h hinted) Error() string { return h.err.Error() }
func (h hinted) Unwrap() error { return h.err }

func withHint(err error, hints ...string) error { return hinted{err: err, hints: hints} }

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "intenthook",
		Short: "Keep AI coding agents inside declared intents and trace why each line changed",
		Long: `intenthook is the hook AI coding agents run on every tool call. Before a write it
checks that the session selected an in-progress intent from
.orchestration/active_intents.yaml and that the file lies in the intent's
owned_scope; after the write it records a content-hashed trace.

Start in your repository, history and all:
  intenthook init --git-hook     the catalog, Claude Code's hooks, the pre-commit hook
                                 (--agent NAME for another agent)
  intenthook doctor              check every piece
  git add -A && git commit       the commit that adopts the rules
Then describe the work in .orchestration/active_intents.yaml. The README and
docs/ say more; hooks.example.json is the hook wiring to copy by hand.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version,
	}
	root.PersistentFlags().StringVar(&a.root, "root", "", "workspace root (default: found from the event or the working directory)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return withHint(err, "see 'intenthook "+commandPath(c)+" --help'")
	})
	root.AddCommand(
		a.hookCommand("pre"),
		a.hookCommand("post"),
		a.hookCommand("context"),
		a.selectCommand(),
		a.intentsCommand(),
		a.ledgerCommand(),
		a.blameCommand(),
		a.lessonCommand(),
		a.anchorCommand(),
		a.submitCommand(),
		a.statusCommand(),
		a.askCommand(),
		a.budgetCommand(),
		a.claimsCommand(),
		a.claimsWorkCommand(),
		a.consoleCommand(),
		a.precommitCommand(),
		a.auditCommand(),
		a.replayCommand(),
		a.reportCommand(),
		a.exportCommand(),
		a.attestCommand(),
		a.initCommand(),
		a.uninstallCommand(),
		a.doctorCommand(),
		a.versionCommand(),
		a.yamlCommand(),
	)
	return root
}

func commandPath(c *cobra.Command) string {
	return strings.TrimSpace(strings.TrimPrefix(c.CommandPath(), "intenthook"))
}
