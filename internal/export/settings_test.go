package export

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/config"
)

func envOf(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

func TestResolve(t *testing.T) {
	d := config.DefaultExport()
	tests := []struct {
		name    string
		export  config.Export
		env     map[string]string
		want    Target
		wantErr string
	}{
		{"defaults", d, nil, Target{Protocol: "http/protobuf", URL: "http://localhost:4318/v1/logs", Headers: map[string]string{}, Timeout: 10 * time.Second, Batch: 512, Records: "own", ServiceName: "intenthook"}, ""},
		{"grpc default port", withProtocol(d, "grpc"), nil, Target{Protocol: "grpc", URL: "http://localhost:4317", Headers: map[string]string{}, Timeout: 10 * time.Second, Batch: 512, Records: "own", ServiceName: "intenthook"}, ""},
		{"config endpoint gets the signal path", withEndpoint(d, "https://otel.example.com:4318/base/"), nil,
			Target{Protocol: "http/protobuf", URL: "https://otel.example.com:4318/base/v1/logs", Headers: map[string]string{}, Timeout: 10 * time.Second, Batch: 512, Records: "own", ServiceName: "intenthook"}, ""},
		{"the environment wins", withEndpoint(d, "https://config.example.com"), map[string]string{
			"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env.example.com:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
			"OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20abc,x-team=a", "OTEL_EXPORTER_OTLP_LOGS_HEADERS": "x-team=b",
			"OTEL_EXPORTER_OTLP_TIMEOUT": "2500", "OTEL_SERVICE_NAME": "agents", "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=ci,team=x%2Fy"},
			Target{Protocol: "http/json", URL: "http://env.example.com:4318/v1/logs", Headers: map[string]string{"authorization": "Bearer abc", "x-team": "b"},
				Timeout: 2500 * time.Millisecond, Batch: 512, Records: "own", ServiceName: "agents", Resource: []Attr{{"deployment.environment", "ci"}, {"team", "x/y"}}}, ""},
		{"logs endpoint as it is", d, map[string]string{"OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "http://c:9999/custom", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://ignored"},
			Target{Protocol: "http/protobuf", URL: "http://c:9999/custom", Headers: map[string]string{}, Timeout: 10 * time.Second, Batch: 512, Records: "own", ServiceName: "intenthook"}, ""},
		{"logs protocol wins", d, map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317/"},
			Target{Protocol: "grpc", URL: "http://c:4317", Headers: map[string]string{}, Timeout: 10 * time.Second, Batch: 512, Records: "own", ServiceName: "intenthook"}, ""},
		{"bad protocol", d, map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "udp"}, Target{}, `OTEL_EXPORTER_OTLP_PROTOCOL is "udp"`},
		{"bad scheme", d, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "localhost:4318"}, Target{}, "want an http:// or https:// URL"},
		{"credentials in the URL", d, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://user:tok3n@c.example.com"}, Target{},
			"OTLP endpoint https://c.example.com: credentials belong in OTEL_EXPORTER_OTLP_HEADERS"},
		{"bad header list", d, map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "authorization"}, Target{}, "OTEL_EXPORTER_OTLP_HEADERS: item 1 is not key=value"},
		{"bad timeout", d, map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "10s"}, Target{}, "want milliseconds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Resolve(tt.export, envOf(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "tok3n") {
					t.Errorf("the error shows a credential: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func withProtocol(e config.Export, p string) config.Export { e.Protocol = p; return e }
func withEndpoint(e config.Export, u string) config.Export { e.Endpoint = u; return e }

func TestHeaderValuesNeverInErrors(t *testing.T) {
	_, err := Resolve(config.DefaultExport(), envOf(map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%zzsecret"}))
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("err = %v", err)
	}
}
