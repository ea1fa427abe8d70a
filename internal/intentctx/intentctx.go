// Package intentctx renders the <intent_context> XML that tells an agent what
// it is working on (SPEC §9), within a byte budget. It formats; it does not
// read the workspace: callers pass the intent and whatever related files,
// spec texts and trace records they found.
package intentctx

import (
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/safetext"
)

// SpecExcerpt is one related spec: its ref as written in the catalog and the
// file's content. Build decides how much of Text to show.
type SpecExcerpt struct {
	Ref, Text string
}

// TraceEntry is one ledger record of the intent, as shown in <recent_trace>.
type TraceEntry struct {
	Time, Tool, Path, Class string
}

// Inputs is everything Build renders.
type Inputs struct {
	Intent *intents.Intent
	// RelatedFiles come from intent_map.md, oldest first.
	RelatedFiles []string
	// Specs are in the intent's related_specs order.
	Specs []SpecExcerpt
	// Trace is the intent's recent ledger records, oldest first; only the
	// newest MaxTrace are shown.
	Trace []TraceEntry
	// Budget is the most bytes the result may have, Warning line included.
	Budget int
	// Warning, when set, is put on its own line before the XML.
	Warning string
}

const (
	// MaxTrace is how many ledger records <recent_trace> shows at most.
	MaxTrace = 10
	// SpecExcerptBytes is what a spec is cut to before specs are dropped:
	// the seed's "first 2 KB".
	SpecExcerptBytes = 2048
	// MinBudget is the smallest budget for which Build promises a result
	// within budget whatever the intent holds (given a catalog-valid id).
	MinBudget = 512

	// stringFloor is the escaped length below which single strings are not
	// cut before whole list items are dropped: a constraint cut shorter than
	// this says too little to be worth its place.
	stringFloor = 256
	ellipsis    = "…"
)

// Build renders in as <intent_context>, preceded by in.Warning on its own
// line, in at most in.Budget bytes. A nil intent gives "".
//
// When everything does not fit, Build gives things up in the order of SPEC
// §9: trace entries (oldest first); spec excerpts, first each cut to
// SpecExcerptBytes (last spec first), then dropped (last first); related
// files (oldest first). If the intent's own lists still do not fit, every
// over-long string of them (and the name) is cut with "…" to a common cap no
// lower than 256 bytes, then the longest list (in bytes) loses items from its
// end, the loss marked by <truncated count="N"/>, until it fits; last, the
// name is cut further. The id, status and version are never cut. The warning
// takes at most a third of the budget (cut with "…").
//
// For any budget ≥ MinBudget the result fits. Below that, Build does its
// best: if even the skeleton (id, status, version, the three lists reduced
// to their <truncated> markers) does not fit, the warning is dropped, and
// then the result is the bare <intent_context id=… status=… version=… />,
// which may exceed a budget that small. The result is always well-formed
// XML (after the warning line): text is escaped, invalid UTF-8 and
// characters XML forbids become U+FFFD.
func Build(in Inputs) string {
	if in.Intent == nil {
		return ""
	}
	warning := strings.TrimSpace(safetext.OneLine(in.Warning))
	if warning != "" {
		// A third of the budget leaves the skeleton room at MinBudget.
		warning = cut(warning, in.Budget/3-1, raw)
	}
	p := newPlan(in, warning)
	if p.fit(in.Budget) {
		return p.render()
	}
	if warning != "" {
		p = newPlan(in, "")
		if p.fit(in.Budget) {
			return p.render()
		}
	}
	return minimal(in.Intent)
}

func minimal(in *intents.Intent) string {
	var b strings.Builder
	b.WriteString(`<intent_context id="`)
	writeEsc(&b, in.ID, attr)
	b.WriteString(`" status="`)
	writeEsc(&b, string(in.Status), attr)
	b.WriteString(`" version="` + strconv.Itoa(in.Version) + `" />`)
	return b.String()
}

// plan holds what will be rendered and the byte size of each piece, so the
// truncation stages are arithmetic on sizes and the XML is written once.
type plan struct {
	warning               string
	id, name, status, ver string
	nameEsc               int // escaped length of name

	scope, cons, crit    group
	scopeS, consS, critS []string // their items, possibly cut
	files, specs, trace  group
	fileS                []string
	specRef, specText    []string // specText possibly cut
	specFull             []int    // escaped length of each full spec text
	traceE               []TraceEntry

	headerFixed, closeBytes int
	// limit: sizes above it are only known to be above it (see measure).
	limit int
}

// ownList is one of the intent's own lists.
type ownList struct {
	g     *group
	items []string
	inner string // the item element
}

func (p *plan) lists() [3]ownList {
	return [3]ownList{{&p.scope, p.scopeS, "pattern"}, {&p.cons, p.consS, "constraint"}, {&p.crit, p.critS, "criterion"}}
}

