package config

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/intenthook/intenthook/internal/loop"
	"github.com/intenthook/intenthook/internal/money"
	"github.com/intenthook/intenthook/internal/roles"
)

// fastParse reads settings written in a plain subset of YAML — block
// mappings, block lists of scalars, one-line flow lists and mappings, plain
// and simply quoted scalars, comments — without yaml.v3, whose first parse
// in a process costs a hook more than the rest of a Write's checks. It
// returns false for anything outside the subset (anchors, tags, escapes,
// multi-line scalars, tabs, duplicate keys, nulls, a scalar YAML would read
// as a number or bool where a string belongs, a value of the wrong shape,
// …), and parse then reads the text with yaml.v3: the subset never decides
// what the full parser would decide differently (TestFastParseAgrees holds
// them to the same settings, warnings included).
func fastParse(data []byte, c *Config) bool {
	p := &fastParser{}
	if !p.split(data) {
		return false
	}
	top, ok := p.block(-1)
	if !ok || p.pos != len(p.lines) {
		return false
	}
	if top == nil {
		return true // comments only: the defaults
	}
	if top.kind != mapNode {
		return false
	}
	f := *c
	f.Tools = maps.Clone(c.Tools) // set adds to it; c must not change if the subset gives up
	for i, key := range top.keys {
		v := top.vals[i]
		if !known(key) {
			f.Warnings = append(f.Warnings, fmt.Sprintf("%s:%d: unknown setting %q", File, top.lines[i], key))
			continue
		}
		if !f.set(key, v) {
			return false
		}
	}
	*c = f
	return true
}

// set decodes one top-level setting the way yaml.v3 decodes into Config.
func (c *Config) set(key string, v *fnode) bool {
	ok := true
	switch key {
	case "fail_mode":
		c.FailMode, ok = v.str()
	case "protect_governance_files":
		c.ProtectGovernanceFiles, ok = v.bool()
	case "protected_paths":
		c.ProtectedPaths, ok = v.strs()
	case "outside_workspace":
		c.OutsideWorkspace, ok = v.str()
	case "outside_allow":
		c.OutsideAllow, ok = v.strs()
	case "shell":
		ok = v.fields(map[string]func(*fnode) bool{
			"destructive": func(n *fnode) (ok bool) { c.Shell.Destructive, ok = n.str(); return },
			"opaque":      func(n *fnode) (ok bool) { c.Shell.Opaque, ok = n.str(); return },
			"backstop":    func(n *fnode) (ok bool) { c.Shell.Backstop, ok = n.bool(); return },
			"checks":      func(n *fnode) (ok bool) { c.Shell.Checks, ok = n.strs(); return },
		})
	case "review":
		ok = v.fields(map[string]func(*fnode) bool{
			"default": func(n *fnode) (ok bool) { c.Review.Default, ok = n.str(); return },
		})
	case "tools":
		if v.kind != mapNode {
			return false
		}
		if c.Tools == nil {
			c.Tools = map[string]string{}
		}
		for i, k := range v.keys {
			if c.Tools[k], ok = v.vals[i].str(); !ok {
				return false
			}
		}
	case "exclusive_intents":
		c.ExclusiveIntents, ok = v.bool()
	case "stale_check":
		c.StaleCheck, ok = v.bool()
	case "lessons_file":
		c.LessonsFile, ok = v.str()
	case "lessons_max":
		c.LessonsMax, ok = v.int()
	case "context_budget_bytes":
		c.ContextBudgetBytes, ok = v.int()
	case "lock_timeout":
		c.LockTimeout, ok = v.duration()
	case "ledger":
		ok = v.fields(map[string]func(*fnode) bool{
			"fsync":         func(n *fnode) (ok bool) { c.Ledger.Fsync, ok = n.bool(); return },
			"shell":         func(n *fnode) (ok bool) { c.Ledger.Shell, ok = n.str(); return },
			"segment_bytes": func(n *fnode) (ok bool) { c.Ledger.SegmentBytes, ok = n.int(); return },
		})
	case "delegation":
		ok = v.fields(map[string]func(*fnode) bool{
			"max_depth": func(n *fnode) (ok bool) { c.Delegation.MaxDepth, ok = n.int(); return },
		})
	case "people":
		ok = v.fields(map[string]func(*fnode) bool{
			"commits": func(n *fnode) (ok bool) { c.People.Commits, ok = n.str(); return },
		})
	case "loop":
		ok = v.loop(&c.Loop)
	case "roles":
		ok = v.roles(&c.Roles)
	case "export":
		ok = v.export(&c.Export)
	case "prices":
		ok = v.prices(&c.Prices)
	case "budget":
		ok = v.fields(map[string]func(*fnode) bool{
			"tokens": func(n *fnode) (ok bool) { c.Budget.Tokens, ok = n.int(); return },
			"usd":    func(n *fnode) bool { return n.amount(&c.Budget.USD) },
			"calls":  func(n *fnode) (ok bool) { c.Budget.Calls, ok = n.int(); return },
		})
	case "ask":
		ok = v.fields(map[string]func(*fnode) bool{
			"via":          func(n *fnode) (ok bool) { c.Ask.Via, ok = n.str(); return },
			"timeout":      func(n *fnode) (ok bool) { c.Ask.Timeout, ok = n.duration(); return },
			"console":      func(n *fnode) (ok bool) { c.Ask.Console, ok = n.str(); return },
			"console_cert": func(n *fnode) (ok bool) { c.Ask.ConsoleCert, ok = n.str(); return },
			"token_env":    func(n *fnode) (ok bool) { c.Ask.TokenEnv, ok = n.str(); return },
		})
	case "checks":
		ok = v.fields(map[string]func(*fnode) bool{
			"network": func(n *fnode) (ok bool) { c.Checks.Network, ok = n.str(); return },
		})
	case "claims":
		ok = v.fields(map[string]func(*fnode) bool{
			"remote": func(n *fnode) (ok bool) { c.Claims.Remote, ok = n.str(); return },
		})
	case "notify":
		ok = v.fields(map[string]func(*fnode) bool{
			"webhook_url_env": func(n *fnode) (ok bool) { c.Notify.WebhookURLEnv, ok = n.str(); return },
		})
	default:
		return false
	}
	return ok
}

