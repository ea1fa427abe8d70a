package glob

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Containment decides whether every path one pattern matches is also
// matched by at least one pattern of a set: whether a child intent's
// owned_scope pattern lies within its parent's owned_scope.
//
// A pattern of this dialect denotes a regular language, so the question is
// decidable: each pattern becomes a small automaton (over an alphabet of
// rune intervals that the patterns' literals and classes refine), and a
// search through the product of the child's automaton, the subset
// construction of the parents' and an automaton of well-formed paths (no
// leading or doubled '/', no "." or ".." segment, not empty) looks for a
// path the child matches and no parent does. Restricting the search to
// paths matters: `src/*` and `src/?*` differ only on "src/", which no file
// is called.
//
// What is left undecided (Decided false, with the reason) is what the
// automaton would model less exactly than gobwas matches, or would take too
// long: a `**` right before a `{…}` group or right after one (gobwas then
// applies its globstar rewrite on a tree this construction does not
// mirror), a character class of a shape other than a list or one range, a
// pattern gobwas would not compile, and a search past maxStates states.
type Containment struct {
	// Decided is false when the procedure could not answer; Reason says why.
	Decided bool
	Reason  string
	// Covered: every path child matches is matched by a parent pattern.
	Covered bool
	// Witness, when Decided and not Covered, is a path child matches and
	// none of the parents does.
	Witness string
}

// maxStates bounds the product search: owned_scope patterns are short, and
// a search this large means patterns no one writes by hand.
const maxStates = 20000

// Within decides whether child's paths all lie within the union of parents'.
func Within(child string, parents []string) Containment {
	c, err := parseLang(child)
	if err != nil {
		return Containment{Reason: fmt.Sprintf("%q: %v", child, err)}
	}
	ps := make([]*lang, 0, len(parents))
	for _, p := range parents {
		l, err := parseLang(p)
		if err != nil {
			return Containment{Reason: fmt.Sprintf("%q: %v", p, err)}
		}
		ps = append(ps, l)
	}
	return search(c, ps)
}

// node is one element of a parsed pattern.
type node struct {
	kind  nodeKind
	r     rune     // lit
	class *class   // cls
	alts  [][]node // group
}

type nodeKind int

const (
	lit     nodeKind = iota
	single           // ?: one rune, not '/'
	star             // *: runes other than '/'
	super            // **: any runes
	cls              // [...]
	group            // {a,b}
	globDir          // the globstar `**/` at a segment start: nothing, or any runes then '/'
)

// class is a character class: one range, or a list of runes, maybe negated.
// gobwas lets a negated class match '/'.
type class struct {
	not    bool
	ranges [][2]rune
}

func (c *class) has(r rune) bool {
	in := false
	for _, rg := range c.ranges {
		if r >= rg[0] && r <= rg[1] {
			in = true
			break
		}
	}
	return in != c.not
}

// lang is one pattern: the alternatives it matches (the pattern, and for
// "p/**" the pattern p too, as Pattern.Match adds).
type lang struct {
	seqs [][]node
}

type parser struct {
	s   string
	pos int
}

func parseLang(text string) (*lang, error) {
	if !utf8.ValidString(text) {
		return nil, fmt.Errorf("invalid UTF-8")
	}
	p := &parser{s: text}
	seq, err := p.seq(false)
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.s) {
		return nil, fmt.Errorf("unexpected %q at byte %d", p.s[p.pos], p.pos)
	}
	seq, err = globstar(seq)
	if err != nil {
		return nil, err
	}
	l := &lang{seqs: [][]node{seq}}
	if dir, ok := strings.CutSuffix(text, "/**"); ok {
		d, err := (&parser{s: dir}).seq(false)
		if err != nil {
			return nil, err
		}
		if d, err = globstar(d); err != nil {
			return nil, err
		}
		l.seqs = append(l.seqs, d)
	}
	return l, nil
}

