package export

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/collector/pdata/plog/plogotlp"

	"github.com/intenthook/intenthook/internal/ledger"
)

// rejecting is an OTLP/HTTP endpoint that accepts every record but the
// one with the uid bad, which it rejects with a partial success, as a
// collector whose pipeline refuses one record does. The real collector the
// test-otel target runs accepts everything; this is the one behaviour it
// cannot be made to show.
type rejecting struct {
	bad      string
	mu       sync.Mutex
	received []string // uids, in arrival order, rejected ones left out
}

func (s *rejecting) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := plogotlp.NewExportRequest()
	json := r.Header.Get("Content-Type") == "application/json"
	var err error
	if json {
		err = req.UnmarshalJSON(body)
	} else {
		err = req.UnmarshalProto(body)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rejected := int64(0)
	rls := req.Logs().ResourceLogs()
	s.mu.Lock()
	for i := 0; i < rls.Len(); i++ {
		sls := rls.At(i).ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			lrs := sls.At(j).LogRecords()
			for k := 0; k < lrs.Len(); k++ {
				uid, _ := lrs.At(k).Attributes().Get(KeyUID)
				if uid.AsString() == s.bad {
					rejected++
					continue
				}
				s.received = append(s.received, uid.AsString())
			}
		}
	}
	s.mu.Unlock()
	resp := plogotlp.NewExportResponse()
	if rejected > 0 {
		resp.PartialSuccess().SetRejectedLogRecords(rejected)
		resp.PartialSuccess().SetErrorMessage("attribute value too long")
	}
	var out []byte
	if json {
		out, _ = resp.MarshalJSON()
		w.Header().Set("Content-Type", "application/json")
	} else {
		out, _ = resp.MarshalProto()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}
	w.Write(out)
}

// ledgerOf writes a workspace whose ledger holds records id-1 … id-n.
func ledgerOf(t *testing.T, n int, config string) string {
	t.Helper()
	root := t.TempDir()
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `{"version":"0.1.0","id":"id-%d","timestamp":"2026-11-22T10:00:00.000Z","files":[],"metadata":{"dev.intenthook":{"seq":%d,"prev":null,"event":"select","intent_id":"INT-001","session_id":"s","decision":"allow","success":true}}}`+"\n", i, i)
	}
	for name, data := range map[string][]byte{ledger.FileName: b.Bytes(), ".orchestration/config.yaml": []byte(config)} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// A batch taken in part fails the run and leaves the cursor; the next run
// sends that batch one record per request, skips the record rejected on
// its own (reported, kept in the store's .rejected) and goes on.
func TestPartialSuccessIsNoAdvance(t *testing.T) {
	for _, protocol := range []string{"http/protobuf", "http/json"} {
		t.Run(strings.ReplaceAll(protocol, "/", "-"), func(t *testing.T) {
			srv := &rejecting{bad: "id-6"}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			root := ledgerOf(t, 10, fmt.Sprintf("export: {endpoint: %q, protocol: %s, batch: 4, timeout: 2s}\n", ts.URL, protocol))
			var notes bytes.Buffer
			o := Options{Root: root, Getenv: envOf(nil), Version: "test", Notes: &notes}

			sum, err := Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), "the collector did not accept a batch of 4 records") || !strings.Contains(err.Error(), "1 logs rejected") {
				t.Fatalf("first run: err = %v", err)
			}
			if sum.Sent != 4 {
				t.Errorf("first run sent %d, want the first batch (4)", sum.Sent)
			}
			store := StoreFor(root, ts.URL+"/v1/logs")
			cur, _ := store.LoadCursor()
			if fc := cur.Of(ledger.FileName); fc.Records != 4 || !fc.Rejected {
				t.Errorf("cursor after the rejection: %+v", fc)
			}

			notes.Reset()
			sum, err = Run(context.Background(), o)
			if err != nil {
				t.Fatalf("second run: %v", err)
			}
			if sum.Sent != 5 {
				t.Errorf("second run sent %d, want 5 (id-5, id-7 … id-10)", sum.Sent)
			}
			if !strings.Contains(notes.String(), "the collector rejects record id-6 on its own") {
				t.Errorf("notes:\n%s", notes.String())
			}
			kept, _ := os.ReadFile(store.RejectedPath())
			if !strings.Contains(string(kept), `"uid":"id-6"`) {
				t.Errorf("otlp.rejected: %s", kept)
			}
			cur, _ = store.LoadCursor()
			if fc := cur.Of(ledger.FileName); fc.Records != 9 || fc.Rejected {
				t.Errorf("cursor at the end: %+v", fc)
			}
			// id-5, id-7, id-8 came in the batch taken in part, then again
			// one by one: the duplicates the rule accepts.
			want := "id-1 id-2 id-3 id-4 id-5 id-7 id-8 id-5 id-7 id-8 id-9 id-10"
			if got := strings.Join(srv.received, " "); got != want {
				t.Errorf("received %s\nwant     %s", got, want)
			}
			sum, err = Run(context.Background(), o)
			if err != nil || sum.Sent != 0 {
				t.Errorf("third run: sent %d, %v", sum.Sent, err)
			}
		})
	}
}

// What was sent is kept per endpoint: an export pointed at another
// collector (by mistake, or by an agent's shell) sends everything there and
// moves nothing for the configured one.
func TestCursorPerEndpoint(t *testing.T) {
	a, b := &rejecting{}, &rejecting{}
	ta, tb := httptest.NewServer(a), httptest.NewServer(b)
	defer ta.Close()
	defer tb.Close()
	root := ledgerOf(t, 3, fmt.Sprintf("export: {endpoint: %q}\n", ta.URL))
	o := Options{Root: root, Getenv: envOf(nil), Version: "test", Notes: io.Discard}
	if sum, err := Run(context.Background(), o); err != nil || sum.Sent != 3 {
		t.Fatalf("to a: sent %d, %v", sum.Sent, err)
	}
	o.Getenv = envOf(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": tb.URL})
	if sum, err := Run(context.Background(), o); err != nil || sum.Sent != 3 {
		t.Fatalf("to b: sent %d, %v", sum.Sent, err)
	}
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(ledger.FileName)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, `{"version":"0.1.0","id":"id-4","timestamp":"2026-11-22T10:00:00.000Z","files":[],"metadata":{"dev.intenthook":{"seq":4,"event":"select","decision":"allow","success":true}}}`)
	f.Close()
	o.Getenv = envOf(nil)
	if sum, err := Run(context.Background(), o); err != nil || sum.Sent != 1 {
		t.Fatalf("to a again: sent %d, %v", sum.Sent, err)
	}
	if got := strings.Join(a.received, " "); got != "id-1 id-2 id-3 id-4" {
		t.Errorf("a received %s", got)
	}
	if got := strings.Join(b.received, " "); got != "id-1 id-2 id-3" {
		t.Errorf("b received %s", got)
	}
}
