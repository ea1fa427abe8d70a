#!/usr/bin/env bash
# Builds the OpenTelemetry Collector that `make test-otel` sends to: the
# Collector Builder and the components come from the Go module proxy at the
# pinned versions below, into a cache outside the repository keyed by those
# versions. An existing build is reused. Prints the collector's path.
set -euo pipefail
core=v0.165.0      # go.opentelemetry.io/collector: builder, otlpreceiver
contrib=v0.165.0   # opentelemetry-collector-contrib: fileexporter
cache="${INTENTHOOK_OTELCOL_CACHE:-$HOME/.cache/intenthook-otelcol}/core-$core-contrib-$contrib"
bin="$cache/dist/otelcol-intenthook"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
mkdir -p "$cache"
# Building the collector is minutes of compiling on a small machine: at low priority.
nice_=(nice -n 15)
if [ ! -x "$cache/bin/builder" ]; then
  GOBIN="$cache/bin" CGO_ENABLED=0 "${nice_[@]}" go install "go.opentelemetry.io/collector/cmd/builder@$core" >&2
fi
cat > "$cache/manifest.yaml" <<YAML
dist:
  name: otelcol-intenthook
  description: OpenTelemetry Collector for intenthook's export tests
  output_path: $cache/dist
receivers:
  - gomod: go.opentelemetry.io/collector/receiver/otlpreceiver $core
exporters:
  - gomod: github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter $contrib
YAML
# The builder's own module step (go mod tidy) also fetches the components'
# test dependencies, some of which the module proxy may not serve; only the
# sources are generated here. With that step skipped the builder writes no
# go.mod either: it is written below as the builder's template would (the
# components, the confmap providers, the telemetry module and otelcol at
# the versions the builder pins), and its modules are resolved leniently
# (tidy -e) before a plain build, which needs none of those.
stable=v1.71.0     # the builder's stable modules (confmap providers) at $core
{
  cd "$cache" &&
    "$cache/bin/builder" --config "$cache/manifest.yaml" --skip-get-modules --skip-compilation &&
    cd dist &&
    cat > go.mod <<GOMOD &&
module otelcol-intenthook

go 1.25

require (
	go.opentelemetry.io/collector/confmap/provider/envprovider $stable
	go.opentelemetry.io/collector/confmap/provider/fileprovider $stable
	go.opentelemetry.io/collector/confmap/provider/httpprovider $stable
	go.opentelemetry.io/collector/confmap/provider/httpsprovider $stable
	go.opentelemetry.io/collector/confmap/provider/yamlprovider $stable
	go.opentelemetry.io/collector/receiver/otlpreceiver $core
	github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter $contrib
	go.opentelemetry.io/collector/service $core
	go.opentelemetry.io/collector/otelcol $core
)
GOMOD
    CGO_ENABLED=0 "${nice_[@]}" go mod tidy -e &&
    CGO_ENABLED=0 "${nice_[@]}" go build -trimpath -ldflags '-s -w' -o otelcol-intenthook .
} > "$cache/build.log" 2>&1 || { echo "otelcol: build failed, see $cache/build.log" >&2; exit 1; }
echo "$bin"