func (n *fnode) loop(s *loop.Settings) bool {
	return n.fields(map[string]func(*fnode) bool{
		"repeats": func(n *fnode) (ok bool) { s.Repeats, ok = n.int(); return },
		"window":  func(n *fnode) (ok bool) { s.Window, ok = n.duration(); return },
		"action":  func(n *fnode) (ok bool) { s.Action, ok = n.str(); return },
	})
}

func (n *fnode) export(e *Export) bool {
	return n.fields(map[string]func(*fnode) bool{
		"endpoint":     func(n *fnode) (ok bool) { e.Endpoint, ok = n.str(); return },
		"protocol":     func(n *fnode) (ok bool) { e.Protocol, ok = n.str(); return },
		"records":      func(n *fnode) (ok bool) { e.Records, ok = n.str(); return },
		"when":         func(n *fnode) (ok bool) { e.When, ok = n.str(); return },
		"batch":        func(n *fnode) (ok bool) { e.Batch, ok = n.int(); return },
		"timeout":      func(n *fnode) (ok bool) { e.Timeout, ok = n.duration(); return },
		"service_name": func(n *fnode) (ok bool) { e.ServiceName, ok = n.str(); return },
	})
}

func (n *fnode) prices(ps *map[string]Price) bool {
	if n.kind != mapNode {
		return false
	}
	if *ps == nil {
		*ps = map[string]Price{}
	} else {
		*ps = maps.Clone(*ps)
	}
	for i, model := range n.keys {
		p := (*ps)[model]
		ok := n.vals[i].fields(map[string]func(*fnode) bool{
			"input":          func(n *fnode) bool { return n.amount(&p.Input) },
			"output":         func(n *fnode) bool { return n.amount(&p.Output) },
			"cache_creation": func(n *fnode) bool { return n.amount(&p.CacheCreation) },
			"cache_read":     func(n *fnode) bool { return n.amount(&p.CacheRead) },
		})
		if !ok {
			return false
		}
		(*ps)[model] = p
	}
	return true
}

// amount is a price as money.Amount reads its text: a quoted scalar, or a
// plain one of digits, a dot and a dollar sign (anything else YAML might
// read as null, a bool or another number form is left to yaml.v3).
func (n *fnode) amount(a *money.Amount) bool {
	switch {
	case n.kind == quotedNode:
	case n.kind == plainNode && n.value != "" && strings.Trim(n.value, "0123456789.$") == "":
	default:
		return false
	}
	return a.UnmarshalText([]byte(n.value)) == nil
}