func newPlan(in Inputs, warning string) *plan {
	it := in.Intent
	lim := max(in.Budget, 0)
	p := &plan{
		warning: warning,
		id:      it.ID,
		name:    it.Name,
		status:  string(it.Status),
		ver:     strconv.Itoa(it.Version),
		nameEsc: measure(it.Name, attr, lim),
		limit:   lim,
	}
	p.headerFixed = len(`<intent_context id="" name="" status="" version="">`+"\n") +
		escLen(p.id, attr) + escLen(p.status, attr) + len(p.ver)
	p.closeBytes = len("</intent_context>")

	crit := make([]string, len(it.AcceptanceCriteria))
	for i, c := range it.AcceptanceCriteria {
		crit[i] = c.Description
	}
	p.scopeS = append([]string(nil), it.OwnedScope...)
	p.consS = append([]string(nil), it.Constraints...)
	p.critS = crit
	p.scope = listGroup("scope", "pattern", p.scopeS, lim)
	p.scope.always = true
	p.cons = listGroup("constraints", "constraint", p.consS, lim)
	p.crit = listGroup("acceptance_criteria", "criterion", p.critS, lim)

	p.fileS = in.RelatedFiles
	p.files = newGroup("related_files", len(p.fileS), func(i int) int {
		return len(`<file path="" />`) + measure(p.fileS[i], attr, lim)
	})

	p.specRef = make([]string, len(in.Specs))
	p.specText = make([]string, len(in.Specs))
	p.specFull = make([]int, len(in.Specs))
	for i, s := range in.Specs {
		p.specRef[i], p.specText[i] = s.Ref, s.Text
		p.specFull[i] = measure(s.Text, text, lim)
	}
	p.specs = newGroup("related_specs", len(in.Specs), func(i int) int {
		return p.specSize(i, p.specFull[i])
	})

	tr := in.Trace
	if len(tr) > MaxTrace {
		tr = tr[len(tr)-MaxTrace:]
	}
	p.traceE = tr
	p.trace = newGroup("recent_trace", len(tr), func(i int) int {
		e := tr[i]
		return len(`<entry time="" tool="" path="" class="" />`) +
			measure(e.Time, attr, lim) + measure(e.Tool, attr, lim) + measure(e.Path, attr, lim) + measure(e.Class, attr, lim)
	})
	return p
}

func (p *plan) specSize(i, textEsc int) int {
	return len(`<spec_excerpt ref=""></spec_excerpt>`) + measure(p.specRef[i], attr, p.limit) + textEsc
}

func listGroup(outer, inner string, items []string, lim int) group {
	return newGroup(outer, len(items), func(i int) int {
		return 2*len(inner) + len("<></>") + measure(items[i], text, lim)
	})
}

func (p *plan) total() int {
	n := p.headerFixed + p.nameEsc + p.closeBytes
	for _, g := range p.groups() {
		n += g.bytes()
	}
	if p.warning != "" {
		n += len(p.warning) + 1
	}
	return n
}

func (p *plan) groups() [6]*group {
	return [6]*group{&p.scope, &p.cons, &p.crit, &p.files, &p.specs, &p.trace}
}

// fit runs the truncation stages until the plan fits budget, and reports
// whether it does.
func (p *plan) fit(budget int) bool {
	over := func() bool { return p.total() > budget }

	for over() && p.trace.len() > 0 {
		p.trace.dropFirst()
	}
	for i := p.specs.to - 1; i >= 0 && over(); i-- {
		if len(p.specText[i]) > SpecExcerptBytes {
			p.specText[i] = cut(p.specText[i], SpecExcerptBytes, raw)
			p.specs.resize(i, p.specSize(i, escLen(p.specText[i], text)))
		}
	}
	for over() && p.specs.len() > 0 {
		p.specs.dropLast()
	}
	for over() && p.files.len() > 0 {
		p.files.dropFirst()
	}
	if over() {
		p.capStrings(budget)
	}
	for over() {
		g := p.longestList()
		if g == nil {
			break
		}
		g.marked = true
		g.dropLast()
	}
	if over() {
		p.name = cut(p.name, p.nameEsc-(p.total()-budget), attr)
		p.nameEsc = escLen(p.name, attr)
	}
	return !over()
}

// capStrings cuts the name and the intent's list items that are longer than
// a common cap: the largest that makes everything fit, but not below
// stringFloor. Capping all long strings alike keeps every item's beginning
// instead of letting one 100 KB constraint push out all the others.
func (p *plan) capStrings(budget int) {
	type str struct {
		s   *string
		esc int
		g   *group // nil for the name
		i   int
	}
	var strs []str
	strs = append(strs, str{s: &p.name, esc: p.nameEsc})
	for _, l := range p.lists() {
		wrap := 2*len(l.inner) + len("<></>")
		for i := range l.items {
			strs = append(strs, str{s: &l.items[i], esc: l.g.sizes[i] - wrap, g: l.g, i: i})
		}
	}
	longest, sum := 0, 0
	for _, s := range strs {
		longest = max(longest, s.esc)
		sum += s.esc
	}
	if longest <= stringFloor {
		return
	}
	base := p.total() - sum
	// size(c) bounds the total with every string capped at c: a cut string
	// is at most c bytes, "…" included.
	size := func(c int) int {
		n := base
		for _, s := range strs {
			n += min(s.esc, c)
		}
		return n
	}
	c := stringFloor
	if size(c) <= budget {
		lo, hi := stringFloor, longest // size(lo) fits, size(hi) does not
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if size(mid) <= budget {
				lo = mid
			} else {
				hi = mid
			}
		}
		c = lo
	}
	for _, s := range strs {
		if s.esc <= c {
			continue
		}
		if s.g == nil {
			p.name = cut(p.name, c, attr)
			p.nameEsc = escLen(p.name, attr)
			continue
		}
		*s.s = cut(*s.s, c, text)
		s.g.resize(s.i, s.g.sizes[s.i]-s.esc+escLen(*s.s, text))
	}
}

