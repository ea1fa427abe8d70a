// Package codec is a small binary form for intenthook's own state (the
// parsed catalog's cache, the pending calls a hook leaves for the next):
// decoding JSON costs a hook a fifth of a millisecond the first time a
// process meets a type, which for a hook is every time. Each number is a
// varint, each string a length and its bytes, each list a count and its
// items, fields in an order fixed by the caller, who names its format's
// version wherever the bytes are kept.
package codec

import (
	"encoding/binary"
	"errors"
	"maps"
	"slices"
)

// Encoder appends values to B.
type Encoder struct{ B []byte }

// Uint appends v.
func (e *Encoder) Uint(v uint64) { e.B = binary.AppendUvarint(e.B, v) }

// Int appends v.
func (e *Encoder) Int(v int64) { e.B = binary.AppendVarint(e.B, v) }

// Str appends s.
func (e *Encoder) Str(s string) { e.Uint(uint64(len(s))); e.B = append(e.B, s...) }

// Bool appends v.
func (e *Encoder) Bool(v bool) {
	if v {
		e.Uint(1)
	} else {
		e.Uint(0)
	}
}

// List appends a list's length, telling an absent list (nil) from an empty
// one.
func (e *Encoder) List(n int, isNil bool) {
	if isNil {
		e.Uint(0)
		return
	}
	e.Uint(uint64(n) + 1)
}

// Strs appends a list of strings.
func (e *Encoder) Strs(l []string) {
	e.List(len(l), l == nil)
	for _, s := range l {
		e.Str(s)
	}
}

// StrMap appends a map of strings in key order; empty and nil maps are the
// same.
func (e *Encoder) StrMap(m map[string]string) {
	e.Uint(uint64(len(m)))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		e.Str(k)
		e.Str(m[k])
	}
}

// ErrShort is the error of bytes that end before the values read.
var ErrShort = errors.New("truncated or damaged encoding")

// Decoder reads values from B; the first error sticks in Err and every
// later read returns a zero value.
type Decoder struct {
	B   []byte
	Err error
}

// Uint reads a number written by Encoder.Uint.
func (d *Decoder) Uint() uint64 { return varint(d, binary.Uvarint) }

// Int reads a number written by Encoder.Int.
func (d *Decoder) Int() int64 { return varint(d, binary.Varint) }

// varint reads one number with read (binary.Uvarint or binary.Varint).
func varint[T uint64 | int64](d *Decoder, read func([]byte) (T, int)) T {
	if d.Err != nil {
		return 0
	}
	v, n := read(d.B)
	if n <= 0 {
		d.Err = ErrShort
		return 0
	}
	d.B = d.B[n:]
	return v
}

// Str reads a string.
func (d *Decoder) Str() string {
	n := d.Uint()
	if d.Err != nil || n > uint64(len(d.B)) {
		d.Err = ErrShort
		return ""
	}
	s := string(d.B[:n])
	d.B = d.B[n:]
	return s
}

// Bool reads a bool.
func (d *Decoder) Bool() bool { return d.Uint() == 1 }

// Count reads a count, refusing one the remaining bytes cannot hold (every
// item takes at least a byte).
func (d *Decoder) Count() int {
	n := d.Uint()
	if n > uint64(len(d.B)) {
		d.Err = ErrShort
		return 0
	}
	return int(n)
}

// List reads a list length written by Encoder.List: -1 for an absent list.
func (d *Decoder) List() int { return d.Count() - 1 }

// Strs reads a list of strings.
func (d *Decoder) Strs() []string {
	n := d.List()
	if n < 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.Str()
	}
	return out
}

// StrMap reads a map written by Encoder.StrMap: nil when empty.
func (d *Decoder) StrMap() map[string]string {
	n := d.Count()
	if n == 0 {
		return nil
	}
	m := make(map[string]string, n)
	for range n {
		k := d.Str()
		m[k] = d.Str()
	}
	return m
}
