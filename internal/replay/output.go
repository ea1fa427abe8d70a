package replay

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/intenthook/intenthook/internal/money"
	"github.com/intenthook/intenthook/internal/safetext"
)

// Text writes the report for a terminal: the totals, each changed
// outcome's groups, then the counts by intent and by agent. Paths and
// names with control characters are Go-quoted.
func (r *Report) Text(w io.Writer) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "replay of %s against %s: %d write(s) in %d record(s), %d distinct verdict(s)\n", r.Range, r.Candidate, r.Writes, r.Records, r.Verdicts)
	fmt.Fprintf(&b, "newly denied: %d, newly allowed: %d, unchanged: %d, under removed intents: %d\n",
		r.NewlyDenied.Count, r.NewlyAllowed.Count, r.Unchanged.Count, r.RemovedIntents.Count)
	for _, s := range []struct {
		title string
		b     *Bucket
	}{
		{"newly denied (writes that happened; the candidate would refuse them)", &r.NewlyDenied},
		{"newly allowed (denials the candidate would have let through)", &r.NewlyAllowed},
		{"under intents the candidate removed (not judged)", &r.RemovedIntents},
	} {
		if s.b.Count == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s:\n", s.title)
		for _, it := range s.b.Items {
			fmt.Fprintf(&b, "  %s %s: %d write(s), recorded %s, candidate %s; sessions %s; agents %s; %s\n",
				orNone(safetext.Quote(it.Intent)), safetext.Quote(it.Path), it.Writes, it.Recorded, it.Would,
				strings.Join(safetext.QuoteAll(it.Sessions), ", "), strings.Join(safetext.QuoteAll(it.Agents), ", "), span(it))
		}
		if s.b.More > 0 {
			fmt.Fprintf(&b, "  … and %d more group(s)\n", s.b.More)
		}
	}
	for _, br := range r.Budgets {
		br.text(&b)
	}
	for _, s := range []struct {
		title string
		ts    []Tally
	}{{"by intent", r.ByIntent}, {"by agent", r.ByAgent}} {
		if len(s.ts) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s:\n", s.title)
		for _, t := range s.ts {
			fmt.Fprintf(&b, "  %s: newly denied %d, newly allowed %d, unchanged %d, removed %d\n", safetext.Quote(t.Name), t.NewlyDenied, t.NewlyAllowed, t.Unchanged, t.RemovedIntents)
		}
	}
	w.Write(b.Bytes())
}

func span(it *Item) string {
	if it.First == it.Last {
		return it.First
	}
	return it.First + " to " + it.Last
}

// Markdown writes the report for a pull request: the totals, then the
// changed groups, the largest first (the report's limit caps them).
func (r *Report) Markdown(w io.Writer) {
	var b bytes.Buffer
	b.WriteString("### intenthook replay: what these rules would have done\n\n")
	fmt.Fprintf(&b, "%s against %s: %d write(s) in %d record(s).\n\n", text(r.Range), text(r.Candidate), r.Writes, r.Records)
	b.WriteString("| newly denied | newly allowed | unchanged | under removed intents |\n| --- | --- | --- | --- |\n")
	fmt.Fprintf(&b, "| %d | %d | %d | %d |\n", r.NewlyDenied.Count, r.NewlyAllowed.Count, r.Unchanged.Count, r.RemovedIntents.Count)
	if !r.Changed() {
		b.WriteString("\nThe candidate rules decide every recorded write as it was decided.\n")
		w.Write(b.Bytes())
		return
	}
	b.WriteString("\n| outcome | intent | path | writes | recorded | candidate | sessions | when |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	more := 0
	for _, s := range []struct {
		name string
		b    *Bucket
	}{{"newly denied", &r.NewlyDenied}, {"newly allowed", &r.NewlyAllowed}, {"removed intent", &r.RemovedIntents}} {
		for _, it := range s.b.Items {
			fmt.Fprintf(&b, "| %s | `%s` | `%s` | %d | %s | %s | %s | %s |\n", s.name, cell(orNone(it.Intent)), cell(it.Path), it.Writes,
				text(it.Recorded), text(it.Would), text(strings.Join(it.Sessions, ", ")), text(span(it)))
		}
		more += s.b.More
	}
	if more > 0 {
		fmt.Fprintf(&b, "\n%d more group(s) changed; `intenthook replay` lists them all.\n", more)
	}
	w.Write(b.Bytes())
}

// text is s as Markdown text, in a table cell or not.
func text(s string) string { return safetext.Markdown(safetext.Quote(s)) }

// cell is s in a Markdown table cell, inside backticks.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "`", "'", "<", "&lt;", ">", "&gt;").Replace(safetext.Quote(s))
}

// text writes what one budget would have stopped.
func (br *BudgetReport) text(b *bytes.Buffer) {
	var limits []string
	for _, l := range br.Budget {
		limits = append(limits, l.Kind+" "+l.Limit)
	}
	fmt.Fprintf(b, "\nbudget %s (%s): the records replayed spent %s\n", safetext.Quote(br.Intent), strings.Join(limits, ", "), br.Spent)
	if br.FirstRefused == nil {
		b.WriteString("  it would have stopped nothing\n")
		return
	}
	fmt.Fprintf(b, "  first refused (budget_exceeded): %s\n", br.FirstRefused)
	fmt.Fprintf(b, "  refused from there: %d call(s), %d let through (they write nothing); from there on the calls spent %s\n", br.Refused, br.Passed, br.After)
	for _, c := range br.Calls {
		fmt.Fprintf(b, "    %s\n", c)
	}
	if br.More > 0 {
		fmt.Fprintf(b, "    … and %d more\n", br.More)
	}
}

// String is "3 call(s), 1113 token(s), $0.01".
func (s Spend) String() string {
	return fmt.Sprintf("%d call(s), %d token(s), %s", s.Calls, s.Tokens, money.Format(int64(s.USD)))
}

// String is one refused call: when, which session, the tool and what it
// wrote or ran, and the spend reached.
func (c *BudgetCall) String() string {
	what := strings.Join(safetext.QuoteAll(c.Paths), ", ")
	if c.Command != "" {
		what = safetext.Quote(c.Command)
	}
	return fmt.Sprintf("%s session %s %s %s (reached %s)", c.When, safetext.Quote(c.Session), safetext.Quote(c.Tool), what, c.Reached)
}
