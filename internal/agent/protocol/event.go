package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"unicode/utf8"
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
	var o Object
	if err := json.Unmarshal(data, &o); err != nil || o == nil {
		return nil, fmt.Errorf("%w: stdin is not a JSON object", ErrBadInput)
	}
	return o, nil
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
	var list []json.RawMessage
	if json.Unmarshal(o[key], &list) != nil {
		return nil
	}
	var out []string
	for _, raw := range list {
		if s, ok := String(raw); ok {
			out = append(out, s)
		}
	}
	return out
}

// Objs returns key's value as a list of objects, skipping other elements.
func (o Object) Objs(key string) []Object {
	var list []json.RawMessage
	if json.Unmarshal(o[key], &list) != nil {
		return nil
	}
	var out []Object
	for _, raw := range list {
		if obj := AsObject(raw); obj != nil {
			out = append(out, obj)
		}
	}
	return out
}

// Bool returns key's boolean value and whether it is one.
func (o Object) Bool(key string) (value, ok bool) {
	err := json.Unmarshal(o[key], &value)
	return value, err == nil && len(o[key]) > 0 && o[key][0] != 'n'
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
	var o Object
	if json.Unmarshal(raw, &o) != nil {
		return nil
	}
	return o
}

// String decodes raw as a JSON string.
func String(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	if s, ok := plainString(raw); ok {
		return s, true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// plainString decodes a JSON string that needs no unescaping, the common
// case, without json's reflection: quotes only at its ends, no backslash,
// no control character, valid UTF-8 (json would replace invalid bytes).
func plainString(raw []byte) (string, bool) {
	n := len(raw)
	if n < 2 || raw[n-1] != '"' {
		return "", false
	}
	body := raw[1 : n-1]
	for _, c := range body {
		if c < 0x20 || c == '"' || c == '\\' {
			return "", false
		}
	}
	if !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
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
