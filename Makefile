# intenthook — build, test and try it.
GO          ?= go
BIN         := bin/intenthook
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
ACTIONLINT  := github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
VERSION     ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS     := -s -w -X github.com/intenthook/intenthook/internal/hookcmd.Version=$(VERSION)
# The binaries. intenthook runs the hooks, built without YAML (-tags noyaml:
# Go initialises every linked package on every start, and a hook runs on every
# tool call); it hands every other command, and the rare YAML a hook needs, to
# intenthook-full beside it. The MCP server is its own binary: the SDK's
# package init (about 1 ms) must not be paid by every hook call.
MCP_LDFLAGS := -s -w -X main.version=$(VERSION)
# intenthook-export (export otlp) links the OpenTelemetry SDK, gRPC and the
# Collector's pdata, intenthook-attest (attest) Sigstore's libraries,
# intenthook-console (console) net/http's server: their package init must not
# reach the hook path either. intenthook-console runs intenthook's person's
# checks itself (package cli), so it takes the full binary's version flags.

# A static binary: a dynamically linked one pays the loader on every tool call.
export CGO_ENABLED = 0
# A program built with -race sleeps a second as it exits (ThreadSanitizer's
# atexit_sleep_ms), waiting for other threads' reports; the tests start
# thousands of them (every testscript command under TestScripts), so they
# exit at once. A race is still reported where it happens.
export GORACE = atexit_sleep_ms=0

.PHONY: build install test test-slow test-otel lint bench bench-commit bench-ledger-git demo e2e dist release npm-publish npm-test clean

build:
	$(GO) build -trimpath -tags noyaml -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/intenthook
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)-full ./cmd/intenthook-full
	$(GO) build -trimpath -ldflags '$(MCP_LDFLAGS)' -o $(BIN)-mcp ./cmd/intenthook-mcp
	$(GO) build -trimpath -ldflags '$(MCP_LDFLAGS)' -o $(BIN)-export ./cmd/intenthook-export
	$(GO) build -trimpath -ldflags '$(MCP_LDFLAGS)' -o $(BIN)-attest ./cmd/intenthook-attest
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)-console ./cmd/intenthook-console

