package splice

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/intenthook/intenthook/internal/codec"
)

// Sentinel errors, wrapped with the details, for callers that branch on them.
var (
	// ErrNotFound: no intent in the catalog has the requested id.
	ErrNotFound = errors.New("not found")
	// ErrNotCatalog: the data is YAML but not shaped like an intent catalog.
	ErrNotCatalog = errors.New("not an intent catalog")
)

// Stamp is one timestamp key to set: created_at, updated_at or completed_at.
type Stamp struct {
	Key string
	At  time.Time
}

func checkStatus(status string) error {
	if !utf8.ValidString(status) {
		return fmt.Errorf("status %q is not valid UTF-8", status)
	}
	return nil
}

func checkScope(scope []string) error {
	if len(scope) == 0 {
		return errors.New("scope is empty: an intent must own at least one path pattern")
	}
	for i, p := range scope {
		if p == "" {
			return fmt.Errorf("scope pattern %d is empty", i+1)
		}
		if !utf8.ValidString(p) {
			return fmt.Errorf("scope pattern %q is not valid UTF-8", p)
		}
	}
	return nil
}

// A request is one edit, as a hook binary built without YAML hands it to
// the full binary (splice_noyaml.go, Serve). Its encoding keeps every byte
// of every string, and times to the nanosecond.
type request struct {
	op         string // "times", "status" or "scope"
	data       []byte
	id, status string
	scope      []string
	now        time.Time
	stamps     []Stamp
}

func (r *request) encode() []byte {
	e := &codec.Encoder{}
	e.Str(r.op)
	e.Str(string(r.data))
	e.Str(r.id)
	e.Str(r.status)
	e.Strs(r.scope)
	encodeTime(e, r.now)
	e.Uint(uint64(len(r.stamps)))
	for _, st := range r.stamps {
		e.Str(st.Key)
		encodeTime(e, st.At)
	}
	return e.B
}

func decodeRequest(b []byte) (*request, error) {
	d := &codec.Decoder{B: b}
	r := &request{op: d.Str(), data: []byte(d.Str()), id: d.Str(), status: d.Str(), scope: d.Strs(), now: decodeTime(d)}
	for n := d.Count(); n > 0 && d.Err == nil; n-- {
		r.stamps = append(r.stamps, Stamp{Key: d.Str(), At: decodeTime(d)})
	}
	if d.Err == nil && len(d.B) > 0 {
		return nil, errors.New("splice request: trailing bytes")
	}
	if d.Err != nil {
		return nil, fmt.Errorf("splice request: %w", d.Err)
	}
	return r, nil
}

func encodeTime(e *codec.Encoder, t time.Time) {
	e.Int(t.Unix())
	e.Int(int64(t.Nanosecond()))
}

func decodeTime(d *codec.Decoder) time.Time {
	sec, nsec := d.Int(), d.Int()
	return time.Unix(sec, nsec).UTC()
}
