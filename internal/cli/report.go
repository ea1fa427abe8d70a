package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/audit"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/report"
	"github.com/intenthook/intenthook/internal/state"
)

func (a *app) reportCommand() *cobra.Command {
	var out, rng string
	var open bool
	var maxEvents int
	cmd := &cobra.Command{
		Use:   "report [-o FILE] [--range REVISION-RANGE] [--open]",
		Short: "Write a self-contained HTML report: the intents as a board, their dependencies, timelines, files, sessions and models",
		Long: `Write one self-contained HTML file (no network, no external assets): the intents
as a board by status with their dependency graph, and per intent a timeline of
its changes, denials, violations and transitions, its files, sessions and
models; filters by intent and date. With --range, the timelines keep the
records made since the range's first commit, and the audit's findings for the
range are shown (the pull request's view). The file is written atomically;
--open opens it with the system's browser.`,
		Example: `  intenthook report
  intenthook report -o pr.html --range origin/main..HEAD --open`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := a.openWorkspace()
			if err != nil {
				return err
			}
			opt := report.Options{Root: ws.Root, Catalog: ws.Catalog, Now: nowFunc(), MaxEvents: maxEvents, Range: rng}
			if rng != "" {
				g, _, err := git.Locate(cmd.Context(), ws.Root, ws.Root)
				if err != nil {
					return withHint(err, "--range needs a git repository")
				}
				res, err := audit.Run(cmd.Context(), g, rng, false)
				if err != nil {
					return err
				}
				opt.Findings = res.Findings
				first, err := g.Line(cmd.Context(), "rev-list", "--reverse", "--format=%cI", "--no-commit-header", rng)
				if err != nil {
					return err
				}
				if line, _, _ := strings.Cut(first, "\n"); line != "" {
					if t, err := time.Parse(time.RFC3339, line); err == nil {
						opt.Since = t.Add(-time.Hour) // work before the first commit belongs to it
					}
				}
			}
			r, err := report.Build(opt)
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := r.Write(&b); err != nil {
				return err
			}
			if !filepath.IsAbs(out) {
				wd, _ := os.Getwd()
				out = filepath.Join(wd, out)
			}
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			if err := state.WriteFile(out, b.Bytes(), 0o644, false); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "wrote %s (%d intents, %d records)\n", out, r.IntentCount(), r.Records)
			if open {
				return openFile(out)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "intenthook-report.html", "the file to write")
	cmd.Flags().StringVar(&rng, "range", "", "a revision range: its records and audit findings only")
	cmd.Flags().BoolVar(&open, "open", false, "open the report in the system's browser")
	cmd.Flags().IntVar(&maxEvents, "max-events", 200, "the newest events shown per intent")
	return cmd
}

// openFile hands path to the system's opener.
func openFile(path string) error {
	name, args := "xdg-open", []string{path}
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "cmd", []string{"/c", "start", "", path}
	}
	if err := exec.Command(name, args...).Start(); err != nil {
		return withHint(fmt.Errorf("open %s: %w", path, err), "open the file in a browser yourself")
	}
	return nil
}
