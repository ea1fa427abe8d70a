package ledger

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/fill"
)

// setLeaf gives a leaf a value: s for strings, n (distinct per leaf) for
// numbers, true for booleans.
func setLeaf(v reflect.Value, s string, n int64) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(n))
	}
}

// TestAppendLineEveryField holds MarshalLine to encoding/json on records
// whose fields are found by reflection: all of them set (to each hostile
// string), and each alone. A field added to Record but not to MarshalLine
// fails here.
func TestAppendLineEveryField(t *testing.T) {
	paths := fill.Paths(&Record{})
	if len(paths) < 35 {
		t.Fatalf("the walk reached %d fields of a record: %q", len(paths), paths)
	}
	check := func(name string, r *Record) {
		t.Helper()
		if got, want := r.MarshalLine(), jsonLine(t, r); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	for _, s := range append(hostile, allBytes()) {
		var r Record
		n := int64(-3)
		fill.Walk(&r, func(l fill.Leaf) { n++; setLeaf(l.Value, s, n) })
		check("every field = "+s, &r)
	}
	for _, p := range paths {
		var r Record
		fill.Walk(&r, func(l fill.Leaf) {
			if l.Path == p {
				setLeaf(l.Value, "v", 7)
			}
		})
		check(p+" alone", &r)
	}
}

// TestHeadLineEveryField: state/ledger.head's line, with every field of
// headFile found by reflection.
func TestHeadLineEveryField(t *testing.T) {
	for _, s := range append(hostile, allBytes()) {
		var hf headFile
		n := int64(40)
		fill.Walk(&hf, func(l fill.Leaf) { n++; setLeaf(l.Value, s, n) })
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(hf); err != nil {
			t.Fatal(err)
		}
		if got, want := headLine(hf), bytes.TrimSuffix(buf.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
			t.Errorf("headLine(%+v) = %s, want %s", hf, got, want)
		}
	}
}
