//go:build !noyaml

package splice

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestRequestRoundTrip: a request reaches the full binary with every byte
// of its strings (invalid UTF-8 included) and its times to the nanosecond.
func TestRequestRoundTrip(t *testing.T) {
	far := time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	old := time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC)
	tests := []request{
		{op: "status", data: []byte("active_intents: []\n"), id: "INT-001", status: "IN_PROGRESS", now: now.UTC()},
		{op: "scope", data: []byte{0xff, 0, '\n'}, id: "INT-\xff", scope: []string{"a/**", "\xc3", ""}, now: far},
		{op: "times", id: "X", stamps: []Stamp{{Key: "created_at", At: old}, {Key: "completed_at", At: far}}, now: time.Unix(0, 0).UTC()},
		{},
	}
	for _, r := range tests {
		got, err := decodeRequest(r.encode())
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		if r.data == nil {
			r.data = []byte{}
		}
		if r.now.IsZero() {
			r.now = time.Unix(r.now.Unix(), 0).UTC()
		}
		if !reflect.DeepEqual(*got, r) {
			t.Errorf("round trip:\n got %+v\nwant %+v", *got, r)
		}
	}
	for _, bad := range [][]byte{nil, {5}, append((&request{op: "status"}).encode(), 0)} {
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
		{request{op: "status", data: data, id: "INT-002", status: "BLOCKED", now: now},
			func() ([]byte, error) { return SetStatus(data, "INT-002", "BLOCKED", now) }},
		{request{op: "scope", data: data, id: "INT-001", scope: []string{"lib/**"}, now: now},
			func() ([]byte, error) { return SetScope(data, "INT-001", []string{"lib/**"}, now) }},
		{request{op: "times", data: data, id: "INT-001", stamps: stamps},
			func() ([]byte, error) { return SetTimes(data, "INT-001", stamps) }},
		{request{op: "status", data: data, id: "INT-404", status: "BLOCKED", now: now},
			func() ([]byte, error) { return SetStatus(data, "INT-404", "BLOCKED", now) }},
		{request{op: "scope", data: data, id: "INT-001", scope: []string{}, now: now},
			func() ([]byte, error) { return SetScope(data, "INT-001", []string{}, now) }},
	}
	for _, tt := range tests {
		got, gotErr := Serve(tt.req.encode())
		want, wantErr := tt.direct()
		if !bytes.Equal(got, want) || (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Errorf("%s %s: Serve = %q, %v; direct = %q, %v", tt.req.op, tt.req.id, got, gotErr, want, wantErr)
		}
		if wantErr == nil && len(want) == 0 {
			t.Errorf("%s %s: no edit to compare", tt.req.op, tt.req.id)
		}
	}
	if _, err := Serve((&request{op: "rename"}).encode()); err == nil {
		t.Error("Serve of an unknown edit: no error")
	}
}