func (n *fnode) roles(rs *roles.Roles) bool {
	if n.kind != mapNode {
		return false
	}
	if *rs == nil {
		*rs = roles.Roles{}
	}
	for i, name := range n.keys {
		r := (*rs)[name]
		ok := n.vals[i].fields(map[string]func(*fnode) bool{
			"tools":   func(n *fnode) (ok bool) { r.Tools, ok = n.strs(); return },
			"intents": func(n *fnode) (ok bool) { r.Intents, ok = n.strs(); return },
			"paths":   func(n *fnode) (ok bool) { r.Paths, ok = n.strs(); return },
		})
		if !ok {
			return false
		}
		(*rs)[name] = r
	}
	return true
}

// fields decodes a mapping into a struct's fields; keys the struct does not
// have are ignored, as yaml.v3 ignores them.
func (n *fnode) fields(set map[string]func(*fnode) bool) bool {
	if n.kind != mapNode {
		return false
	}
	for i, k := range n.keys {
		if f, ok := set[k]; ok && !f(n.vals[i]) {
			return false
		}
	}
	return true
}

type nodeKind uint8

const (
	plainNode  nodeKind = iota + 1 // a plain scalar
	quotedNode                     // a quoted scalar
	mapNode
	listNode
)

// fnode is a value of the subset.
type fnode struct {
	kind  nodeKind
	value string
	keys  []string // mapNode, in order
	lines []int    // each key's line
	vals  []*fnode
	items []*fnode // listNode
}

// str is a string: quoted, or plain and read by YAML as a string.
func (n *fnode) str() (string, bool) {
	switch {
	case n.kind == quotedNode:
		return n.value, true
	case n.kind == plainNode && plainString(n.value):
		return n.value, true
	}
	return "", false
}

func (n *fnode) bool() (bool, bool) {
	if n.kind == plainNode && (n.value == "true" || n.value == "false") {
		return n.value == "true", true
	}
	return false, false
}

