package export

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/intenthook/intenthook/internal/config"
)

// Scope is the instrumentation scope every record is sent under.
const Scope = "github.com/intenthook/intenthook/export"

// sender sends batches of entries, each accepted whole or failed.
type sender interface {
	send(ctx context.Context, batch []Entry) error
	close(ctx context.Context) error
}

// ErrRejected marks a batch the collector took only in part (an OTLP
// partial success with rejected log records): a failure, not an advance.
var ErrRejected = errors.New("the collector rejected records")

// Resource is what every record shares: the service and the environment's
// resource attributes.
func (t Target) resource(version string) []Attr {
	attrs := []Attr{{"service.name", t.ServiceName}, {"service.version", version}}
	for _, a := range t.Resource {
		if a.Key == "service.name" || a.Key == "service.version" {
			continue // OTEL_SERVICE_NAME and the binary's own version win
		}
		attrs = append(attrs, a)
	}
	return redactAttrs(attrs)
}

func newSender(ctx context.Context, t Target, version string) (sender, error) {
	switch t.Protocol {
	case config.ProtocolJSON:
		return newJSONSender(t, version), nil
	case config.ProtocolGRPC, config.ProtocolProtobuf:
		return newSDKSender(ctx, t, version)
	}
	return nil, fmt.Errorf("protocol %q: want grpc, http/protobuf or http/json", t.Protocol)
}

// handled gathers what the OpenTelemetry SDK reports through its global
// error handler during a send (partial successes in some versions of the
// exporters, invalid settings): any of it fails the send.
type handled struct {
	mu   sync.Mutex
	errs []error
}

func (h *handled) Handle(err error) {
	h.mu.Lock()
	h.errs = append(h.errs, err)
	h.mu.Unlock()
}

func (h *handled) take() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	err := errors.Join(h.errs...)
	h.errs = nil
	return err
}

// rejected turns a partial success, however the library reported it, into
// ErrRejected.
func rejected(err error) error {
	if err != nil && strings.Contains(err.Error(), "partial success") && !errors.Is(err, ErrRejected) {
		return fmt.Errorf("%w: %v", ErrRejected, err)
	}
	return err
}
