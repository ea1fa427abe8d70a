package intents

import (
	"encoding/binary"
	"errors"
)

// The parse cache stores intents in a small binary form of their own:
// decoding JSON costs a hook a fifth of a millisecond the first time a
// process meets a type, which is every time. Each string is a uvarint length
// and its bytes; each list a uvarint count and its items; fields in a fixed
// order. cacheMagic changes whenever this does.

type encoder struct{ b []byte }

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }

// list writes a list's length, telling an absent list (nil) from an empty
// one: the catalog said `constraints: []` or said nothing.
func (e *encoder) list(n int, isNil bool) {
	if isNil {
		e.uint(0)
		return
	}
	e.uint(uint64(n) + 1)
}

func (e *encoder) strs(l []string) {
	e.list(len(l), l == nil)
	for _, s := range l {
		e.str(s)
	}
}

func (e *encoder) bool(v bool) {
	if v {
		e.uint(1)
	} else {
		e.uint(0)
	}
}

func (e *encoder) problems(ps []Problem) {
	e.uint(uint64(len(ps)))
	for _, p := range ps {
		e.uint(uint64(max(p.Line, 0)))
		e.str(p.ID)
		e.str(string(p.Severity))
		e.str(p.Message)
	}
}

func appendIntent(b []byte, in *Intent) []byte {
	e := &encoder{b: b}
	e.str(in.ID)
	e.str(in.Name)
	e.str(string(in.Status))
	e.uint(uint64(max(in.Version, 0)))
	e.strs(in.OwnedScope)
	e.strs(in.Constraints)
	e.list(len(in.AcceptanceCriteria), in.AcceptanceCriteria == nil)
	for _, c := range in.AcceptanceCriteria {
		e.str(c.Description)
		e.str(c.Check)
	}
	e.list(len(in.RelatedSpecs), in.RelatedSpecs == nil)
	for _, s := range in.RelatedSpecs {
		e.str(s.Type)
		e.str(s.Ref)
	}
	e.str(in.ParentIntent)
	e.strs(in.DependsOn)
	e.strs(in.AllowedTools)
	e.bool(in.RequiresApproval)
	e.strs(in.Tags)
	e.str(in.CreatedAt)
	e.str(in.UpdatedAt)
	e.str(in.CompletedAt)
	e.uint(uint64(max(in.Line, 0)))
	e.problems(in.Problems)
	return e.b
}

var errShort = errors.New("truncated cache entry")

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errShort
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) str() string {
	n := d.uint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errShort
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// count reads a count, refusing one the remaining bytes cannot hold.
func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.err = errShort
		return 0
	}
	return int(n)
}

// list reads a list length written by encoder.list: -1 for an absent list.
func (d *decoder) list() int {
	return d.count() - 1
}

func (d *decoder) strs() []string {
	n := d.list()
	if n < 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *decoder) problems() []Problem {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]Problem, n)
	for i := range out {
		out[i] = Problem{Line: int(d.uint()), ID: d.str(), Severity: Severity(d.str()), Message: d.str()}
	}
	return out
}

func decodeIntent(b []byte) (*Intent, error) {
	d := &decoder{b: b}
	in := &Intent{ID: d.str(), Name: d.str(), Status: Status(d.str()), Version: int(d.uint())}
	in.OwnedScope = d.strs()
	in.Constraints = d.strs()
	if n := d.list(); n >= 0 {
		in.AcceptanceCriteria = make([]Criterion, n)
		for i := range in.AcceptanceCriteria {
			in.AcceptanceCriteria[i] = Criterion{Description: d.str(), Check: d.str()}
		}
	}
	if n := d.list(); n >= 0 {
		in.RelatedSpecs = make([]Spec, n)
		for i := range in.RelatedSpecs {
			in.RelatedSpecs[i] = Spec{Type: d.str(), Ref: d.str()}
		}
	}
	in.ParentIntent = d.str()
	in.DependsOn = d.strs()
	in.AllowedTools = d.strs()
	in.RequiresApproval = d.uint() == 1
	in.Tags = d.strs()
	in.CreatedAt = d.str()
	in.UpdatedAt = d.str()
	in.CompletedAt = d.str()
	in.Line = int(d.uint())
	in.Problems = d.problems()
	return in, d.err
}
