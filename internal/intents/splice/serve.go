//go:build !noyaml

package splice

import "fmt"

// Serve is the full binary's side of an edit asked for by a hook binary
// built without YAML (splice_noyaml.go): in is the request, the result the
// edited catalog.
func Serve(in []byte) ([]byte, error) {
	r, err := decodeRequest(in)
	if err != nil {
		return nil, err
	}
	switch r.op {
	case "times":
		return SetTimes(r.data, r.id, r.stamps)
	case "status":
		return SetStatus(r.data, r.id, r.status, r.now)
	case "scope":
		return SetScope(r.data, r.id, r.scope, r.now)
	}
	return nil, fmt.Errorf("splice request: unknown edit %q", r.op)
}