// seq parses nodes up to the end, or inside a group up to ',' or '}'. It
// follows gobwas's lexer: '}' and ',' are literal outside groups, '\'
// escapes any rune, and a run of stars with two or more in it is `**`.
func (p *parser) seq(inGroup bool) ([]node, error) {
	var out []node
	for p.pos < len(p.s) {
		r, w := utf8.DecodeRuneInString(p.s[p.pos:])
		switch {
		case inGroup && (r == ',' || r == '}'):
			return out, nil
		case r == '{':
			p.pos += w
			g, err := p.group()
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		case r == '[':
			p.pos += w
			c, err := p.class()
			if err != nil {
				return nil, err
			}
			out = append(out, node{kind: cls, class: c})
		case r == '?':
			p.pos += w
			out = append(out, node{kind: single})
		case r == '*':
			n := 0
			for p.pos < len(p.s) && p.s[p.pos] == '*' {
				p.pos++
				n++
			}
			k := star
			if n > 1 {
				k = super
			}
			out = append(out, node{kind: k})
		case r == '\\':
			p.pos += w
			if p.pos == len(p.s) {
				return nil, fmt.Errorf("trailing backslash")
			}
			r, w = utf8.DecodeRuneInString(p.s[p.pos:])
			p.pos += w
			out = append(out, node{kind: lit, r: r})
		default:
			p.pos += w
			out = append(out, node{kind: lit, r: r})
		}
	}
	if inGroup {
		return nil, fmt.Errorf("unclosed {")
	}
	return out, nil
}

func (p *parser) group() (node, error) {
	g := node{kind: group}
	for {
		alt, err := p.seq(true)
		if err != nil {
			return node{}, err
		}
		g.alts = append(g.alts, alt)
		c := p.s[p.pos]
		p.pos++
		if c == '}' {
			return g, nil
		}
	}
}

// class parses what follows '[' the way gobwas's lexer does: an optional
// '!', then either lo-hi or a list of runes up to ']'.
func (p *parser) class() (*class, error) {
	c := &class{}
	if strings.HasPrefix(p.s[p.pos:], "!") {
		c.not = true
		p.pos++
	}
	lo, w := utf8.DecodeRuneInString(p.s[p.pos:])
	if w > 0 && strings.HasPrefix(p.s[p.pos+w:], "-") {
		p.pos += w + 1
		hi, w2 := utf8.DecodeRuneInString(p.s[p.pos:])
		if w2 == 0 || hi < lo {
			return nil, fmt.Errorf("a character class range of a shape this check does not model")
		}
		p.pos += w2
		c.ranges = append(c.ranges, [2]rune{lo, hi})
	} else {
		for p.pos < len(p.s) && p.s[p.pos] != ']' {
			r, w := utf8.DecodeRuneInString(p.s[p.pos:])
			if r == '\\' {
				p.pos += w
				if p.pos == len(p.s) {
					break
				}
				r, w = utf8.DecodeRuneInString(p.s[p.pos:])
			}
			p.pos += w
			c.ranges = append(c.ranges, [2]rune{r, r})
		}
		if len(c.ranges) == 0 {
			return nil, fmt.Errorf("an empty character class")
		}
	}
	if !strings.HasPrefix(p.s[p.pos:], "]") {
		return nil, fmt.Errorf("a character class of a shape this check does not model")
	}
	p.pos++
	return c, nil
}

// globstar applies gobwas's globstar rewrite: a `**` at the start of a
// segment followed by a literal '/' matches nothing, or any runes then '/'.
// Whether a position is a segment start: the pattern's start, after a
// literal '/', and after a group all of whose alternatives end at one.
func globstar(seq []node) ([]node, error) {
	out, _, err := rewrite(seq, true)
	return out, err
}

func rewrite(seq []node, start bool) ([]node, bool, error) {
	var out []node
	for i := 0; i < len(seq); i++ {
		n := seq[i]
		if n.kind == super && (i+1 < len(seq) && seq[i+1].kind == group || i > 0 && seq[i-1].kind == group) {
			return nil, false, fmt.Errorf("a ** next to a {…} group")
		}
		switch n.kind {
		case super:
			if start && i+1 < len(seq) && seq[i+1].kind == lit && seq[i+1].r == '/' {
				out = append(out, node{kind: globDir})
				i++ // the '/' is part of it; start stays true
				continue
			}
			start = false
		case lit:
			start = n.r == '/'
		case group:
			end := true
			alts := make([][]node, len(n.alts))
			for j, a := range n.alts {
				var e bool
				var err error
				if alts[j], e, err = rewrite(a, start); err != nil {
					return nil, false, err
				}
				end = end && e
			}
			n = node{kind: group, alts: alts}
			start = end
		default:
			start = false
		}
		out = append(out, n)
	}
	return out, start, nil
}

