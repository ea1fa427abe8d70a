package ledger

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/fill"
	"github.com/intenthook/intenthook/internal/state"
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

// TestHeadFileRoundTrip: a head line, every field set by reflection, reads
// back through parseHeadFile (hand-written, field by field) as written: a
// field added to headFile and forgotten by headLine or parseHeadFile fails
// here. The segment must name one (parseHeadFile drops any other).
func TestHeadFileRoundTrip(t *testing.T) {
	var hf headFile
	if n := len(fill.Distinct(&hf)); n < 5 {
		t.Fatalf("the walk reached %d fields of a head file", n)
	}
	hf.Seg = SegmentDir + "/0123456789abcdef/2026-11/000002.jsonl"
	if got := parseHeadFile(headLine(hf)); got != hf {
		t.Errorf("parseHeadFile(%s) = %+v, want %+v", headLine(hf), got, hf)
	}
}

// TestWriterFileRoundTrip: state/ledger.writer, every field set by
// reflection, reads back as written (the id must be a writer's: readWriter
// drops any other).
func TestWriterFileRoundTrip(t *testing.T) {
	root := t.TempDir()
	if err := state.Ensure(root); err != nil {
		t.Fatal(err)
	}
	var w writerFile
	if n := len(fill.Distinct(&w)); n < 3 {
		t.Fatalf("the walk reached %d fields of a writer file", n)
	}
	w.ID = "0123456789abcdef"
	if err := w.write(root, false); err != nil {
		t.Fatal(err)
	}
	if got := readWriter(root); got != w {
		t.Errorf("readWriter = %+v, want %+v", got, w)
	}
}
