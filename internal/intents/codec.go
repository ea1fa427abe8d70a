package intents

import "github.com/intenthook/intenthook/internal/codec"

// The parse cache stores intents in package codec's binary form, fields in
// the order below. cacheMagic changes whenever this does.

type encoder struct{ codec.Encoder }

type decoder struct{ codec.Decoder }

func (e *encoder) problems(ps []Problem) {
	e.Uint(uint64(len(ps)))
	for _, p := range ps {
		e.Uint(uint64(max(p.Line, 0)))
		e.Str(p.ID)
		e.Str(string(p.Severity))
		e.Str(p.Message)
	}
}

func appendIntent(b []byte, in *Intent) []byte {
	e := &encoder{codec.Encoder{B: b}}
	e.Str(in.ID)
	e.Str(in.Name)
	e.Str(string(in.Status))
	e.Uint(uint64(max(in.Version, 0)))
	e.Strs(in.OwnedScope)
	e.Strs(in.Constraints)
	e.List(len(in.AcceptanceCriteria), in.AcceptanceCriteria == nil)
	for _, c := range in.AcceptanceCriteria {
		e.Str(c.Description)
		e.Str(c.Check)
	}
	e.List(len(in.RelatedSpecs), in.RelatedSpecs == nil)
	for _, s := range in.RelatedSpecs {
		e.Str(s.Type)
		e.Str(s.Ref)
		e.Str(s.URL)
	}
	e.Str(in.ParentIntent)
	e.Strs(in.DependsOn)
	e.Strs(in.AllowedTools)
	e.Bool(in.RequiresApproval)
	e.Str(in.Review)
	e.Strs(in.Tags)
	e.Str(in.CreatedAt)
	e.Str(in.UpdatedAt)
	e.Str(in.CompletedAt)
	e.Uint(uint64(max(in.Budget.Tokens, 0)))
	e.Uint(uint64(max(in.Budget.MicroUSD, 0)))
	e.Uint(uint64(max(in.Budget.Calls, 0)))
	e.Uint(uint64(max(in.Line, 0)))
	e.Uint(uint64(max(in.lineStart, 0)))
	e.problems(in.Problems)
	return e.B
}

func (d *decoder) problems() []Problem {
	n := d.Count()
	if n == 0 {
		return nil
	}
	out := make([]Problem, n)
	for i := range out {
		out[i] = Problem{Line: int(d.Uint()), ID: d.Str(), Severity: Severity(d.Str()), Message: d.Str()}
	}
	return out
}

func decodeIntent(b []byte) (*Intent, error) {
	d := &decoder{codec.Decoder{B: b}}
	in := &Intent{ID: d.Str(), Name: d.Str(), Status: Status(d.Str()), Version: int(d.Uint())}
	in.OwnedScope = d.Strs()
	in.Constraints = d.Strs()
	if n := d.List(); n >= 0 {
		in.AcceptanceCriteria = make([]Criterion, n)
		for i := range in.AcceptanceCriteria {
			in.AcceptanceCriteria[i] = Criterion{Description: d.Str(), Check: d.Str()}
		}
	}
	if n := d.List(); n >= 0 {
		in.RelatedSpecs = make([]Spec, n)
		for i := range in.RelatedSpecs {
			in.RelatedSpecs[i] = Spec{Type: d.Str(), Ref: d.Str(), URL: d.Str()}
		}
	}
	in.ParentIntent = d.Str()
	in.DependsOn = d.Strs()
	in.AllowedTools = d.Strs()
	in.RequiresApproval = d.Uint() == 1
	in.Review = d.Str()
	in.Tags = d.Strs()
	in.CreatedAt = d.Str()
	in.UpdatedAt = d.Str()
	in.CompletedAt = d.Str()
	in.Budget = Budget{Tokens: int64(d.Uint()), MicroUSD: int64(d.Uint()), Calls: int64(d.Uint())}
	in.Line = int(d.Uint())
	in.lineStart = int(d.Uint())
	in.Problems = d.problems()
	return in, d.Err
}
