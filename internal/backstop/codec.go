package backstop

import "github.com/intenthook/intenthook/internal/codec"

// Encode writes p (nil: no picture) in the order Decode reads it, for the
// pending log of package state.
func Encode(e *codec.Encoder, p *Picture) {
	e.Bool(p != nil)
	if p == nil {
		p = &Picture{}
	}
	e.StrMap(p.Paths)
	e.Int(p.Reflog)
	e.Str(p.Head)
	e.Strs(p.Tips)
	e.Bool(p.TipsKnown)
}

// Decode reads what Encode wrote.
func Decode(d *codec.Decoder) *Picture {
	taken := d.Bool()
	p := &Picture{Paths: d.StrMap(), Reflog: d.Int(), Head: d.Str(), Tips: d.Strs(), TipsKnown: d.Bool()}
	if !taken {
		return nil
	}
	return p
}