install:
	$(GO) install -trimpath -tags noyaml -ldflags '$(LDFLAGS)' ./cmd/intenthook
	$(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/intenthook-full
	$(GO) install -trimpath -ldflags '$(MCP_LDFLAGS)' ./cmd/intenthook-mcp
	$(GO) install -trimpath -ldflags '$(MCP_LDFLAGS)' ./cmd/intenthook-export
	$(GO) install -trimpath -ldflags '$(MCP_LDFLAGS)' ./cmd/intenthook-attest
	$(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/intenthook-console

# -race needs cgo. make test runs every package under the race detector and
# every testscript against the binaries as make build makes them (built once
# by the tests); make test-slow runs the end-to-end suites it leaves out:
# every testscript again in process, under the race detector (TestScripts),
# the hostile forms (TestHostile), and cosign and go-securesystemslib
# verifying what intenthook attest signs (TestCosignVerifies: cosign is run
# with go run from tools/cosign, its own module, and its first build takes
# minutes), a person answering asks in the console in a real Chromium
# (TestConsoleInBrowser) and the report's pages in it (TestInBrowser,
# TestDemoInBrowser: Chromium's start-up alone kept make test past its
# 3 min 30 s on 2 cores), and a hundred races of two clones for one intent
# through claims.remote on git daemon (TestRemoteClaimRaces100; make test
# races five). .ci/run runs both.
SLOW := ^(TestScripts|TestHostile|TestCosignVerifies|TestConsoleInBrowser|TestInBrowser|TestDemoInBrowser|TestRemoteClaimRaces100)$$
# The ledger's crash tests kill the appender at fault points built only
# with -tags ledgerfault (the release binary has none).
test:
	CGO_ENABLED=1 $(GO) test -race -timeout 20m -skip '$(SLOW)' ./...
	$(GO) test -tags ledgerfault -run '^TestKilled$$' ./internal/ledger

test-slow:
	CGO_ENABLED=1 $(GO) test -race -timeout 30m -run '$(SLOW)' ./cmd/intenthook ./internal/report

# intenthook export otlp against a real OpenTelemetry Collector, built once
# with the Collector Builder at pinned versions (scripts/otelcol-build.sh,
# cached in INTENTHOOK_OTELCOL_CACHE): every protocol, the collector down
# then up, a kill in the middle of an export. Not part of test: the first
# build of the collector takes minutes.
OTELCOL_CACHE ?= $(or $(INTENTHOOK_OTELCOL_CACHE),$(HOME)/.cache/intenthook-otelcol)
test-otel:
	otelcol=$$(INTENTHOOK_OTELCOL_CACHE=$(OTELCOL_CACHE) bash scripts/otelcol-build.sh) && \
	  INTENTHOOK_OTELCOL=$$otelcol $(GO) test -tags otelcol -count 1 -timeout 15m -run 'TestCollector' -v ./cmd/intenthook

# Released for linux, darwin and windows (make dist); lint vets the other two
# (CGO_ENABLED=0, as released: what has no Windows equivalent has a Windows
# file of its own, never a build error).
OTHER_PLATFORMS := windows/amd64 darwin/arm64
lint:
	@test -z "$$(gofmt -l cmd internal)" || { gofmt -l cmd internal; echo 'gofmt: the files above need formatting'; exit 1; }
	$(GO) vet ./...
	$(GO) vet -tags noyaml ./internal/intents/... ./internal/config ./internal/full ./internal/hookcmd
	$(GO) vet -tags otelcol ./cmd/intenthook
	$(GO) build -tags noyaml -o /dev/null ./cmd/intenthook
	@for p in $(OTHER_PLATFORMS); do \
	  echo "vet $$p"; \
	  GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) vet ./... && \
	  GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) vet -tags noyaml ./internal/intents/... ./internal/config ./internal/full ./internal/hookcmd && \
	  GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -tags noyaml -o /dev/null ./cmd/intenthook || exit 1; \
	done
	$(GO) run $(STATICCHECK) ./...
	$(GO) run $(ACTIONLINT) -shellcheck= .github/workflows/*.yml

# The hot functions in process, then whole processes against the floor.
# ONLY=hot|ledger|bash|agents|transcript times one group of whole-process rows alone.
# It exits 1 when a held number is exceeded on a quiet machine
# (BENCH_FLAGS=-gate=false: print the verdict only; see docs/performance.md).
BENCH_PKGS := ./internal/agent/claude ./internal/intents ./internal/digest ./internal/intentctx ./internal/ledger ./internal/gate
bench: build
ifeq ($(ONLY),)
	$(GO) test -run '^$$' -bench . -benchmem $(BENCH_PKGS)
endif
	$(GO) run ./internal/bench/benchhook -bin $(BIN) $(if $(ONLY),-only $(ONLY)) $(BENCH_FLAGS)

# Commit-time, CI and people's commands on generated histories (precommit on
# 100k and 1M records; ledger verify, blame and query on 1M; audit over 100
# commits): minutes to build, so not in bench.
bench-commit: build
	$(GO) run ./internal/bench/benchhook -bin $(BIN) -only commit

# What the ledger costs git: .git growth and add+commit time over 100
# commits at 50 000 and 500 000 records, the single file of before segments
# against segments (RECORDS=50000 for the quick one). Minutes; not in bench.
RECORDS ?= 50000,500000
bench-ledger-git:
	$(GO) run ./internal/bench/gitgrowth -records $(RECORDS)

demo: build
	@bash scripts/demo.sh $(BIN)

# Real agent CLIs (npm, cached in INTENTHOOK_E2E_CACHE) against bin/intenthook
# and a scripted mock model; not part of test. Prints an agent x scenario table.
E2E_CACHE ?= $(or $(INTENTHOOK_E2E_CACHE),$(HOME)/.cache/intenthook-e2e)
e2e: build
	INTENTHOOK_E2E_CACHE=$(E2E_CACHE) bash scripts/e2e-install.sh
	$(GO) run ./internal/e2e/cmd/e2e -intenthook $(BIN) -cache $(E2E_CACHE)

# The release under dist/: GoReleaser (pinned in tools/go.mod, its own module
# so that go.mod does not take its dependencies) builds the archives of the
# three binaries for linux, darwin and windows x amd64, arm64, the checksums
# and the Homebrew cask; npmdist the npm packages. Offline once the module
# cache holds both modules' dependencies.
# GoReleaser asks git for the remote's URL and, in a clone without one, takes
# the commit to be "none": a remote is named for it alone then.
GORELEASER := $(GO) run -modfile=tools/go.mod github.com/goreleaser/goreleaser/v2
DIST_GIT   := $(if $(shell git remote 2>/dev/null),,GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/intenthook/intenthook.git)
dist:
	$(DIST_GIT) nice -n 10 $(GORELEASER) release --snapshot --clean --skip=publish
	$(GO) run ./internal/release/cmd/npmdist -dist dist

# A tagged release, published (the release workflow runs these on a tag):
# GoReleaser uploads the archives, checksums and installers to the GitHub
# release and pushes the cask (GITHUB_TOKEN); npm-publish publishes
# dist/npm's tarballs, the platform packages before the main one.
release:
	$(GORELEASER) release --clean
	$(GO) run ./internal/release/cmd/npmdist -dist dist

npm-publish:
	@main=$$(ls dist/npm/intenthook-[0-9]*.tgz) || exit 1; \
	for t in dist/npm/*.tgz; do \
	  [ "$$t" = "$$main" ] || npm publish --provenance --access public "$$t" || exit 1; \
	done; \
	npm publish --provenance --access public "$$main"

# The npm packages installed offline into an empty project: npx intenthook
# version, init, doctor, and a hook event through the wiring init wrote.
npm-test:
	INTENTHOOK_DIST=$(CURDIR)/dist $(GO) test -count=1 -run 'TestNPM|TestInstallSh' ./internal/release

clean:
	rm -rf bin dist
