package codec

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var e Encoder
	e.Uint(0)
	e.Uint(math.MaxUint64)
	e.Int(-1)
	e.Int(math.MinInt64)
	e.Str("")
	e.Str("a\nb\x00ü")
	e.Bool(true)
	e.Bool(false)
	e.Strs(nil)
	e.Strs([]string{})
	e.Strs([]string{"x", ""})
	e.StrMap(nil)
	e.StrMap(map[string]string{"b": "2", "a": ""})

	d := Decoder{B: e.B}
	got := []any{d.Uint(), d.Uint(), d.Int(), d.Int(), d.Str(), d.Str(), d.Bool(), d.Bool(), d.Strs(), d.Strs(), d.Strs(), d.StrMap(), d.StrMap()}
	want := []any{uint64(0), uint64(math.MaxUint64), int64(-1), int64(math.MinInt64), "", "a\nb\x00ü", true, false, []string(nil), []string{}, []string{"x", ""}, map[string]string(nil), map[string]string{"a": "", "b": "2"}}
	if d.Err != nil || len(d.B) != 0 {
		t.Fatalf("Err = %v, %d bytes left", d.Err, len(d.B))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

func TestMapsInKeyOrder(t *testing.T) {
	var a, b Encoder
	a.StrMap(map[string]string{"x": "1", "y": "2", "z": "3"})
	b.StrMap(map[string]string{"z": "3", "x": "1", "y": "2"})
	if string(a.B) != string(b.B) {
		t.Errorf("the same map encodes as %q and %q", a.B, b.B)
	}
}

// Damaged bytes (cut short, or a count no remaining bytes could hold) are an
// error, never a panic or a huge allocation.
func TestDamaged(t *testing.T) {
	var e Encoder
	e.Str("hello")
	e.Strs([]string{"a", "b"})
	for cut := 0; cut < len(e.B); cut++ {
		d := Decoder{B: e.B[:cut]}
		d.Str()
		d.Strs()
		if !errors.Is(d.Err, ErrShort) {
			t.Errorf("cut at %d: Err = %v, want ErrShort", cut, d.Err)
		}
	}
	var huge Encoder
	huge.Uint(1 << 40)
	for name, read := range map[string]func(*Decoder){
		"Str": func(d *Decoder) { d.Str() }, "Strs": func(d *Decoder) { d.Strs() }, "StrMap": func(d *Decoder) { d.StrMap() },
	} {
		d := Decoder{B: huge.B}
		read(&d)
		if !errors.Is(d.Err, ErrShort) {
			t.Errorf("%s with a count of 2^40: Err = %v, want ErrShort", name, d.Err)
		}
	}
	d := Decoder{B: nil}
	d.Uint()
	if !errors.Is(d.Err, ErrShort) {
		t.Errorf("empty: Err = %v", d.Err)
	}
}
