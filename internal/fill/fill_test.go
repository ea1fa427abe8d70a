package fill

import (
	"reflect"
	"slices"
	"testing"
	"time"
)

type inner struct {
	N    int64
	Flag bool
}

type record struct {
	Name    string
	At      time.Time
	Raw     []byte
	Tags    []string
	ByKey   map[string]inner
	Next    *inner
	Skipped string `json:"-"`
	hidden  string
}

// TestDistinct: every leaf, times and bytes included, gets a value of its
// own; what Walk leaves alone stays zero.
func TestDistinct(t *testing.T) {
	var r record
	paths := Distinct(&r)
	want := []string{"Name", "At", "Raw", "Tags[0]", "ByKey[k].N", "ByKey[k].Flag", "Next.N", "Next.Flag"}
	if !slices.Equal(paths, want) {
		t.Fatalf("paths %q, want %q", paths, want)
	}
	if !slices.Equal(Paths(&record{}), want) {
		t.Errorf("Paths = %q", Paths(&record{}))
	}
	expect := record{
		Name:  "v1",
		At:    time.Date(2026, 1, 1, 0, 0, 2, 2, time.UTC),
		Raw:   []byte("v3"),
		Tags:  []string{"v4"},
		ByKey: map[string]inner{"k": {N: 5, Flag: true}},
		Next:  &inner{N: 7, Flag: true},
	}
	if !reflect.DeepEqual(r, expect) {
		t.Errorf("Distinct gave %+v\nwant %+v", r, expect)
	}
	_ = r.hidden
}
