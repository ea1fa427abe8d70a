package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/intenthook/intenthook/internal/jsontext"
)

// MaxEvent is the largest event accepted on stdin.
const MaxEvent = 16 << 20

// ErrBadInput marks stdin that is not one JSON object.
var ErrBadInput = errors.New("bad hook input")

// ReadEvent reads one event object from r.
func ReadEvent(r io.Reader) (Object, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxEvent+1))
	if err != nil {
		return nil, fmt.Errorf("%w: read stdin: %v", ErrBadInput, err)
	}
	if len(data) > MaxEvent {
		return nil, fmt.Errorf("%w: event larger than 16 MiB", ErrBadInput)
	}
	return ParseObject(data)
}

// Object is a JSON object decoded one level deep. Every accessor is
// lenient: a field of an unexpected type reads as absent, so that a hook
// does not break because an agent version changed a shape.
type Object map[string]json.RawMessage

// ParseObject decodes one event object.
func ParseObject(data []byte) (Object, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: empty stdin, expected a JSON event", ErrBadInput)
	}
	o, ok := object(data)
	if !ok {
		return nil, fmt.Errorf("%w: stdin is not a JSON object", ErrBadInput)
	}
	return o, nil
}

// object decodes data as json.Unmarshal into an Object would, without its
// reflection (jsontext): the event is read on every hook call.
func object(data []byte) (Object, bool) {
	o := Object{}
	if !jsontext.Members(data, func(key string, value []byte) { o[key] = value }) {
		return nil, false
	}
	return o, true
}

// list decodes raw as json.Unmarshal into a []json.RawMessage would: ok is
// false when raw is not a list.
func list(raw []byte) (l []json.RawMessage, ok bool) {
	l = []json.RawMessage{}
	if !jsontext.Elements(raw, func(value []byte) { l = append(l, value) }) {
		return nil, false
	}
	return l, true
}

// Has reports whether key is present with a non-null value.
func (o Object) Has(key string) bool {
	raw, ok := o[key]
	return ok && len(raw) > 0 && string(raw) != "null"
}

// Str returns the first of keys that holds a non-empty string.
func (o Object) Str(keys ...string) string {
	for _, k := range keys {
		if s, ok := o.StrOK(k); ok && s != "" {
			return s
		}
	}
	return ""
}

// StrOK returns key's string value and whether it is a string.
func (o Object) StrOK(key string) (string, bool) {
	return String(o[key])
}

// Obj returns key's value as an object (nil when it is not one). A string
// holding a JSON object is decoded too: some agents send tool responses
// JSON-encoded a second time.
func (o Object) Obj(key string) Object {
	return AsObject(o[key])
}

// Strs returns key's value as a list of strings, skipping other elements.
func (o Object) Strs(key string) []string {
	l, _ := list(o[key])
	var out []string
	for _, raw := range l {
		if s, ok := String(raw); ok {
			out = append(out, s)
		}
	}
	return out
}

// Objs returns key's value as a list of objects, skipping other elements.
func (o Object) Objs(key string) []Object {
	l, _ := list(o[key])
	var out []Object
	for _, raw := range l {
		if obj := AsObject(raw); obj != nil {
			out = append(out, obj)
		}
	}
	return out
}

// Bool returns key's boolean value and whether it is one.
func (o Object) Bool(key string) (value, ok bool) {
	switch string(bytes.TrimSpace(o[key])) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// AsObject decodes raw as an object, or as a string holding one.
func AsObject(raw json.RawMessage) Object {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		s, _ := String(raw)
		raw = []byte(strings.TrimSpace(s))
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	o, _ := object(raw)
	return o
}

// String decodes raw as a JSON string.
func String(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	return jsontext.Unquote(raw)
}

// NativePath converts a Windows-shaped path (C:\… or \\server\…) to /
// separators when intenthook runs on Windows. Everywhere else a backslash is
// an ordinary file name character: converting would make the hook check a
// path other than the one the tool writes ("C:\a\b/../x" is one directory
// name and "..", not three levels).
func NativePath(p string) string {
	return nativePath(p, runtime.GOOS)
}

func nativePath(p, goos string) string {
	if goos != "windows" {
		return p
	}
	windows := strings.HasPrefix(p, `\\`) ||
		(len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && isLetter(p[0]))
	if !windows {
		return p
	}
	return strings.ReplaceAll(p, `\`, "/")
}

func isLetter(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }
