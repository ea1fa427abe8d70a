package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/safetext"
)

func (a *app) ledgerCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ledger",
		Short: "Read and check the trace ledger (.orchestration/ledger/, and the legacy .orchestration/agent_trace.jsonl)",
	}
	cmd.AddCommand(a.ledgerQueryCommand(), a.ledgerVerifyCommand(), a.ledgerSplitCommand())
	return cmd
}

func (a *app) ledgerSplitCommand() *cobra.Command {
	var size int64
	cmd := &cobra.Command{
		Use:   "split",
		Short: "Move the single-file ledger's lines, byte for byte, into files under the segment size (" + ledger.LegacyDir + "/)",
		Long: `Moves the lines of ` + ledger.FileName + `, byte for byte and in order, into
files of at most --bytes under ` + ledger.LegacyDir + `/, and removes it. They
read as the same ledger (every hash and published checkpoint holds); commit
them together with the removal: precommit and audit accept lines moved
byte for byte.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := a.workspaceRoot()
			if err != nil {
				return err
			}
			cfg, _ := config.Load(root, a.getenv)
			if size <= 0 {
				size = int64(cfg.Ledger.SegmentBytes)
			}
			parts, err := ledger.Split(cmd.Context(), root, min(size, config.MaxSegmentBytes), cfg.LockTimeout)
			for _, p := range parts {
				fmt.Fprintln(a.stdout, p)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s: %d line file(s); commit them with the removal of %s\n", ledger.FileName, len(parts), ledger.FileName)
			return nil
		},
	}
	cmd.Flags().Int64Var(&size, "bytes", 0, "the largest file (default: ledger.segment_bytes, at most 16 MiB)")
	return cmd
}

func (a *app) ledgerQueryCommand() *cobra.Command {
	var q ledger.Query
	var since string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "query",
		Short: "Print ledger records, newest last",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := a.workspaceRoot()
			if err != nil {
				return err
			}
			if since != "" {
				if q.Since, err = parseSince(since); err != nil {
					return err
				}
			}
			q.File = a.rootRelative(root, q.File)
			recs, err := ledger.Select(root, q)
			if err != nil {
				return err
			}
			return a.printRecords(recs, asJSON)
		},
	}
	cmd.Flags().StringVar(&q.Intent, "intent", "", "only records of this intent")
	cmd.Flags().StringVar(&q.File, "file", "", "only records that touch this path")
	cmd.Flags().StringVar(&q.Session, "session", "", "only records of this session")
	cmd.Flags().StringVar(&since, "since", "", "only records at or after this time (RFC 3339, a date, or a duration like 2h or 7d)")
	cmd.Flags().IntVarP(&q.Limit, "limit", "n", 0, "only the newest N records")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the records as JSON lines")
	return cmd
}

// parseSince reads --since: a duration back from now (d counts days), or
// an RFC 3339 time or a date.
func parseSince(s string) (time.Time, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if days, err := strconv.Atoi(n); err == nil && days >= 0 {
			return nowFunc().Add(-time.Duration(days) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		return nowFunc().Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q: want a duration (7d, 2h) or an RFC 3339 time or a date", s)
}

// rootRelative turns a path given on the command line into the ledger's
// root-relative form.
func (a *app) rootRelative(root, p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		wd, _ := os.Getwd()
		p = filepath.Join(wd, p)
	}
	if rel, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

func (a *app) printRecords(recs []ledger.Record, asJSON bool) error {
	if asJSON {
		for i := range recs {
			fmt.Fprintf(a.stdout, "%s\n", safetext.EscapeJSON(recs[i].MarshalLine()))
		}
		return nil
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tTIME\tEVENT\tINTENT\tSESSION\tTOOL\tCLASS\tPATH\tRESULT")
	for i := range recs {
		writeRecordRow(tw, &recs[i])
	}
	return tw.Flush()
}

func writeRecordRow(w io.Writer, r *ledger.Record) {
	m := r.Metadata.Intenthook
	paths := make([]string, 0, len(r.Files))
	for _, f := range r.Files {
		paths = append(paths, safetext.Quote(f.Path))
	}
	for _, p := range m.Paths {
		paths = append(paths, safetext.Quote(p))
	}
	result := m.Decision
	if m.Code != "" {
		result += " " + string(m.Code)
	}
	if !m.Success && m.Error != "" {
		result += " error: " + safetext.Clip(safetext.Flat(string(m.Error)), 60+len(safetext.Ellipsis))
	}
	// Every field is a line's or an agent's: none reaches the terminal raw.
	fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.Seq, safetext.Quote(r.Timestamp), safetext.Quote(m.Event), dash(safetext.Quote(string(m.IntentID))),
		dash(safetext.Quote(m.SessionID)), dash(safetext.Quote(m.ToolName)), dash(safetext.Quote(m.MutationClass)), dash(strings.Join(paths, ",")), dash(safetext.Quote(result)))
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (a *app) ledgerVerifyCommand() *cobra.Command {
	var asJSON bool
	var checkpoint string
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check that every record parses, seq rises by one and the hash chain holds; exit 1 on errors",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := a.workspaceRoot()
			if err != nil {
				return err
			}
			var pins []ledger.Pin
			for _, c := range strings.Split(checkpoint, ",") {
				if c = strings.TrimSpace(c); c == "" {
					continue
				}
				p, err := ledger.ParsePin(c)
				if err != nil {
					return err
				}
				pins = append(pins, p)
			}
			found := make([]bool, len(pins))
			rep := ledger.VerifyEach(root, func(line []byte) {
				for i, p := range pins {
					if !found[i] && p.Holds(line) {
						found[i] = true
					}
				}
			})
			for i, p := range pins {
				if !found[i] {
					rep.Errors = append(rep.Errors, ledger.Problem{Message: "checkpoint " + p.String() + " is not in the ledger: a line it held was removed or rewritten"})
				}
			}
			if asJSON {
				if err := a.printJSON(rep); err != nil {
					return err
				}
			} else {
				for _, p := range rep.Errors {
					fmt.Fprintf(a.stdout, "error: %s\n", safetext.Quote(p.String()))
				}
				for _, p := range rep.Forks {
					fmt.Fprintf(a.stdout, "fork: %s\n", safetext.Quote(p.String()))
				}
				for _, p := range rep.Warnings {
					fmt.Fprintf(a.stdout, "warning: %s\n", safetext.Quote(p.String()))
				}
				state := "ok"
				if !rep.OK() {
					state = fmt.Sprintf("%d error(s)", len(rep.Errors))
				}
				if len(rep.Segments) == 0 {
					fmt.Fprintf(a.stdout, "%s: %d records, tip seq %d, %d fork(s): %s\n", ledger.FileName, rep.Records, rep.Head.Seq, len(rep.Forks), state)
				} else {
					legacy := ""
					if rep.Size > 0 {
						legacy = " and " + ledger.FileName
					}
					fmt.Fprintf(a.stdout, "%s: %d records in %d segment(s)%s, tip seq %d, segment heads %s, %d fork(s): %s\n", ledger.SegmentDir, rep.Records, len(rep.Segments), legacy, rep.Head.Seq, rep.Digest, len(rep.Forks), state)
				}
			}
			if !rep.OK() {
				return exitError{exitFail}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().StringVar(&checkpoint, "checkpoint", "", "also check that the ledger still holds the line SEQ:HASH (a head verify or audit printed; several, comma-separated: every segment's head from audit --json)")
	return cmd
}

func (a *app) blameCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "blame PATH",
		Short: "Show which intents, sessions and tools changed a file, newest first",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := a.workspaceRoot()
			if err != nil {
				return err
			}
			recs, err := ledger.Blame(root, a.rootRelative(root, args[0]))
			if err != nil {
				return err
			}
			return a.printRecords(recs, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the records as JSON lines")
	return cmd
}
