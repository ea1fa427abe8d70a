package export

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"

	"github.com/intenthook/intenthook/internal/safetext"
)

// jsonSender sends http/json: the Go SDK's exporters speak protobuf only,
// so the request is the Collector's own pdata model, written by its JSON
// marshaler, and posted over net/http as the OTLP/HTTP specification says.
type jsonSender struct {
	t        Target
	resource []Attr
	version  string
	client   *http.Client
}

func newJSONSender(t Target, version string) *jsonSender {
	return &jsonSender{t: t, resource: t.resource(version), version: version, client: &http.Client{Timeout: t.Timeout}}
}

// Logs builds the pdata form of a batch.
func (s *jsonSender) logs(batch []Entry) plog.Logs {
	logs := plog.NewLogs()
	rl := logs.ResourceLogs().AppendEmpty()
	putAttrs(rl.Resource().Attributes(), s.resource)
	sl := rl.ScopeLogs().AppendEmpty()
	sl.Scope().SetName(Scope)
	sl.Scope().SetVersion(s.version)
	now := pcommon.NewTimestampFromTime(time.Now())
	for _, e := range batch {
		lr := sl.LogRecords().AppendEmpty()
		lr.SetTimestamp(pcommon.NewTimestampFromTime(e.Time))
		lr.SetObservedTimestamp(now)
		lr.SetSeverityNumber(plog.SeverityNumber(e.Severity))
		lr.SetSeverityText(e.SeverityText)
		lr.Body().SetStr(e.Body)
		putAttrs(lr.Attributes(), e.Attrs)
	}
	return logs
}

func putAttrs(m pcommon.Map, attrs []Attr) {
	for _, a := range attrs {
		switch v := a.Value.(type) {
		case string:
			m.PutStr(a.Key, v)
		case int64:
			m.PutInt(a.Key, v)
		case bool:
			m.PutBool(a.Key, v)
		case []string:
			sl := m.PutEmptySlice(a.Key)
			for _, s := range v {
				sl.AppendEmpty().SetStr(s)
			}
		}
	}
}

func (s *jsonSender) send(ctx context.Context, batch []Entry) error {
	body, err := (&plog.JSONMarshaler{}).MarshalLogs(s.logs(batch))
	if err != nil {
		return fmt.Errorf("encode OTLP/JSON: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.t.Timeout)
	defer cancel()
	wait := 500 * time.Millisecond
	for {
		retry, err := s.post(ctx, body)
		if err == nil || !retry {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// post sends one request; retry says whether its failure is transient
// (the specification's retryable statuses).
func (s *jsonSender) post(ctx context.Context, body []byte) (retry bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.t.URL, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range s.t.Headers {
		req.Header.Set(k, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	switch sc := resp.StatusCode; {
	case sc >= 200 && sc <= 299:
		if len(bytes.TrimSpace(data)) == 0 {
			return false, nil
		}
		r := plogotlp.NewExportResponse()
		if err := r.UnmarshalJSON(data); err != nil {
			return false, fmt.Errorf("the collector's answer is not an OTLP/JSON response: %v", err)
		}
		if ps := r.PartialSuccess(); ps.RejectedLogRecords() != 0 || ps.ErrorMessage() != "" {
			return false, fmt.Errorf("%w: OTLP partial success: %s (%d logs rejected)", ErrRejected, ps.ErrorMessage(), ps.RejectedLogRecords())
		}
		return false, nil
	case sc == http.StatusTooManyRequests || sc == http.StatusBadGateway || sc == http.StatusServiceUnavailable || sc == http.StatusGatewayTimeout:
		return true, fmt.Errorf("the collector answered %s", resp.Status)
	default:
		return false, fmt.Errorf("the collector answered %s: %s", resp.Status, safetext.Quote(safetext.Clip(strings.TrimSpace(string(data)), 300)))
	}
}

func (s *jsonSender) close(context.Context) error { return nil }