// int is a plain decimal number without sign or leading zero.
func (n *fnode) int() (int, bool) {
	if n.kind != plainNode || n.value == "" || len(n.value) > 9 || (n.value[0] == '0' && n.value != "0") {
		return 0, false
	}
	for _, r := range n.value {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	v, err := strconv.Atoi(n.value)
	return v, err == nil
}

// duration is a Go duration with a unit ("300ms", "1h30m"): YAML reads it
// as a string, which yaml.v3 parses with time.ParseDuration.
func (n *fnode) duration() (time.Duration, bool) {
	if n.kind != plainNode && n.kind != quotedNode {
		return 0, false
	}
	s := n.value
	if s == "" || s[0] < '0' || s[0] > '9' || !strings.ContainsAny(s, "hmnsuµ") || strings.ContainsAny(s, "eE.+-_") {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	return d, err == nil
}

func (n *fnode) strs() ([]string, bool) {
	if n.kind != listNode {
		return nil, false
	}
	out := make([]string, 0, len(n.items))
	for _, it := range n.items {
		s, ok := it.str()
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// plainString reports whether YAML reads plain scalar s as a string (and
// not as a bool, null, number, or merge key), leaving out anything that
// might read otherwise.
func plainString(s string) bool {
	if s == "" {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ".inf", "-.inf", "+.inf", ".nan", "<<":
		return false
	}
	switch c := s[0]; {
	case c >= '0' && c <= '9', c == '+', c == '-':
		return false
	case c == '.' && len(s) > 1 && s[1] >= '0' && s[1] <= '9':
		return false
	}
	return true
}

// fastParser reads the text's lines, comments and blank lines dropped.
type fastParser struct {
	lines []fline
	pos   int
}

type fline struct {
	indent int
	text   string // without indentation and comment
	num    int    // 1-based
}

// split cuts data into lines, refusing what the subset leaves to yaml.v3:
// tabs, carriage returns, document markers and directives, non-ASCII
// control bytes, a byte-order mark.
func (p *fastParser) split(data []byte) bool {
	all := string(data)
	for _, r := range all {
		// What YAML reads as printable, less tabs, carriage returns and
		// what could be read another way (C1 controls, a byte-order mark).
		if r < 0x20 && r != '\n' || (r >= 0x7f && r < 0xa0) || r == 0xfeff || r >= 0xfffe && r <= 0xffff || r == utf8.RuneError {
			return false
		}
	}
	for i, raw := range strings.Split(all, "\n") {
		if strings.HasPrefix(raw, "---") || strings.HasPrefix(raw, "...") || strings.HasPrefix(raw, "%") {
			return false
		}
		text := strings.TrimLeft(raw, " ")
		indent := len(raw) - len(text)
		text, ok := stripComment(text)
		if !ok {
			return false
		}
		if text = strings.TrimRight(text, " "); text == "" {
			continue
		}
		p.lines = append(p.lines, fline{indent: indent, text: text, num: i + 1})
	}
	return true
}

// stripComment cuts a comment off a line: a # at its start or after a
// space, outside quotes. A quote the subset cannot read refuses the line.
func stripComment(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '#':
			if i == 0 || s[i-1] == ' ' {
				return s[:i], true
			}
		case '"', '\'':
			if i > 0 && s[i-1] != ' ' && s[i-1] != '[' && s[i-1] != '{' && s[i-1] != ',' {
				return "", false // a quote inside a plain scalar
			}
			end := strings.IndexByte(s[i+1:], s[i])
			if end < 0 {
				return "", false
			}
			i += end + 1
		}
	}
	return s, true
}

// block reads the block at the current line, more indented than its
// parent's key (parent -1: the top, at indentation 0, which may be empty:
// nil).
func (p *fastParser) block(parent int) (*fnode, bool) {
	if p.pos == len(p.lines) {
		return nil, parent < 0
	}
	first := p.lines[p.pos]
	if first.indent <= parent || (parent < 0 && first.indent != 0) {
		return nil, false
	}
	if strings.HasPrefix(first.text, "- ") || first.text == "-" {
		return p.list(first.indent)
	}
	return p.mapping(first.indent)
}

func (p *fastParser) list(indent int) (*fnode, bool) {
	n := &fnode{kind: listNode}
	for p.pos < len(p.lines) && p.lines[p.pos].indent == indent {
		text := p.lines[p.pos].text
		item, ok := strings.CutPrefix(text, "- ")
		if !ok || strings.HasPrefix(item, " ") {
			return nil, false
		}
		v, ok := parseScalar(item, false)
		if !ok {
			return nil, false
		}
		n.items = append(n.items, v)
		p.pos++
	}
	return n, true
}

func (p *fastParser) mapping(indent int) (*fnode, bool) {
	n := &fnode{kind: mapNode}
	seen := map[string]bool{}
	for p.pos < len(p.lines) && p.lines[p.pos].indent == indent {
		l := p.lines[p.pos]
		key, rest, ok := cutKey(l.text)
		if !ok || seen[key] {
			return nil, false
		}
		seen[key] = true
		p.pos++
		var v *fnode
		if rest == "" {
			// The value is the block below, more indented; a list may
			// also start at the key's own indentation in YAML: left to
			// yaml.v3.
			if p.pos == len(p.lines) || p.lines[p.pos].indent <= indent {
				return nil, false // null
			}
			if v, ok = p.block(indent); !ok {
				return nil, false
			}
		} else if v, ok = parseFlow(rest); !ok {
			return nil, false
		}
		n.keys, n.lines, n.vals = append(n.keys, key), append(n.lines, l.num), append(n.vals, v)
	}
	if p.pos < len(p.lines) && p.lines[p.pos].indent > indent {
		return nil, false
	}
	return n, true
}

// cutKey splits "key: rest" or "key:"; the key is plain and a string, or
// quoted.
func cutKey(s string) (key, rest string, ok bool) {
	var k string
	if s[0] == '"' || s[0] == '\'' {
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return "", "", false
		}
		k, s = s[1:end+1], s[end+2:]
		if !strings.HasPrefix(s, ":") {
			return "", "", false
		}
		s = s[1:]
	} else {
		i := strings.Index(s, ":")
		if i <= 0 {
			return "", "", false
		}
		k, s = s[:i], s[i+1:]
		if !plainString(k) || !plainKey(k) {
			return "", "", false
		}
	}
	if s != "" && s[0] != ' ' {
		return "", "", false
	}
	return k, strings.TrimLeft(s, " "), true
}

// plainKey is the characters a plain key of the subset may have.
func plainKey(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/') {
			return false
		}
	}
	return true
}

