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
	metadata = -1
	if i := jsontext.SkipSpace(b, 0); i >= len(b) || b[i] != '{' {
		return jsontext.Valid(b), metadata
	}
	ok = jsontext.Fields(b, func(key []byte, start, _ int) {
		if string(key) == `"metadata"` {
			metadata = start
		}
	})
	return ok, metadata
}
