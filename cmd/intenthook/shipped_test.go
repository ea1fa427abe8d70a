package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/intenthook/intenthook/internal/attest"
	"github.com/intenthook/intenthook/internal/shipped"
)

// buildShipped returns the hook binary's path in a directory holding
// intenthook and intenthook-full as make build makes them (the hook binary
// without YAML), without the test's instrumentation (-race makes each
// process ten times slower). They are built once for all the package's
// tests, and removed when the tests end.
func buildShipped(t *testing.T) string {
	t.Helper()
	shippedOnce.Do(func() { shippedBin, shippedErr = build() })
	if shippedErr != nil {
		t.Fatal(shippedErr)
	}
	return shippedBin
}

var (
	shippedOnce sync.Once
	shippedBin  string
	shippedErr  error
	shippedDir  string // removed by TestMain
)

func build() (string, error) {
	dir, err := os.MkdirTemp("", "intenthook-shipped-")
	if err != nil {
		return "", err
	}
	shippedDir = dir
	if err := shipped.Build(dir, shipped.Hook, shipped.Full, shipped.Export, shipped.Attest, shipped.Console); err != nil {
		return "", err
	}
	return filepath.Join(dir, shipped.Hook.Name), nil
}

// setPath puts dir first on PATH for the test, for the programs that call
// intenthook themselves.
func setPath(t *testing.T, dir string) {
	old := os.Getenv("PATH")
	os.Setenv("PATH", dir+string(os.PathListSeparator)+old)
	t.Cleanup(func() { os.Setenv("PATH", old) })
}

// TestHookBinaryLinks holds the hook binary to what a hook needs: every
// package linked costs its initialisation on every tool call.
func TestHookBinaryLinks(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "noyaml", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	deps := strings.Fields(string(out))
	for _, banned := range []string{
		"go.yaml.in/yaml/v3",     // YAML goes to intenthook-full
		"github.com/spf13/cobra", // so does every command but the hooks
		"github.com/spf13/pflag", //
		"text/template",          // cobra's help, the report
		"html/template",          // the report
		"github.com/intenthook/intenthook/internal/cli",
		"github.com/intenthook/intenthook/internal/console", // a person's server: intenthook-console
		"net/http",
		"github.com/intenthook/intenthook/internal/export", // OpenTelemetry: intenthook-export
		"go.opentelemetry.io/otel/sdk/log",
		"go.opentelemetry.io/collector/pdata/plog",
		"google.golang.org/grpc",
		"crypto/rand", // its DRBG and math/big's initialisers: ids come from package randid
		"hash/crc32",  // builds its tables as the process starts
	} {
		if slices.Contains(deps, banned) {
			t.Errorf("the hook binary links %s", banned)
		}
	}
	// On Linux, package syscall has what the hook needs (macOS's process
	// table needs golang.org/x/sys/unix's sysctl).
	if runtime.GOOS == "linux" && slices.Contains(deps, "golang.org/x/sys/unix") {
		t.Errorf("the hook binary links golang.org/x/sys/unix")
	}
	for _, p := range attestOnly(deps) {
		t.Errorf("the hook binary links %s (intenthook-attest's)", p)
	}
}

// attestOnly returns the packages of deps that belong to intenthook-attest
// alone: intenthook's attest package, and Sigstore's libraries and what
// they bring (in-toto, DSSE, TUF, the transparency log's client), whose
// package initialisation no hook may pay.
func attestOnly(deps []string) []string {
	var out []string
	for _, p := range deps {
		switch {
		case p == "github.com/intenthook/intenthook/internal/attest",
			strings.HasPrefix(p, "github.com/sigstore/"),
			strings.HasPrefix(p, "github.com/in-toto/"),
			strings.HasPrefix(p, "github.com/secure-systems-lab/"),
			strings.HasPrefix(p, "github.com/theupdateframework/"),
			strings.HasPrefix(p, "github.com/go-openapi/"):
			out = append(out, p)
		}
	}
	return out
}