// parseFlow reads a value on a key's line: a flow list or mapping, or a
// scalar.
func parseFlow(s string) (*fnode, bool) {
	v, rest, ok := flowValue(s, 0)
	return v, ok && rest == ""
}

// maxFlowDepth bounds nesting: settings need a list in a mapping at most.
const maxFlowDepth = 3

// flowValue reads one value from the start of s at nesting depth (0 outside
// [ ] and { }; inside, , ] } end a plain scalar).
func flowValue(s string, depth int) (*fnode, string, bool) {
	if s == "" || depth > maxFlowDepth {
		return nil, "", false
	}
	inFlow := depth > 0
	switch s[0] {
	case '[':
		n := &fnode{kind: listNode, items: []*fnode{}}
		s = strings.TrimLeft(s[1:], " ")
		if strings.HasPrefix(s, "]") {
			return n, strings.TrimLeft(s[1:], " "), true
		}
		for {
			v, rest, ok := flowValue(s, depth+1)
			if !ok || v.kind == mapNode {
				return nil, "", false
			}
			n.items = append(n.items, v)
			switch {
			case strings.HasPrefix(rest, "]"):
				return n, strings.TrimLeft(rest[1:], " "), true
			case strings.HasPrefix(rest, ","):
				s = strings.TrimLeft(rest[1:], " ")
				if s == "" || s[0] == ']' {
					return nil, "", false
				}
			default:
				return nil, "", false
			}
		}
	case '{':
		n := &fnode{kind: mapNode}
		seen := map[string]bool{}
		s = strings.TrimLeft(s[1:], " ")
		if strings.HasPrefix(s, "}") {
			return n, strings.TrimLeft(s[1:], " "), true
		}
		for {
			i := strings.IndexAny(s, ":,{}[]")
			if i <= 0 || s[i] != ':' || i+1 == len(s) || s[i+1] != ' ' {
				return nil, "", false
			}
			key, _, ok := cutKey(s[:i+1])
			if !ok || seen[key] {
				return nil, "", false
			}
			seen[key] = true
			v, rest, ok := flowValue(strings.TrimLeft(s[i+1:], " "), depth+1)
			if !ok {
				return nil, "", false
			}
			n.keys, n.lines, n.vals = append(n.keys, key), append(n.lines, 0), append(n.vals, v)
			switch {
			case strings.HasPrefix(rest, "}"):
				return n, strings.TrimLeft(rest[1:], " "), true
			case strings.HasPrefix(rest, ","):
				s = strings.TrimLeft(rest[1:], " ")
				if s == "" || s[0] == '}' {
					return nil, "", false
				}
			default:
				return nil, "", false
			}
		}
	}
	end := len(s)
	if inFlow {
		end = strings.IndexAny(s, ",]}")
		if end < 0 {
			return nil, "", false
		}
	}
	v, ok := parseScalar(strings.TrimRight(s[:end], " "), inFlow)
	return v, s[end:], ok
}

// parseScalar reads a whole scalar: quoted without escapes or its own
// quote inside, or plain of the characters the subset allows.
func parseScalar(s string, inFlow bool) (*fnode, bool) {
	if s == "" {
		return nil, false
	}
	if q := s[0]; q == '"' || q == '\'' {
		if len(s) < 2 || s[len(s)-1] != q {
			return nil, false
		}
		body := s[1 : len(s)-1]
		if strings.IndexByte(body, q) >= 0 || (q == '"' && strings.IndexByte(body, '\\') >= 0) {
			return nil, false
		}
		return &fnode{kind: quotedNode, value: body}, true
	}
	// Indicators YAML gives a meaning at a plain scalar's start.
	if strings.IndexByte("-?:,[]{}#&*!|>'\"%@`", s[0]) >= 0 {
		return nil, false
	}
	if strings.Contains(s, ": ") || strings.HasSuffix(s, ":") || strings.Contains(s, " #") || (inFlow && strings.ContainsAny(s, "[]{},")) {
		return nil, false
	}
	return &fnode{kind: plainNode, value: s}, true
}
