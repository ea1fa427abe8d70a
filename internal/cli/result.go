package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/summary"
)

// latestResult is the result on the newest record of intent id that
// carries one (a submission or a completion); nil when none does. A
// person's command: it reads the whole ledger.
func latestResult(root, id string) *summary.Result {
	var out *summary.Result
	_ = ledger.Scan(root, func(_ []byte, rec *ledger.Record, err error) error {
		if err != nil || rec == nil || rec.Intent() != id || len(rec.Metadata.Intenthook.Result) == 0 {
			return nil
		}
		var r summary.Result
		if json.Unmarshal(rec.Metadata.Intenthook.Result, &r) == nil {
			out = &r
		}
		return nil
	})
	return out
}

// printResult prints what was done under an intent. File names and
// anchors may be an agent's text: shown Go-quoted when they hold control
// characters, anchors labelled as an agent's.
func (a *app) printResult(r *summary.Result) {
	if r == nil {
		return
	}
	w := a.stdout
	fmt.Fprintf(w, "result:    submitted or completed %s", dash(r.CompletedAt))
	if r.StartedAt != "" {
		fmt.Fprintf(w, ", work started %s", r.StartedAt)
	}
	fmt.Fprintln(w)
	if len(r.Files) > 0 {
		files := make([]string, len(r.Files))
		for i, f := range r.Files {
			files[i] = safetext.Quote(f)
		}
		fmt.Fprintf(w, "  files changed (%d): %s\n", len(r.Files), strings.Join(files, ", "))
	}
	for _, c := range r.Checks {
		fmt.Fprintf(w, "  check %s: %d passed, %d failed, last %s\n", safetext.Quote(c.Command), c.Passed, c.Failed, c.Last)
	}
	counts := func(what string, m map[string]int) {
		if len(m) > 0 {
			fmt.Fprintf(w, "  %s: %s\n", what, summary.Counts(m))
		}
	}
	counts("denials", r.Denials)
	counts("violations", r.Violations)
	for _, an := range r.Anchors {
		fmt.Fprintf(w, "  anchor (written with intenthook anchor, maybe by an agent): %s\n", safetext.Quote(an))
	}
	if len(r.Sessions) > 0 {
		fmt.Fprintf(w, "  sessions: %s", strings.Join(quoteAll(r.Sessions), ", "))
		if len(r.Models) > 0 {
			fmt.Fprintf(w, " (models: %s)", strings.Join(quoteAll(r.Models), ", "))
		}
		fmt.Fprintln(w)
	}
}

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = safetext.Quote(s)
	}
	return out
}