// TestHookBinaryAlone runs the hook binary without intenthook-full beside
// it, with a real one on PATH that it must not use (a hook trusts the parse
// and the catalog edits of the full binary, so only the one installed with
// it, not one any directory of PATH can hold): a person's command says what
// is missing; a hook line the full binary would have had to answer goes
// through the fail mode (closed here: exit 2, the call is not let through),
// and so does a hook that needs the catalog parsed; and a hook binary
// installed under the full binary's name is found out instead of running in
// circles.
func TestHookBinaryAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	shipped := buildShipped(t)
	alone := filepath.Join(t.TempDir(), "intenthook")
	copyFile(t, shipped, alone)
	twice := filepath.Join(t.TempDir(), "intenthook")
	copyFile(t, shipped, twice)
	copyFile(t, shipped, filepath.Join(filepath.Dir(twice), "intenthook-full"))

	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".orchestration"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"config.yaml": "fail_mode: closed\n", "active_intents.yaml": "active_intents: []\n"} {
		if err := os.WriteFile(filepath.Join(root, ".orchestration", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		bin    string
		args   []string
		code   int
		stderr string
	}{
		{alone, []string{"status"}, 1, "intenthook: error: intenthook-full, which runs every command but the hooks, is not installed"},
		{alone, []string{"pre", "--bogus"}, 2, "intenthook-full, which runs every command but the hooks, is not installed"},
		{alone, []string{"pre"}, 2, "intenthook-full, which runs every command but the hooks, is not installed"},
		{twice, []string{"status"}, 1, "intenthook-full is not the full binary: it handed the work back to intenthook"},
	}
	for _, tt := range tests {
		cmd := exec.Command(tt.bin, tt.args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(shipped)+":/usr/bin:/bin")
		cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"a"}}`)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tt.code || !strings.Contains(stderr.String(), tt.stderr) {
			t.Errorf("%s %v: exit %d, stderr %q; want exit %d and %q", filepath.Base(filepath.Dir(tt.bin)), tt.args, code, stderr.String(), tt.code, tt.stderr)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestActionInstalls runs the install step of the GitHub Action (action.yml)
// as a runner would, into an empty bin directory, and the audit it installs
// for: every command but the hooks runs in intenthook-full, so the step
// must install it beside intenthook.
func TestActionInstalls(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Steps []struct{ Run string }
		}
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	var install string
	for _, s := range action.Runs.Steps {
		if strings.Contains(s.Run, "go install") {
			install = s.Run
		}
	}
	if install == "" {
		t.Fatal("action.yml has no step that runs go install")
	}
	bin, pathFile := t.TempDir(), filepath.Join(t.TempDir(), "github_path")
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", install)
	cmd.Dir = "../.."
	// With attest: true it installs intenthook-attest too.
	cmd.Env = append(os.Environ(), "GOBIN="+bin, "GITHUB_PATH="+pathFile, "CGO_ENABLED=0", "ATTEST=true")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the install step: %v\n%s", err, out)
	}
	added, err := os.ReadFile(pathFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(added)); got != bin {
		t.Errorf("the step put %q on PATH, want %q (where go install put the binaries)", got, bin)
	}
	out, err := exec.Command(filepath.Join(bin, "intenthook"), "audit", "--help").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "intenthook audit") {
		t.Errorf("intenthook audit --help after the install step: %v\n%s", err, out)
	}
	out, err = exec.Command(filepath.Join(bin, "intenthook"), "attest", "--help").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "usage: intenthook attest [RANGE]") {
		t.Errorf("intenthook attest --help after the install step with attest: true: %v\n%s", err, out)
	}
}

// actionStep is a step of action.yml.
type actionStep struct {
	ID, If, Uses, Run string
	Env, With         map[string]string
}

// TestActionAttestStep holds the Action's attest step to what
// scripts/audit-pr.sh writes (the testscript audit_action_attest runs the
// script; GitHub alone runs actions/attest): the audit step, with the id
// the attest step reads, passes the attest input and a directory; the
// attest step runs only when asked, after a failed audit too, and gives
// actions/attest the range file as its subject, the predicate and its type,
// by the output names the script writes.
func TestActionAttestStep(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct{ Default string }
		Runs   struct{ Steps []actionStep }
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	if in, ok := action.Inputs["attest"]; !ok || in.Default != "false" {
		t.Errorf("the attest input: %+v, %v; want one that defaults to false", in, ok)
	}
	if in, ok := action.Inputs["range"]; !ok || in.Default != "" {
		t.Errorf("the range input: %+v, %v; want one that defaults to nothing", in, ok)
	}
	var audit, step *actionStep
	for i, s := range action.Runs.Steps {
		switch {
		case strings.Contains(s.Run, "scripts/audit-pr.sh"):
			audit = &action.Runs.Steps[i]
		case strings.HasPrefix(s.Uses, "actions/attest@"):
			step = &action.Runs.Steps[i]
		}
	}
	if audit == nil || step == nil {
		t.Fatalf("action.yml: the audit step %v, the attest step %v", audit, step)
	}
	if audit.ID != "audit" {
		t.Errorf("the audit step's id is %q: the attest step reads steps.audit.outputs", audit.ID)
	}
	for k, want := range map[string]string{"ATTEST": "${{ inputs.attest }}", "RANGE": "${{ inputs.range }}", "BASE": "${{ inputs.base }}", "STRICT": "${{ inputs.strict }}"} {
		if audit.Env[k] != want {
			t.Errorf("the audit step's %s is %q, want %q", k, audit.Env[k], want)
		}
	}
	if audit.Env["ATTEST_DIR"] == "" {
		t.Error("the audit step names no ATTEST_DIR")
	}
	for _, want := range []string{"!cancelled()", "inputs.attest == 'true'", "steps.audit.outputs.subject-path != ''"} {
		if !strings.Contains(step.If, want) {
			t.Errorf("the attest step's if %q lacks %q", step.If, want)
		}
	}
	want := map[string]string{
		"subject-path":   "${{ steps.audit.outputs.subject-path }}",
		"predicate-path": "${{ steps.audit.outputs.predicate-path }}",
		"predicate-type": "${{ steps.audit.outputs.predicate-type }}",
	}
	if len(step.With) != len(want) {
		t.Errorf("the attest step's inputs: %v, want %v", step.With, want)
	}
	script, err := os.ReadFile("../../scripts/audit-pr.sh")
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range want {
		if step.With[k] != v {
			t.Errorf("the attest step's %s is %q, want %q", k, step.With[k], v)
		}
		if !strings.Contains(string(script), "echo \""+k+"=") {
			t.Errorf("scripts/audit-pr.sh writes no %s to $GITHUB_OUTPUT", k)
		}
	}
	if !strings.Contains(string(script), "predicate-type="+attest.PredicateType) {
		t.Errorf("scripts/audit-pr.sh does not name the predicate type %s", attest.PredicateType)
	}
}

// TestFullBinaryLinks keeps the OpenTelemetry SDK, gRPC and the Collector's
// pdata out of intenthook-full: a hook starts it (a catalog the cache has
// not seen), so its start is on the hook path too. They live in
// intenthook-export; Sigstore's libraries, likewise, in intenthook-attest,
// and the console's HTTP server (net/http, which nothing else of
// intenthook-full's needs) in intenthook-console.
func TestFullBinaryLinks(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../intenthook-full").Output()
	if err != nil {
		t.Fatal(err)
	}
	deps := strings.Fields(string(out))
	for _, banned := range []string{
		"github.com/intenthook/intenthook/internal/export",
		"go.opentelemetry.io/otel/sdk/log",
		"go.opentelemetry.io/collector/pdata/plog",
		"google.golang.org/grpc",
		"github.com/intenthook/intenthook/internal/console",
		"net/http",
	} {
		if slices.Contains(deps, banned) {
			t.Errorf("intenthook-full links %s", banned)
		}
	}
	for _, p := range attestOnly(deps) {
		t.Errorf("intenthook-full links %s (intenthook-attest's)", p)
	}
}

// TestAttestOnlyIsAttests holds attestOnly to what intenthook-attest
// links: a list that matched nothing there would keep nothing out.
func TestAttestOnlyIsAttests(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../intenthook-attest").Output()
	if err != nil {
		t.Fatal(err)
	}
	got := attestOnly(strings.Fields(string(out)))
	for _, want := range []string{
		"github.com/intenthook/intenthook/internal/attest",
		"github.com/sigstore/sigstore-go/pkg/sign",
		"github.com/sigstore/sigstore-go/pkg/verify",
		"github.com/secure-systems-lab/go-securesystemslib/dsse",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("intenthook-attest does not link %s: attestOnly no longer names what keeps Sigstore out of the hook binaries", want)
		}
	}
}
