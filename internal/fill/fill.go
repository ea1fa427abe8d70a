// Package fill sets every field of a value by reflection, for the
// differential tests that hold intenthook's hand-written encoders and
// decoders to encoding/json and yaml.v3: a field added to a record but
// forgotten by its hand-written encoder then has a value, and the two
// outputs differ. It is used by tests only.
package fill

import (
	"reflect"
	"strconv"
	"time"
)

// Leaf is a field of a basic kind (string, bool, integer, float) or a
// time.Time reached by Walk, named by its path ("Metadata.Intenthook.Seq",
// "Files[0].Path").
type Leaf struct {
	Path  string
	Value reflect.Value
}

// Walk makes every container on the way to a leaf of the value ptr points
// to (pointers allocated, slices of one element, maps of one entry keyed
// "k"), and calls set on each leaf it reaches, depth first in field order.
// Unexported fields and fields tagged `json:"-"` or `yaml:"-"` are left
// alone.
func Walk(ptr any, set func(Leaf)) {
	walk(reflect.ValueOf(ptr).Elem(), "", set)
}

var timeType = reflect.TypeFor[time.Time]()

func walk(v reflect.Value, path string, set func(Leaf)) {
	if v.Type() == timeType {
		// A time is a value, not a record: its fields are unexported.
		set(Leaf{path, v})
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		walk(v.Elem(), path, set)
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || f.Tag.Get("json") == "-" || f.Tag.Get("yaml") == "-" {
				continue
			}
			name := f.Name
			if path != "" {
				name = path + "." + name
			}
			walk(v.Field(i), name, set)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 { // []byte, json.RawMessage
			set(Leaf{path, v})
			return
		}
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := range v.Len() {
			walk(v.Index(i), path+"["+strconv.Itoa(i)+"]", set)
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		e := reflect.New(v.Type().Elem()).Elem()
		walk(e, path+"[k]", set)
		v.SetMapIndex(reflect.ValueOf("k").Convert(v.Type().Key()), e)
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		set(Leaf{path, v})
	}
}

// Paths lists the leaves Walk reaches in a fresh value of ptr's type.
func Paths(ptr any) []string {
	fresh := reflect.New(reflect.TypeOf(ptr).Elem()).Interface()
	var out []string
	Walk(fresh, func(l Leaf) { out = append(out, l.Path) })
	return out
}

// Distinct sets every leaf Walk reaches in the value ptr points to a value
// of its own, for round trips: the nth leaf (from 1) gets "v<n>" if it is a
// string, n if it is a number, true if it is a boolean, and n seconds and n
// nanoseconds after 2026-01-01 in UTC if it is a time.Time. []byte leaves
// get "v<n>" too. It returns the paths of the leaves it set.
func Distinct(ptr any) []string {
	var paths []string
	Walk(ptr, func(l Leaf) {
		paths = append(paths, l.Path)
		n := int64(len(paths))
		v := l.Value
		switch v.Kind() {
		case reflect.String:
			v.SetString("v" + strconv.FormatInt(n, 10))
		case reflect.Slice:
			v.SetBytes([]byte("v" + strconv.FormatInt(n, 10)))
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(n)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			v.SetUint(uint64(n))
		case reflect.Float32, reflect.Float64:
			v.SetFloat(float64(n))
		case reflect.Struct: // time.Time
			v.Set(reflect.ValueOf(time.Date(2026, 1, 1, 0, 0, int(n), int(n), time.UTC)))
		}
	})
	return paths
}
