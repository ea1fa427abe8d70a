package ledger

import "github.com/intenthook/intenthook/internal/jsontext"

// validJSON reports whether b is one JSON value (RFC 8259), as json.Valid
// does, but several times faster on ledger lines, which are mostly long
// strings: verify checks every line of a ledger that may hold millions.
// FuzzValidJSON holds it to json.Valid.
func validJSON(b []byte) bool {
	ok, _ := validRecord(b)
	return ok
}

// validRecord is validJSON, also returning the offset of the value of the
// last "metadata" member of the top-level object (-1 when there is none),
// which verify reads the chain fields from.
func validRecord(b []byte) (ok bool, metadata int) {
	i := jsontext.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return jsontext.Valid(b), -1
	}
	metadata = -1
	i = jsontext.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return jsontext.SkipSpace(b, i+1) == len(b), metadata
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false, -1
		}
		key := i
		if i, ok = jsontext.StringEnd(b, i); !ok {
			return false, -1
		}
		isMeta := string(b[key:i]) == `"metadata"`
		i = jsontext.SkipSpace(b, i)
		if i >= len(b) || b[i] != ':' {
			return false, -1
		}
		start := jsontext.SkipSpace(b, i+1)
		if i, ok = jsontext.Value(b, start, 1); !ok {
			return false, -1
		}
		if isMeta {
			metadata = start
		}
		i = jsontext.SkipSpace(b, i)
		switch {
		case i >= len(b):
			return false, -1
		case b[i] == '}':
			return jsontext.SkipSpace(b, i+1) == len(b), metadata
		case b[i] != ',':
			return false, -1
		}
		i = jsontext.SkipSpace(b, i+1)
	}
}
