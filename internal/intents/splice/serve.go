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
	switch r.Op {
	case "times":
		return SetTimes(r.Data, r.ID, r.Stamps)
	case "status":
		return SetStatus(r.Data, r.ID, r.Status, r.Now)
	case "scope":
		return SetScope(r.Data, r.ID, r.Scope, r.Now)
	}
	return nil, fmt.Errorf("splice request: unknown edit %q", r.Op)
}
