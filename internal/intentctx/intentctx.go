// Package intentctx renders the <intent_context> XML that tells an agent what
// it is working on (SPEC §9). It formats; it does not read the workspace:
// callers pass the intent and whatever related files and trace they found.
package intentctx

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/intents"
)

// Build renders in as <intent_context>, within budget bytes. Until the
// budgeted builder arrives, lists are cut from the end when over budget.
func Build(in *intents.Intent, budget int) string {
	var b strings.Builder
	b.WriteString(`<intent_context id="` + esc(in.ID) + `" name="` + esc(in.Name) + `" status="` + esc(string(in.Status)) + `" version="` + strconv.Itoa(in.Version) + `">` + "\n")
	list(&b, "scope", "pattern", in.OwnedScope)
	list(&b, "constraints", "constraint", in.Constraints)
	var crit []string
	for _, c := range in.AcceptanceCriteria {
		crit = append(crit, c.Description)
	}
	list(&b, "acceptance_criteria", "criterion", crit)
	b.WriteString("</intent_context>")
	out := b.String()
	if len(out) <= budget {
		return out
	}
	// Over budget: keep the head and close the element so it stays well-formed.
	tail := "\n  <truncated/>\n</intent_context>"
	cut := strings.LastIndex(out[:budget-len(tail)], "\n")
	if cut < 0 {
		return ""
	}
	return out[:cut] + tail
}

func list(b *strings.Builder, outer, inner string, items []string) {
	if len(items) == 0 {
		b.WriteString("  <" + outer + " />\n")
		return
	}
	b.WriteString("  <" + outer + ">")
	for _, it := range items {
		b.WriteString("<" + inner + ">" + esc(it) + "</" + inner + ">")
	}
	b.WriteString("</" + outer + ">\n")
}

func esc(s string) string {
	var buf bytes.Buffer
	_ = xml.EscapeText(&buf, []byte(s))
	return buf.String()
}
