//go:build noyaml

package splice

import (
	"time"

	"github.com/intenthook/intenthook/internal/full"
)

// This build links no YAML parser: each edit is made by the full binary
// (Serve). A hook edits the catalog only when a selection starts an intent
// or a loop of denials blocks one.

// SetTimes: see splice.go.
func SetTimes(data []byte, id string, stamps []Stamp) ([]byte, error) {
	return call(&request{Op: "times", Data: data, ID: id, Stamps: stamps})
}

// SetStatus: see splice.go.
func SetStatus(data []byte, id, status string, now time.Time) ([]byte, error) {
	if err := checkStatus(status); err != nil {
		return nil, err
	}
	return call(&request{Op: "status", Data: data, ID: id, Status: status, Now: now})
}

// SetScope: see splice.go.
func SetScope(data []byte, id string, scope []string, now time.Time) ([]byte, error) {
	if err := checkScope(scope); err != nil {
		return nil, err
	}
	return call(&request{Op: "scope", Data: data, ID: id, Scope: scope, Now: now})
}

func call(r *request) ([]byte, error) { return full.Call("splice", r.encode()) }