// The alphabet: rune intervals such that every literal, class and '/' of
// the patterns either holds all of an interval or none of it.
type alphabet struct {
	lo    []rune // interval i is [lo[i], lo[i+1]-1]; the last one runs to utf8.MaxRune
	slash int
	dot   int
	order []int // the symbols, best spelled first
}

func newAlphabet(ls []*lang) *alphabet {
	cuts := map[rune]bool{0: true}
	add := func(lo, hi rune) {
		cuts[lo] = true
		if hi < utf8.MaxRune {
			cuts[hi+1] = true
		}
	}
	add('/', '/')
	add('.', '.')
	var walk func(seq []node)
	walk = func(seq []node) {
		for _, n := range seq {
			switch n.kind {
			case lit:
				add(n.r, n.r)
			case cls:
				for _, rg := range n.class.ranges {
					add(rg[0], rg[1])
				}
			case group:
				for _, a := range n.alts {
					walk(a)
				}
			}
		}
	}
	for _, l := range ls {
		for _, s := range l.seqs {
			walk(s)
		}
	}
	a := &alphabet{}
	for r := range cuts {
		a.lo = append(a.lo, r)
	}
	slices.Sort(a.lo)
	a.slash, _ = slices.BinarySearch(a.lo, '/')
	a.dot, _ = slices.BinarySearch(a.lo, '.')
	// The search tries symbols whose runes read well first, so that a
	// witness is spelled with letters where it can be.
	rank := func(i int) int {
		if k := strings.IndexRune(nice, a.rep(i)); k >= 0 {
			return k
		}
		return len(nice)
	}
	for i := range a.lo {
		a.order = append(a.order, i)
	}
	slices.SortStableFunc(a.order, func(i, j int) int { return rank(i) - rank(j) })
	return a
}

// nice lists the runes a witness is best spelled with, best first.
const nice = "xyzabcdefghijklmnopqrstuvw0123456789XYZ_-./"

// rep is a rune of interval i to show in a witness: a letter or digit when
// the interval has one.
func (a *alphabet) rep(i int) rune {
	lo, hi := a.lo[i], rune(utf8.MaxRune)
	if i+1 < len(a.lo) {
		hi = a.lo[i+1] - 1
	}
	for _, r := range nice {
		if r >= lo && r <= hi {
			return r
		}
	}
	return lo
}

// nfa is an automaton with epsilon moves; edges test a symbol (interval).
type nfa struct {
	eps    [][]int
	edges  [][]edge
	accept []bool
	starts []int
}

type edge struct {
	kind  nodeKind // lit, single, star, super, cls
	r     rune
	class *class
	to    int
}

func (m *nfa) state() int {
	m.eps = append(m.eps, nil)
	m.edges = append(m.edges, nil)
	m.accept = append(m.accept, false)
	return len(m.eps) - 1
}

// add builds l into m (Thompson's construction), one start per alternative.
func (m *nfa) add(l *lang) {
	for _, seq := range l.seqs {
		s := m.state()
		m.starts = append(m.starts, s)
		m.accept[m.build(seq, s)] = true
	}
}

func (m *nfa) build(seq []node, from int) int {
	for _, n := range seq {
		switch n.kind {
		case lit, single, cls:
			to := m.state()
			m.edges[from] = append(m.edges[from], edge{kind: n.kind, r: n.r, class: n.class, to: to})
			from = to
		case star, super:
			s := m.state()
			m.eps[from] = append(m.eps[from], s)
			m.edges[s] = append(m.edges[s], edge{kind: n.kind, to: s})
			from = s
		case globDir:
			s := m.state()
			m.eps[from] = append(m.eps[from], s)
			m.edges[s] = append(m.edges[s], edge{kind: super, to: s})
			end := m.state()
			m.edges[s] = append(m.edges[s], edge{kind: lit, r: '/', to: end})
			m.eps[from] = append(m.eps[from], end)
			from = end
		case group:
			end := m.state()
			for _, alt := range n.alts {
				s := m.state()
				m.eps[from] = append(m.eps[from], s)
				e := m.build(alt, s)
				m.eps[e] = append(m.eps[e], end)
			}
			from = end
		}
	}
	return from
}

