package gate

import (
	"fmt"
	"io"
	"strings"
)

// explainer collects the chain's steps for --explain. Output is buffered so it
// comes after the decision's own stderr lines.
type explainer struct {
	w     io.Writer
	lines []string
}

func newExplainer(w io.Writer) *explainer { return &explainer{w: w} }

// step notes one step: its name, its outcome and the facts it used.
func (e *explainer) step(name, outcome string, facts ...string) {
	if e == nil || e.w == nil {
		return
	}
	e.lines = append(e.lines, fmt.Sprintf("intenthook: explain: %-22s %-8s %s", name, outcome, strings.Join(facts, " ")))
}

func (e *explainer) flush() {
	if e == nil || e.w == nil {
		return
	}
	for _, l := range e.lines {
		fmt.Fprintln(e.w, l)
	}
	e.lines = nil
}
