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
// of every string, and times to the nanosecond. Its fields are exported
// for the round-trip test, which sets each by reflection.
type request struct {
	Op         string // "times", "status" or "scope"
	Data       []byte
	ID, Status string
	Scope      []string
	Now        time.Time
	Stamps     []Stamp
}

func (r *request) encode() []byte {
	e := &codec.Encoder{}
	e.Str(r.Op)
	e.Str(string(r.Data))
	e.Str(r.ID)
	e.Str(r.Status)
	e.Strs(r.Scope)
	encodeTime(e, r.Now)
	e.Uint(uint64(len(r.Stamps)))
	for _, st := range r.Stamps {
		e.Str(st.Key)
		encodeTime(e, st.At)
	}
	return e.B
}

func decodeRequest(b []byte) (*request, error) {
	d := &codec.Decoder{B: b}
	r := &request{Op: d.Str(), Data: []byte(d.Str()), ID: d.Str(), Status: d.Str(), Scope: d.Strs(), Now: decodeTime(d)}
	for n := d.Count(); n > 0 && d.Err == nil; n-- {
		r.Stamps = append(r.Stamps, Stamp{Key: d.Str(), At: decodeTime(d)})
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
