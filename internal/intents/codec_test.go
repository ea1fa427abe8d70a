package intents

import (
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/fill"
)

// TestIntentCodecEveryField: an intent, every field set by reflection,
// reads back from the parse cache's form as written: a field added to
// Intent and forgotten by appendIntent or decodeIntent fails here.
func TestIntentCodecEveryField(t *testing.T) {
	var in Intent
	if n := len(fill.Distinct(&in)); n < 24 {
		t.Fatalf("the walk reached %d fields of an intent", n)
	}
	got, err := decodeIntent(appendIntent(nil, &in))
	if err != nil || !reflect.DeepEqual(got, &in) {
		t.Errorf("decodeIntent(appendIntent(%+v)) =\n %+v, %v", in, got, err)
	}
}
