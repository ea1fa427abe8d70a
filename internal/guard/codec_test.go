package guard

import (
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/codec"
	"github.com/intenthook/intenthook/internal/fill"
)

// TestCodecEveryField round-trips a picture whose every field is set by
// reflection: a field added to Snapshot and forgotten by Encode or Decode
// fails here.
func TestCodecEveryField(t *testing.T) {
	if n := len(fill.Paths(&Snapshot{})); n < 16 {
		t.Fatalf("the walk reached %d fields of a picture", n)
	}
	var s Snapshot
	n := int64(0)
	fill.Walk(&s, func(l fill.Leaf) {
		n++
		switch l.Value.Kind() {
		case reflect.String:
			l.Value.SetString("v" + string(rune('a'+n%26)))
		case reflect.Bool:
			l.Value.SetBool(true)
		case reflect.Int, reflect.Int64:
			l.Value.SetInt(n * 1000)
		case reflect.Uint8, reflect.Uint64:
			l.Value.SetUint(uint64(n))
		default:
			t.Fatalf("%s: a field of kind %s: teach this test to set it", l.Path, l.Value.Kind())
		}
	})
	for _, in := range []*Snapshot{&s, nil} {
		var e codec.Encoder
		Encode(&e, in)
		d := codec.Decoder{B: e.B}
		got := Decode(&d)
		if d.Err != nil || len(d.B) != 0 || !reflect.DeepEqual(got, in) {
			t.Errorf("Decode(Encode(%+v)) = %+v (err %v, %d bytes left)", in, got, d.Err, len(d.B))
		}
	}
}
