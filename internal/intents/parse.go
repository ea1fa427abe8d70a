//go:build !noyaml

package intents

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/intenthook/intenthook/internal/money"
)

// Parse parses catalog bytes. It fails only when data is not YAML; every other
// defect is a Problem, and the intents without errors stay usable.
func Parse(data []byte) (*Catalog, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotYAML, err)
	}
	c := &Catalog{}
	for _, n := range catalogList(c, &doc) {
		c.list = append(c.list, parseIntent(n))
	}
	setLineStarts(data, c.list)
	c.index()
	validateCatalog(c)
	for _, in := range c.list {
		c.Problems = append(c.Problems, in.Problems...)
	}
	sortProblems(c.Problems)
	return c, nil
}

// catalogList finds the active_intents sequence, recording a problem when the
// document does not have that shape.
func catalogList(c *Catalog, doc *yaml.Node) []*yaml.Node {
	bad := func(line int, msg string) []*yaml.Node {
		c.Problems = append(c.Problems, Problem{Line: line, Severity: Error, Message: msg})
		return nil
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return bad(1, "catalog is empty: expected a top-level active_intents list")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return bad(root.Line, "expected a mapping with the key active_intents")
	}
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value == "active_intents" {
			list = v
			continue
		}
		c.Problems = append(c.Problems, Problem{Line: k.Line, Severity: Warning, Message: fmt.Sprintf("unknown top-level key %q", k.Value)})
	}
	if list == nil {
		return bad(root.Line, "missing key active_intents")
	}
	if list.Kind == yaml.ScalarNode && list.Tag == "!!null" {
		return nil
	}
	if list.Kind != yaml.SequenceNode {
		return bad(list.Line, "active_intents must be a list")
	}
	var out []*yaml.Node
	for _, n := range list.Content {
		if n.Kind != yaml.MappingNode {
			c.Problems = append(c.Problems, Problem{Line: n.Line, Severity: Error, Message: "each intent must be a mapping"})
			continue
		}
		out = append(out, n)
	}
	return out
}

// intentParser decodes one intent mapping, collecting problems as it goes.
type intentParser struct {
	in   *Intent
	seen map[string]bool
}

func (p *intentParser) problem(line int, sev Severity, format string, args ...any) {
	p.in.Problems = append(p.in.Problems, Problem{Line: line, ID: p.in.ID, Severity: sev, Message: fmt.Sprintf(format, args...)})
}

func parseIntent(n *yaml.Node) *Intent {
	p := &intentParser{in: &Intent{Line: n.Line, Version: 1}, seen: map[string]bool{}}
	// The id first, so that every problem names it.
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "id" {
			_ = n.Content[i+1].Decode(&p.in.ID)
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		p.field(n.Content[i], n.Content[i+1])
	}
	p.required()
	return p.in
}

func (p *intentParser) field(k, v *yaml.Node) {
	in := p.in
	if p.seen[k.Value] {
		p.problem(k.Line, Error, "duplicate key %q", k.Value)
		return
	}
	p.seen[k.Value] = true
	switch k.Value {
	case "id":
		p.str(v, &in.ID)
		if !validID(in.ID) {
			p.problem(v.Line, Error, "id %q does not match ^[A-Z]+-\\d{3,}$", in.ID)
		}
	case "name":
		p.str(v, &in.Name)
		if n := utf8.RuneCountInString(in.Name); n < 3 || n > 200 {
			p.problem(v.Line, Error, "name must be 3 to 200 characters, has %d", n)
		}
	case "status":
		var s string
		p.str(v, &s)
		in.Status = Status(s)
		if !in.Status.Valid() {
			p.problem(v.Line, Error, "status %q is not one of %s", s, StatusNames)
		}
	case "version":
		if err := v.Decode(&in.Version); err != nil || in.Version < 1 {
			p.problem(v.Line, Error, "version must be an integer >= 1")
			in.Version = 1
		}
	case "owned_scope":
		p.strs(v, &in.OwnedScope)
		p.scope(v)
	case "constraints":
		p.strs(v, &in.Constraints)
	case "acceptance_criteria":
		p.criteria(v)
	case "related_specs":
		p.specs(v)
	case "parent_intent":
		if v.Tag != "!!null" {
			p.str(v, &in.ParentIntent)
			if !validID(in.ParentIntent) {
				p.problem(v.Line, Error, "parent_intent %q is not an intent id", in.ParentIntent)
			}
		}
	case "depends_on":
		p.strs(v, &in.DependsOn)
	case "allowed_tools":
		p.strs(v, &in.AllowedTools)
	case "requires_approval":
		if err := v.Decode(&in.RequiresApproval); err != nil {
			p.problem(v.Line, Error, "requires_approval must be true or false")
		}
	case "review":
		p.str(v, &in.Review)
		if in.Review != ReviewRequired && in.Review != ReviewNone {
			p.problem(v.Line, Error, "review must be %q or %q, is %q", ReviewRequired, ReviewNone, in.Review)
		}
	case "tags":
		p.strs(v, &in.Tags)
	case "created_at":
		p.timestamp(v, &in.CreatedAt, "created_at")
	case "updated_at":
		p.timestamp(v, &in.UpdatedAt, "updated_at")
	case "completed_at":
		p.timestamp(v, &in.CompletedAt, "completed_at")
	case "budget":
		p.budget(v)
	default:
		p.problem(k.Line, Warning, "unknown field %q", k.Value)
	}
}

func (p *intentParser) required() {
	for _, key := range []string{"id", "name", "status", "owned_scope", "constraints", "acceptance_criteria"} {
		if !p.seen[key] {
			p.problem(p.in.Line, Error, "missing required field %s", key)
		}
	}
	// Times are bookkeeping, not meaning: a person writing a first intent
	// by hand should not have to invent them.
	for _, key := range []string{"created_at", "updated_at"} {
		if !p.seen[key] {
			p.problem(p.in.Line, Warning, "missing %s (run `intenthook intents validate --fix` to add it)", key)
		}
	}
}

