package jsontext

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

// inputs are the cases every test below runs, and the fuzzers' seeds.
var inputs = []string{
	`{}`, `[]`, `{"a":1}`, ` {"a" : [1, 2.5e-3, -0, true, false, null, "x\u00e9\n"]} `, `"s"`, `0`, `-1.0E+2`, `null`,
	`{"a":}`, `{"a" 1}`, `{a:1}`, `[1,]`, `[1 2]`, `01`, `1.`, `1e`, `-`, `"\x"`, "\"\x01\"", `"\u12"`, `tru`,
	`{"a":1}x`, ``, `{`, `"`, `{"a":1,}`, `{"a":1 "b":2}`, `[`, `]`, `{"a":[1,{"b":"}"}]}`,
	// Keys: repeated (the last wins), escaped, not UTF-8, empty.
	`{"tool_name":"Read","tool_name":"Write"}`, `{"tool\u005fname":"Write"}`, "{\"a\xffb\":1}", `{"":1}`,
	// Strings: escapes of every kind, surrogate pairs whole and halved,
	// bytes that are not UTF-8, a quote escaped at the end.
	`"a\"b\\c\/d\be\ff\ng\rh\ti"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`, `"\ud83dx"`, `"\ud83d\u0041"`,
	`"\ud83d\ud83d\ude00"`, "\"\xff\xfe\"", "\"caf\xc3\xa9\"", "\"\xc3\"", `"\u0000"`, `"a\\"`, `"\'"`,
	`{"tool_input":"{\"file_path\":\"a.go\"}"}`, ` [ "x" , {"y":[]} , null ] `, "\t{\"a\":\n1\r}\n",
	`{"k\"ey":true,"\u00e9":null}`, `{"a":"\\","b":"\"}"}`, `{"a":[1}`, `{"a"}`, "{\n\t\"a\": [ ]\r\n}",
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001), strings.Repeat("[", 100) + strings.Repeat("]", 100),
}

func TestValid(t *testing.T) {
	for _, s := range inputs {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%.60q) = %v, json.Valid %v", s, got, want)
		}
	}
}

func TestMembers(t *testing.T) {
	for _, s := range inputs {
		sameMembers(t, []byte(s))
	}
	// The cases the hooks meet, spelt out.
	var got []string
	ok := Members([]byte(`{"tool_name":"Read","tool\u005fname" : "Write", "n": [1, {"a":"}"}] }`), func(k string, v []byte) {
		got = append(got, k+"="+string(v))
	})
	if want := []string{`tool_name="Read"`, `tool_name="Write"`, `n=[1, {"a":"}"}]`}; !ok || !slices.Equal(got, want) {
		t.Errorf("Members = %q, %v; want %q, true", got, ok, want)
	}
	for _, s := range []string{`[1]`, `"{}"`, `null`, `{"a":1}}`, `{"a":1} {}`} {
		if Members([]byte(s), func(string, []byte) {}) {
			t.Errorf("Members(%q) = true, want false", s)
		}
	}
}

func TestElements(t *testing.T) {
	for _, s := range inputs {
		sameElements(t, []byte(s))
	}
}

func TestUnquote(t *testing.T) {
	for _, s := range inputs {
		sameUnquote(t, []byte(s))
	}
	for in, want := range map[string]string{
		`"\ud83d\ude00"`: "😀", `"\ud83d"`: "\uFFFD", `"\ud83dx"`: "\uFFFDx", `"\ud83d\u0041"`: "\uFFFDA",
		"\"\xff\"": "\uFFFD", `"a\nb"`: "a\nb", ` "x" `: "x",
	} {
		if got, ok := Unquote([]byte(in)); !ok || got != want {
			t.Errorf("Unquote(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// sameMembers holds Members to json.Unmarshal into a map of raw values.
func sameMembers(t *testing.T, b []byte) {
	t.Helper()
	var want map[string]json.RawMessage
	wantOK := json.Unmarshal(b, &want) == nil && want != nil
	got := map[string]json.RawMessage{}
	ok := Members(b, func(k string, v []byte) { got[k] = v })
	if ok != wantOK || ok && !maps.EqualFunc(got, want, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
		t.Fatalf("Members(%.60q) = %q, %v; json.Unmarshal %q, %v", b, got, ok, want, wantOK)
	}
}

// sameElements holds Elements to json.Unmarshal into a list of raw values.
func sameElements(t *testing.T, b []byte) {
	t.Helper()
	var want []json.RawMessage
	wantOK := json.Unmarshal(b, &want) == nil && want != nil
	got := []json.RawMessage{}
	ok := Elements(b, func(v []byte) { got = append(got, v) })
	if ok != wantOK || ok && !slices.EqualFunc(got, want, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
		t.Fatalf("Elements(%.60q) = %q, %v; json.Unmarshal %q, %v", b, got, ok, want, wantOK)
	}
}

// sameUnquote holds Unquote to json.Unmarshal into a string, for a string.
func sameUnquote(t *testing.T, b []byte) {
	t.Helper()
	var want string
	wantOK := json.Unmarshal(b, &want) == nil && bytes.HasPrefix(bytes.TrimSpace(b), []byte(`"`))
	got, ok := Unquote(b)
	if ok != wantOK || got != want {
		t.Fatalf("Unquote(%.60q) = %q, %v; json.Unmarshal %q, %v", b, got, ok, want, wantOK)
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range inputs {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid %v", b, got, want)
		}
	})
}

func FuzzMembers(f *testing.F) {
	for _, s := range inputs {
		f.Add([]byte(s))
	}
	f.Fuzz(sameMembers)
}

func FuzzElements(f *testing.F) {
	for _, s := range inputs {
		f.Add([]byte(s))
	}
	f.Fuzz(sameElements)
}

func FuzzUnquote(f *testing.F) {
	for _, s := range inputs {
		f.Add([]byte(s))
	}
	f.Fuzz(sameUnquote)
}

// sameString holds AppendString to encoding/json with HTML escaping off.
func sameString(t *testing.T, s string) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	if got := AppendString(nil, s); string(got)+"\n" != want.String() {
		t.Fatalf("AppendString(%q) = %s, json %s", s, got, want.Bytes())
	}
}

func TestAppendString(t *testing.T) {
	for _, s := range append(inputs, "<a&b>", "\u2028\u2029", "\x00\x1f\x7f", "\b\f\n\r\t", "caf\xc3", "é😀") {
		sameString(t, s)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range inputs {
		f.Add(s)
	}
	f.Fuzz(sameString)
}
