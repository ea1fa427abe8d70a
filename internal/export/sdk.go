package export

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"

	"github.com/intenthook/intenthook/internal/config"
)

// sdkSender sends through the OpenTelemetry Go SDK's OTLP log exporters
// (http/protobuf, grpc). Records are emitted through an SDK logger, so the
// SDK sets their resource and scope, and gathered by a processor; each
// batch is then one synchronous Export call, whose error says whether the
// collector accepted it.
type sdkSender struct {
	exporter sdklog.Exporter
	provider *sdklog.LoggerProvider
	logger   log.Logger
	gather   *gatherer
	errs     *handled
}

// gatherer is a processor that keeps what is emitted until the batch is
// sent.
type gatherer struct{ recs []sdklog.Record }

func (g *gatherer) OnEmit(_ context.Context, r *sdklog.Record) error {
	g.recs = append(g.recs, r.Clone())
	return nil
}
func (g *gatherer) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }
func (g *gatherer) Shutdown(context.Context) error                         { return nil }
func (g *gatherer) ForceFlush(context.Context) error                       { return nil }

func newSDKSender(ctx context.Context, t Target, version string) (*sdkSender, error) {
	errs := &handled{}
	otel.SetErrorHandler(errs)
	var (
		exp sdklog.Exporter
		err error
	)
	// Retries of transient failures stay within the request's timeout; a
	// refused connection fails at once.
	if t.Protocol == config.ProtocolGRPC {
		exp, err = otlploggrpc.New(ctx, otlploggrpc.WithEndpointURL(t.URL), otlploggrpc.WithHeaders(t.Headers),
			otlploggrpc.WithTimeout(t.Timeout),
			otlploggrpc.WithRetry(otlploggrpc.RetryConfig{Enabled: true, InitialInterval: 500 * time.Millisecond, MaxInterval: 2 * time.Second, MaxElapsedTime: t.Timeout}))
	} else {
		exp, err = otlploghttp.New(ctx, otlploghttp.WithEndpointURL(t.URL), otlploghttp.WithHeaders(t.Headers),
			otlploghttp.WithTimeout(t.Timeout),
			otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: true, InitialInterval: 500 * time.Millisecond, MaxInterval: 2 * time.Second, MaxElapsedTime: t.Timeout}))
	}
	if err != nil {
		return nil, fmt.Errorf("OTLP exporter: %w", err)
	}
	var kvs []attribute.KeyValue
	for _, a := range t.resource(version) {
		kvs = append(kvs, attribute.String(a.Key, fmt.Sprint(a.Value)))
	}
	g := &gatherer{}
	provider := sdklog.NewLoggerProvider(
		sdklog.WithResource(resource.NewSchemaless(kvs...)),
		sdklog.WithProcessor(g),
		// Records are cut by the ledger already; the SDK must not drop attributes.
		sdklog.WithAttributeCountLimit(-1), sdklog.WithAttributeValueLengthLimit(-1))
	return &sdkSender{exporter: exp, provider: provider, logger: provider.Logger(Scope, log.WithInstrumentationVersion(version)), gather: g, errs: errs}, nil
}

func (s *sdkSender) send(ctx context.Context, batch []Entry) error {
	s.gather.recs = s.gather.recs[:0]
	now := time.Now()
	for _, e := range batch {
		var r log.Record
		r.SetTimestamp(e.Time)
		r.SetObservedTimestamp(now)
		r.SetSeverity(log.Severity(e.Severity))
		r.SetSeverityText(e.SeverityText)
		r.SetBody(attribute.StringValue(e.Body))
		r.AddAttributes(sdkAttrs(e.Attrs)...)
		s.logger.Emit(ctx, r)
	}
	s.errs.take()
	err := s.exporter.Export(ctx, s.gather.recs)
	if herr := s.errs.take(); herr != nil {
		err = errors.Join(err, herr)
	}
	return rejected(err)
}

func sdkAttrs(attrs []Attr) []attribute.KeyValue {
	out := make([]attribute.KeyValue, 0, len(attrs))
	for _, a := range attrs {
		switch v := a.Value.(type) {
		case string:
			out = append(out, attribute.String(a.Key, v))
		case int64:
			out = append(out, attribute.Int64(a.Key, v))
		case bool:
			out = append(out, attribute.Bool(a.Key, v))
		case []string:
			out = append(out, attribute.StringSlice(a.Key, v))
		}
	}
	return out
}

func (s *sdkSender) close(ctx context.Context) error {
	return errors.Join(s.provider.Shutdown(ctx), s.exporter.Shutdown(ctx))
}