func (p *intentParser) str(v *yaml.Node, dst *string) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		p.problem(v.Line, Error, "expected a string")
		return
	}
	*dst = v.Value
}

func (p *intentParser) strs(v *yaml.Node, dst *[]string) {
	if v.Kind != yaml.SequenceNode {
		p.problem(v.Line, Error, "expected a list of strings")
		return
	}
	*dst = []string{}
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode || item.Tag == "!!null" {
			p.problem(item.Line, Error, "expected a string in the list")
			continue
		}
		*dst = append(*dst, item.Value)
	}
}

func (p *intentParser) timestamp(v *yaml.Node, dst *string, key string) {
	p.str(v, dst)
	if _, err := time.Parse(time.RFC3339, *dst); err != nil {
		p.problem(v.Line, Error, "%s %q is not an RFC 3339 time", key, *dst)
	}
}

func (p *intentParser) scope(v *yaml.Node) {
	if v.Kind == yaml.SequenceNode && len(v.Content) == 0 {
		p.problem(v.Line, Error, "owned_scope needs at least one pattern")
	}
	for _, item := range v.Content {
		p.in.scopeLines = append(p.in.scopeLines, item.Line)
		pat, err := compileScope(item.Value)
		if err != nil {
			p.problem(item.Line, Error, "owned_scope pattern %q: %v", item.Value, err)
			continue
		}
		p.in.scope = append(p.in.scope, pat)
	}
}

func (p *intentParser) criteria(v *yaml.Node) {
	if v.Kind != yaml.SequenceNode {
		p.problem(v.Line, Error, "acceptance_criteria must be a list")
		return
	}
	p.in.AcceptanceCriteria = []Criterion{}
	for _, item := range v.Content {
		var c Criterion
		switch item.Kind {
		case yaml.ScalarNode:
			c.Description = item.Value
		case yaml.MappingNode:
			for i := 0; i+1 < len(item.Content); i += 2 {
				k, val := item.Content[i], item.Content[i+1]
				switch k.Value {
				case "description":
					p.str(val, &c.Description)
				case "check":
					p.str(val, &c.Check)
				default:
					p.problem(k.Line, Warning, "unknown criterion field %q", k.Value)
				}
			}
		default:
			p.problem(item.Line, Error, "a criterion is a string or {description, check}")
			continue
		}
		if c.Description == "" {
			p.problem(item.Line, Error, "criterion needs a description")
		}
		p.in.AcceptanceCriteria = append(p.in.AcceptanceCriteria, c)
	}
}

// budget reads budget: {tokens: N, usd: X, calls: N}: whole numbers of
// tokens and calls, dollars with at most six decimals, none negative.
func (p *intentParser) budget(v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		p.problem(v.Line, Error, "budget is a mapping: {tokens: N, usd: X, calls: N}")
		return
	}
	b := &p.in.Budget
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		switch k.Value {
		case "tokens", "calls":
			var n int64
			if val.Kind != yaml.ScalarNode || val.Tag != "!!int" || val.Decode(&n) != nil || n < 0 {
				p.problem(val.Line, Error, "budget %s must be a whole number >= 0", k.Value)
				continue
			}
			if k.Value == "tokens" {
				b.Tokens = n
			} else {
				b.Calls = n
			}
		case "usd":
			micros, ok := money.Parse(val.Value)
			if val.Kind != yaml.ScalarNode || !ok {
				p.problem(val.Line, Error, "budget usd must be an amount of dollars >= 0 (12.50)")
				continue
			}
			b.MicroUSD = micros
		default:
			p.problem(k.Line, Warning, "unknown budget field %q", k.Value)
		}
	}
}

// specType reports the types a related spec may have.
func specType(t string) bool {
	switch t {
	case "speckit", "github_issue", "github_pr", "constitution", "external":
		return true
	}
	return false
}

func (p *intentParser) specs(v *yaml.Node) {
	if v.Kind != yaml.SequenceNode {
		p.problem(v.Line, Error, "related_specs must be a list")
		return
	}
	for _, item := range v.Content {
		var s Spec
		if item.Kind != yaml.MappingNode {
			p.problem(item.Line, Error, "a related spec is {type, ref}")
			continue
		}
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, val := item.Content[i], item.Content[i+1]
			switch k.Value {
			case "type":
				p.str(val, &s.Type)
			case "ref":
				p.str(val, &s.Ref)
			default:
				p.problem(k.Line, Warning, "unknown related_specs field %q", k.Value)
			}
		}
		if !specType(s.Type) {
			p.problem(item.Line, Error, "related spec type %q is not one of speckit, github_issue, github_pr, constitution, external", s.Type)
		}
		if s.Ref == "" {
			p.problem(item.Line, Error, "related spec needs a ref")
		}
		s.URL = SpecURL(s.Ref)
		p.in.RelatedSpecs = append(p.in.RelatedSpecs, s)
	}
}

// ServeParse is the full binary's side of Parse in a hook binary built
// without YAML (parse_noyaml.go): the catalog parsed from data, in the
// cache's form.
func ServeParse(data []byte) ([]byte, error) {
	c, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return cacheBytes(digestOf(data), c), nil
}

// SpecURL names a related specification: its ref when it already is a URI
// (has a scheme), else spec:<root-relative path>, each segment escaped.
func SpecURL(ref string) string {
	if u, err := url.Parse(ref); err == nil && len(u.Scheme) > 1 {
		return ref
	}
	segs := strings.Split(filepath.ToSlash(ref), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return "spec:" + strings.Join(segs, "/")
}