// matches reports whether edge e accepts symbol i of alphabet a.
func (a *alphabet) matches(e edge, i int) bool {
	switch e.kind {
	case lit:
		return a.lo[i] == e.r && (i+1 == len(a.lo) || a.lo[i+1] == e.r+1)
	case single, star:
		return i != a.slash
	case super:
		return true
	case cls:
		return e.class.has(a.lo[i])
	}
	return false
}

func (m *nfa) closure(set []int) []int {
	seen := map[int]bool{}
	var out []int
	stack := slices.Clone(set)
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
		stack = append(stack, m.eps[s]...)
	}
	slices.Sort(out)
	return out
}

// Paths: the automaton of well-formed root-relative paths. States: at a
// segment's start (initial), in a segment reading "." or "..", in an
// ordinary segment (accepting), dead.
const (
	pathStart = iota
	pathDot
	pathDotDot
	pathSeg
	pathDead
)

func pathStep(s int, a *alphabet, i int) int {
	switch {
	case s == pathDead:
		return pathDead
	case i == a.slash:
		if s == pathSeg {
			return pathStart
		}
		return pathDead
	case i == a.dot:
		switch s {
		case pathStart:
			return pathDot
		case pathDot:
			return pathDotDot
		}
		return pathSeg
	}
	return pathSeg
}

// search looks for a path the child matches and no parent does.
func search(child *lang, parents []*lang) Containment {
	a := newAlphabet(append([]*lang{child}, parents...))
	var cm, pm nfa
	cm.add(child)
	for _, p := range parents {
		pm.add(p)
	}
	// Parent subsets are interned: id -> sorted states.
	var sets [][]int
	setID := map[string]int{}
	intern := func(s []int) int {
		k := fmt.Sprint(s)
		if id, ok := setID[k]; ok {
			return id
		}
		sets = append(sets, s)
		setID[k] = len(sets) - 1
		return len(sets) - 1
	}
	type step struct{ set, sym int }
	moves := map[step]int{}
	move := func(set, sym int) int {
		if id, ok := moves[step{set, sym}]; ok {
			return id
		}
		var next []int
		for _, s := range sets[set] {
			for _, e := range pm.edges[s] {
				if a.matches(e, sym) {
					next = append(next, e.to)
				}
			}
		}
		id := intern(pm.closure(next))
		moves[step{set, sym}] = id
		return id
	}
	accepts := func(set int) bool {
		return slices.ContainsFunc(sets[set], func(s int) bool { return pm.accept[s] })
	}

	prev := map[prod]back{}
	start := intern(pm.closure(pm.starts))
	var queue []prod
	for _, s := range cm.starts {
		q := prod{s, start, pathStart}
		if _, ok := prev[q]; !ok {
			prev[q] = back{from: q, sym: -2}
			queue = append(queue, q)
		}
	}
	for len(queue) > 0 {
		if len(prev) > maxStates {
			return Containment{Reason: fmt.Sprintf("the search passed %d states", maxStates)}
		}
		q := queue[0]
		queue = queue[1:]
		if cm.accept[q.c] && q.path == pathSeg && !accepts(q.p) {
			return Containment{Decided: true, Witness: witness(a, prev, q)}
		}
		visit := func(n prod, sym int) {
			if _, ok := prev[n]; !ok {
				prev[n] = back{from: q, sym: sym}
				queue = append(queue, n)
			}
		}
		for _, s := range cm.eps[q.c] {
			visit(prod{s, q.p, q.path}, -1)
		}
		for _, e := range cm.edges[q.c] {
			for _, sym := range a.order {
				if !a.matches(e, sym) {
					continue
				}
				path := pathStep(q.path, a, sym)
				if path == pathDead {
					continue
				}
				visit(prod{e.to, move(q.p, sym), path}, sym)
			}
		}
	}
	return Containment{Decided: true, Covered: true}
}

// prod is a state of the product search: the child's automaton state, the
// parents' subset and the path automaton's state.
type prod struct{ c, p, path int }

// back is how the search reached a state: from which, on which symbol (-1:
// an epsilon move of the child, -2: a start).
type back struct {
	from prod
	sym  int
}

// witness spells the path the search followed to q.
func witness(a *alphabet, prev map[prod]back, q prod) string {
	var rs []rune
	for b := prev[q]; b.sym != -2; b = prev[b.from] {
		if b.sym >= 0 {
			rs = append(rs, a.rep(b.sym))
		}
	}
	slices.Reverse(rs)
	return string(rs)
}
