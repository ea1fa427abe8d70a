package export

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/config"
)

// Target is where and how records are sent: config.yaml's export block
// with the standard OTEL_* variables over it.
type Target struct {
	Protocol string // config.ProtocolGRPC, ProtocolProtobuf or ProtocolJSON
	// URL is the logs endpoint: for HTTP the full URL of the logs path,
	// for gRPC scheme://host:port.
	URL string
	// Headers go with every request. They come from the environment only
	// and are never printed or logged.
	Headers     map[string]string
	Timeout     time.Duration
	Batch       int
	Records     string // config.RecordsOwn or RecordsAll
	ServiceName string
	Resource    []Attr // OTEL_RESOURCE_ATTRIBUTES, in order
}

// Resolve applies the standard variables (getenv) over the export settings
// e. Per the OTLP exporter specification, the logs-specific variable wins
// over the general one, and a general endpoint gets the signal's path
// (/v1/logs) over HTTP.
func Resolve(e config.Export, getenv func(string) string) (Target, error) {
	first := func(keys ...string) string {
		for _, k := range keys {
			if v := strings.TrimSpace(getenv(k)); v != "" {
				return v
			}
		}
		return ""
	}
	t := Target{Protocol: e.Protocol, Timeout: e.Timeout, Batch: e.Batch, Records: e.Records, ServiceName: e.ServiceName}
	if p := first("OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"); p != "" {
		switch p {
		case config.ProtocolGRPC, config.ProtocolProtobuf, config.ProtocolJSON:
			t.Protocol = p
		default:
			return t, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL is %q, want grpc, http/protobuf or http/json", p)
		}
	}
	if ms := first("OTEL_EXPORTER_OTLP_LOGS_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"); ms != "" {
		n, err := strconv.Atoi(ms)
		if err != nil || n <= 0 {
			return t, fmt.Errorf("OTEL_EXPORTER_OTLP_TIMEOUT is %q, want milliseconds", ms)
		}
		t.Timeout = time.Duration(n) * time.Millisecond
	}
	if name := first("OTEL_SERVICE_NAME"); name != "" {
		t.ServiceName = name
	}
	var err error
	if t.Headers, err = headers(first("OTEL_EXPORTER_OTLP_HEADERS"), first("OTEL_EXPORTER_OTLP_LOGS_HEADERS")); err != nil {
		return t, err
	}
	if t.Resource, err = resourceAttrs(first("OTEL_RESOURCE_ATTRIBUTES")); err != nil {
		return t, err
	}
	logs, base := first("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"), first("OTEL_EXPORTER_OTLP_ENDPOINT")
	if logs == "" && base == "" {
		base = e.Endpoint
	}
	if logs == "" && base == "" {
		base = "http://localhost:4318"
		if t.Protocol == config.ProtocolGRPC {
			base = "http://localhost:4317"
		}
	}
	raw, signal := logs, false
	if raw == "" {
		raw, signal = base, true
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return t, fmt.Errorf("OTLP endpoint %s: want an http:// or https:// URL", Visible(raw))
	}
	if u.User != nil {
		return t, fmt.Errorf("OTLP endpoint %s: credentials belong in OTEL_EXPORTER_OTLP_HEADERS, not in the URL", Visible(raw))
	}
	switch {
	case t.Protocol == config.ProtocolGRPC:
		u.Path, u.RawPath = "", ""
	case signal:
		u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/logs"
		u.RawPath = ""
	}
	t.URL = u.String()
	return t, nil
}

// headers reads the W3C-baggage-shaped header lists of the OTLP variables
// (key=value pairs, comma-separated, values percent-encoded); the logs list
// wins key by key.
func headers(lists ...string) (map[string]string, error) {
	out := map[string]string{}
	for _, list := range lists {
		pairs, err := pairs("OTEL_EXPORTER_OTLP_HEADERS", list)
		if err != nil {
			return nil, err
		}
		for _, p := range pairs {
			out[p.Key] = p.Value
		}
	}
	return out, nil
}

// Attr is one attribute: a string, int64, bool or string list value.
type Attr struct {
	Key   string
	Value any
}

func resourceAttrs(list string) ([]Attr, error) {
	ps, err := pairs("OTEL_RESOURCE_ATTRIBUTES", list)
	var out []Attr
	for _, p := range ps {
		out = append(out, Attr{p.Key, p.Value})
	}
	return out, err
}

type pair struct{ Key, Value string }

// pairs reads "k1=v1,k2=v2" with percent-encoded values. A malformed pair
// is an error that names the variable but never its value (a header value
// is a token).
func pairs(name, list string) ([]pair, error) {
	var out []pair
	for i, item := range strings.Split(list, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("%s: item %d is not key=value", name, i+1)
		}
		dv, err := url.PathUnescape(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("%s: the value of %q is not percent-encoded", name, k)
		}
		out = append(out, pair{k, dv})
	}
	return out, nil
}

// Visible is an endpoint as it may be printed: without userinfo, query or
// fragment, where tokens are put.
func Visible(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an unreadable URL)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}
