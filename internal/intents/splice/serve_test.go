//go:build !noyaml

package splice

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/fill"
)

// TestRequestRoundTrip: a request reaches the full binary with every byte
// of its strings (invalid UTF-8 included) and its times to the nanosecond.
// The first has every field set by reflection: a field added to request
// and forgotten by encode or decodeRequest fails here.
func TestRequestRoundTrip(t *testing.T) {
	far := time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	old := time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC)
	var full request
	if n := len(fill.Distinct(&full)); n < 8 {
		t.Fatalf("the walk reached %d fields of a request", n)
	}
	tests := []request{
		full,
		{Op: "status", Data: []byte("active_intents: []\n"), ID: "INT-001", Status: "IN_PROGRESS", Now: now.UTC()},
		{Op: "scope", Data: []byte{0xff, 0, '\n'}, ID: "INT-\xff", Scope: []string{"a/**", "\xc3", ""}, Now: far},
		{Op: "times", ID: "X", Stamps: []Stamp{{Key: "created_at", At: old}, {Key: "completed_at", At: far}}, Now: time.Unix(0, 0).UTC()},
		{},
	}
	for _, r := range tests {
		got, err := decodeRequest(r.encode())
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		if r.Data == nil {
			r.Data = []byte{}
		}
		if r.Now.IsZero() {
			r.Now = time.Unix(r.Now.Unix(), 0).UTC()
		}
		if !reflect.DeepEqual(*got, r) {
			t.Errorf("round trip:\n got %+v\nwant %+v", *got, r)
		}
	}
	for _, bad := range [][]byte{nil, {5}, append((&request{Op: "status"}).encode(), 0)} {
		if _, err := decodeRequest(bad); err == nil {
			t.Errorf("decodeRequest(%q): no error", bad)
		}
	}
}

// TestServe: an edit served for the hook binary is the edit made here,
// byte for byte, refusals included.
func TestServe(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "two_intents.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	stamps := []Stamp{{Key: "completed_at", At: now}}
	tests := []struct {
		req    request
		direct func() ([]byte, error)
	}{
		{request{Op: "status", Data: data, ID: "INT-002", Status: "BLOCKED", Now: now},
			func() ([]byte, error) { return SetStatus(data, "INT-002", "BLOCKED", now) }},
		{request{Op: "scope", Data: data, ID: "INT-001", Scope: []string{"lib/**"}, Now: now},
			func() ([]byte, error) { return SetScope(data, "INT-001", []string{"lib/**"}, now) }},
		{request{Op: "times", Data: data, ID: "INT-001", Stamps: stamps},
			func() ([]byte, error) { return SetTimes(data, "INT-001", stamps) }},
		{request{Op: "status", Data: data, ID: "INT-404", Status: "BLOCKED", Now: now},
			func() ([]byte, error) { return SetStatus(data, "INT-404", "BLOCKED", now) }},
		{request{Op: "scope", Data: data, ID: "INT-001", Scope: []string{}, Now: now},
			func() ([]byte, error) { return SetScope(data, "INT-001", []string{}, now) }},
	}
	for _, tt := range tests {
		got, gotErr := Serve(tt.req.encode())
		want, wantErr := tt.direct()
		if !bytes.Equal(got, want) || (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Errorf("%s %s: Serve = %q, %v; direct = %q, %v", tt.req.Op, tt.req.ID, got, gotErr, want, wantErr)
		}
		if wantErr == nil && len(want) == 0 {
			t.Errorf("%s %s: no edit to compare", tt.req.Op, tt.req.ID)
		}
	}
	if _, err := Serve((&request{Op: "rename"}).encode()); err == nil {
		t.Error("Serve of an unknown edit: no error")
	}
}