// longestList is the intent list with items left that takes the most bytes.
func (p *plan) longestList() *group {
	var best *group
	for _, l := range p.lists() {
		if g := l.g; g.len() > 0 && (best == nil || g.bytes() > best.bytes()) {
			best = g
		}
	}
	return best
}

func (p *plan) render() string {
	var b strings.Builder
	b.Grow(p.total())
	if p.warning != "" {
		b.WriteString(p.warning + "\n")
	}
	b.WriteString(`<intent_context id="`)
	writeEsc(&b, p.id, attr)
	b.WriteString(`" name="`)
	writeEsc(&b, p.name, attr)
	b.WriteString(`" status="`)
	writeEsc(&b, p.status, attr)
	b.WriteString(`" version="` + p.ver + `">` + "\n")

	for _, l := range p.lists() {
		l.g.render(&b, func(i int) {
			b.WriteString("<" + l.inner + ">")
			writeEsc(&b, l.items[i], text)
			b.WriteString("</" + l.inner + ">")
		})
	}
	p.files.render(&b, func(i int) {
		b.WriteString(`<file path="`)
		writeEsc(&b, p.fileS[i], attr)
		b.WriteString(`" />`)
	})
	p.specs.render(&b, func(i int) {
		b.WriteString(`<spec_excerpt ref="`)
		writeEsc(&b, p.specRef[i], attr)
		b.WriteString(`">`)
		writeEsc(&b, p.specText[i], text)
		b.WriteString(`</spec_excerpt>`)
	})
	p.trace.render(&b, func(i int) {
		e := p.traceE[i]
		for _, a := range [4][2]string{{"time", e.Time}, {"tool", e.Tool}, {"path", e.Path}, {"class", e.Class}} {
			if a[0] == "time" {
				b.WriteString("<entry ")
			} else {
				b.WriteString(" ")
			}
			b.WriteString(a[0] + `="`)
			writeEsc(&b, a[1], attr)
			b.WriteString(`"`)
		}
		b.WriteString(" />")
	})
	b.WriteString("</intent_context>")
	return b.String()
}

// group is one line of the context: an element holding a window
// [from, to) of its items, with the rendered size of each item.
type group struct {
	tag      string
	sizes    []int
	from, to int
	sum      int // sizes of the items shown
	// always: rendered as <tag /> when empty (scope is always present).
	always bool
	// marked: items were cut from the end, which a <truncated count="N"/>
	// records (the intent's own lists only).
	marked bool
}

func newGroup(tag string, n int, size func(int) int) group {
	g := group{tag: tag, sizes: make([]int, n), to: n}
	for i := range g.sizes {
		g.sizes[i] = size(i)
		g.sum += g.sizes[i]
	}
	return g
}

func (g *group) len() int { return g.to - g.from }

func (g *group) dropFirst() { g.sum -= g.sizes[g.from]; g.from++ }

func (g *group) dropLast() { g.to--; g.sum -= g.sizes[g.to] }

func (g *group) resize(i, size int) {
	if i >= g.from && i < g.to {
		g.sum += size - g.sizes[i]
	}
	g.sizes[i] = size
}

func (g *group) dropped() int {
	if !g.marked {
		return 0
	}
	return len(g.sizes) - g.to
}

func (g *group) marker() string {
	if n := g.dropped(); n > 0 {
		return `<truncated count="` + strconv.Itoa(n) + `"/>`
	}
	return ""
}

// markerLen is len(g.marker()), without building it: the list-cutting
// stage asks for it once per item dropped.
func (g *group) markerLen() int {
	n := g.dropped()
	if n == 0 {
		return 0
	}
	digits := 1
	for ; n >= 10; n /= 10 {
		digits++
	}
	return len(`<truncated count=""/>`) + digits
}

func (g *group) bytes() int {
	if g.len() == 0 && g.dropped() == 0 {
		if g.always {
			return len("  < />\n") + len(g.tag)
		}
		return 0
	}
	return len("  <></>\n") + 2*len(g.tag) + g.sum + g.markerLen()
}

func (g *group) render(b *strings.Builder, item func(int)) {
	if g.len() == 0 && g.dropped() == 0 {
		if g.always {
			b.WriteString("  <" + g.tag + " />\n")
		}
		return
	}
	b.WriteString("  <" + g.tag + ">")
	for i := g.from; i < g.to; i++ {
		item(i)
	}
	b.WriteString(g.marker() + "</" + g.tag + ">\n")
}
