package described

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/agent/protocol"
)

// TestMembers: the hand split of an object agrees with json.Unmarshal into
// a protocol.Object on valid JSON, and gives up (ok false) on what it does
// not expect rather than guess.
func TestMembers(t *testing.T) {
	for _, doc := range []string{
		`{}`, `{ }`, `{"a":1}`, ` {"a" : "x" , "b":[1,{"c":"]"}], "d":{"e":"}"}}`,
		`{"a":1,"a":2}`, `{"k\"ey":true,"\u00e9":null}`, `{"a":"\\","b":"\"}"}`,
		`{"a":-1.5e3,"b":false}`, "{\n\t\"a\": [ ]\r\n}",
	} {
		var want protocol.Object
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		got, ok := members(bytes.TrimSpace([]byte(doc)))
		if !ok || len(got) != len(want) {
			t.Errorf("members(%s) = %v, %v; json: %v", doc, got, ok, want)
			continue
		}
		for k, v := range want {
			if !reflect.DeepEqual([]byte(got[k]), []byte(v)) {
				t.Errorf("members(%s)[%q] = %s, json: %s", doc, k, got[k], v)
			}
		}
	}
	for _, bad := range []string{`{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`, `{"a":1}x`, `{a:1}`, `{"a":[1}`} {
		if o, ok := members([]byte(bad)); ok {
			t.Errorf("members(%s) = %v, want not ok", bad, o)
		}
	}
}

// FuzzMembers: on any document json accepts as an object, members agrees.
func FuzzMembers(f *testing.F) {
	f.Add(acmeDesc)
	f.Add(`{"a":{"b":["c",{"d":"\"}"}]},"e":1}`)
	f.Fuzz(func(t *testing.T, doc string) {
		var want protocol.Object
		if json.Unmarshal([]byte(doc), &want) != nil || want == nil {
			return
		}
		raw := []byte(doc)
		for len(raw) > 0 && (raw[0] == ' ' || raw[0] == '\t' || raw[0] == '\n' || raw[0] == '\r') {
			raw = raw[1:]
		}
		for len(raw) > 0 && (raw[len(raw)-1] == ' ' || raw[len(raw)-1] == '\t' || raw[len(raw)-1] == '\n' || raw[len(raw)-1] == '\r') {
			raw = raw[:len(raw)-1]
		}
		got, ok := members(raw)
		if !ok {
			t.Fatalf("members(%q) gave up on valid JSON", doc)
		}
		if len(got) != len(want) {
			t.Fatalf("members(%q) = %v, json %v", doc, got, want)
		}
		for k, v := range want {
			if string(got[k]) != string(v) {
				t.Fatalf("members(%q)[%q] = %s, json %s", doc, k, got[k], v)
			}
		}
	})
}
