//go:build otelcol

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/intenthook/intenthook/internal/bench"
	"github.com/intenthook/intenthook/internal/ledger"
)

// The tests of `make test-otel`: intenthook export otlp through the shipped
// binaries against a real OpenTelemetry Collector (otlpreceiver and the
// contrib fileexporter, built by scripts/otelcol-build.sh), reading what
// arrived from the file the collector writes.

// collector is one running OpenTelemetry Collector.
type collector struct {
	bin, dir   string
	grpc, http string // host:port
	out        string // the file exporter's output
	cmd        *exec.Cmd
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func newCollector(t *testing.T) *collector {
	t.Helper()
	bin := os.Getenv("INTENTHOOK_OTELCOL")
	if bin == "" {
		t.Fatal("INTENTHOOK_OTELCOL is not set: run make test-otel, which builds the collector")
	}
	dir := t.TempDir()
	c := &collector{bin: bin, dir: dir, grpc: freePort(t), http: freePort(t), out: filepath.Join(dir, "logs.jsonl")}
	config := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      grpc:
        endpoint: %s
      http:
        endpoint: %s
exporters:
  file:
    path: %s
    flush_interval: 50ms
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    logs:
      receivers: [otlp]
      exporters: [file]
`, c.grpc, c.http, c.out)
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.stop)
	return c
}

// start runs the collector and waits until both receivers accept
// connections.
func (c *collector) start(t *testing.T) {
	t.Helper()
	c.cmd = exec.Command(c.bin, "--config", filepath.Join(c.dir, "config.yaml"))
	log, err := os.OpenFile(filepath.Join(c.dir, "collector.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	c.cmd.Stdout, c.cmd.Stderr = log, log
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, addr := range []string{c.grpc, c.http} {
		for {
			conn, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
			if err == nil {
				conn.Close()
				break
			}
			if time.Now().After(deadline) {
				data, _ := os.ReadFile(filepath.Join(c.dir, "collector.log"))
				t.Fatalf("the collector does not listen on %s:\n%s", addr, data)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// stop ends the collector gracefully: the file exporter flushes.
func (c *collector) stop() {
	if c.cmd == nil || c.cmd.Process == nil {
		return
	}
	c.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
	c.cmd = nil
}

func (c *collector) endpoint(protocol string) string {
	if protocol == "grpc" {
		return "http://" + c.grpc
	}
	return "http://" + c.http
}

// arrived is a log record as the collector wrote it, with its resource.
type arrived struct {
	service string
	res     pcommon.Map
	rec     plog.LogRecord
}

func (a arrived) attr(key string) string {
	v, ok := a.rec.Attributes().Get(key)
	if !ok {
		return ""
	}
	return v.AsString()
}

// received reads what the collector wrote for service, waiting until at
// least want records arrived (the file exporter flushes on a timer).
func (c *collector) received(t *testing.T, service string, want int) []arrived {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := c.read(t, service)
		if len(got) >= want || time.Now().After(deadline) {
			// A little longer: a record sent twice must be seen.
			time.Sleep(200 * time.Millisecond)
			return c.read(t, service)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (c *collector) read(t *testing.T, service string) []arrived {
	t.Helper()
	data, err := os.ReadFile(c.out)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []arrived
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		logs, err := (&plog.JSONUnmarshaler{}).UnmarshalLogs(sc.Bytes())
		if err != nil {
			continue // a line being written
		}
		for i := 0; i < logs.ResourceLogs().Len(); i++ {
			rl := logs.ResourceLogs().At(i)
			name, _ := rl.Resource().Attributes().Get("service.name")
			if name.AsString() != service {
				continue
			}
			for j := 0; j < rl.ScopeLogs().Len(); j++ {
				sl := rl.ScopeLogs().At(j)
				for k := 0; k < sl.LogRecords().Len(); k++ {
					out = append(out, arrived{service: service, res: rl.Resource().Attributes(), rec: sl.LogRecords().At(k)})
				}
			}
		}
	}
	return out
}

// exported counts how often each record id arrived.
func counts(recs []arrived) map[string]int {
	n := map[string]int{}
	for _, r := range recs {
		n[r.attr("log.record.uid")]++
	}
	return n
}

// ledgerIDs are the ids of the workspace's ledger records, in file order.
func ledgerIDs(t *testing.T, ws string) []string {
	t.Helper()
	var ids []string
	err := ledger.Scan(ws, func(_ []byte, rec *ledger.Record, err error) error {
		if err == nil {
			ids = append(ids, rec.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// otelWorkspace is a governed git workspace with records generated
// records in its ledger, a remote whose URL holds a token, and two records
// the real hooks write: an edit in scope and a denial.
func otelWorkspace(t *testing.T, bin string, records int, config string) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "ws")
	if err := bench.Workspace(ws, 100, records); err != nil {
		t.Fatal(err)
	}
	if config != "" {
		p := filepath.Join(ws, ".orchestration", "config.yaml")
		old, _ := os.ReadFile(p)
		if err := os.WriteFile(p, append(old, config...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"remote", "add", "origin", "https://bob:ghp_0123456789abcdef0123456789abcdef0123@github.com/acme/app.git"},
		{"add", "-A"},
		{"commit", "-qm", "start"},
	} {
		if err := bench.GitIn(ws, nil, args...); err != nil {
			t.Fatal(err)
		}
	}
	bench.Settle(ws)
	hook := filepath.Join(bin, "intenthook")
	for _, ev := range []struct{ name, stdin string }{
		{"pre", string(bench.Event(ws, "PreToolUse", "toolu_real"))},
		{"post", string(bench.Event(ws, "PostToolUse", "toolu_real"))},
		{"pre", fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":%q,"content":"x"},"tool_use_id":"toolu_denied"}`, ws, ws+"/src/other/secret.go")},
	} {
		if _, _, code := runSplit(t, ws, nil, ev.stdin, hook, ev.name); code != 0 && code != 2 {
			t.Fatalf("intenthook %s: exit %d", ev.name, code)
		}
	}
	return ws
}

// runSplit runs a program and returns its stdout, stderr and exit code.
func runSplit(t *testing.T, dir string, env []string, stdin, name string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errb.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return out.String(), errb.String(), 0
}

func otelEnv(c *collector, protocol, service string) []string {
	return []string{
		"OTEL_EXPORTER_OTLP_PROTOCOL=" + protocol,
		"OTEL_EXPORTER_OTLP_ENDPOINT=" + c.endpoint(protocol),
		"OTEL_EXPORTER_OTLP_HEADERS=authorization=Bearer%20otel-s3cret-token",
		"OTEL_RESOURCE_ATTRIBUTES=deployment.environment=test,team=platform",
		"OTEL_SERVICE_NAME=" + service,
	}
}

// exactlyOnce fails unless every id arrived exactly once and nothing else did.
func exactlyOnce(t *testing.T, ids []string, got []arrived) {
	t.Helper()
	n := counts(got)
	for _, id := range ids {
		if n[id] != 1 {
			t.Errorf("record %s arrived %d times, want once", id, n[id])
		}
	}
	if len(got) != len(ids) {
		t.Errorf("%d records arrived, want %d", len(got), len(ids))
	}
}

func TestCollector(t *testing.T) {
	bin := filepath.Dir(buildShipped(t))
	hook := filepath.Join(bin, "intenthook")
	c := newCollector(t)
	c.start(t)

	// Each protocol: every record once, with the pinned attributes; a
	// second export sends nothing.
	for _, protocol := range []string{"http/protobuf", "grpc", "http/json"} {
		t.Run("protocol "+strings.ReplaceAll(protocol, "/", "-"), func(t *testing.T) {
			ws := otelWorkspace(t, bin, 1200, "export: {batch: 500}\n")
			service := "ws-" + strings.ReplaceAll(protocol, "/", "-")
			env := otelEnv(c, protocol, service)
			stdout, stderr, code := runSplit(t, ws, env, "", hook, "export", "otlp")
			if code != 0 {
				t.Fatalf("export: exit %d\n%s%s", code, stdout, stderr)
			}
			ids := ledgerIDs(t, ws)
			if len(ids) != 1202 {
				t.Fatalf("the ledger holds %d records, want 1202", len(ids))
			}
			url := "http://" + c.http + "/v1/logs"
			if protocol == "grpc" {
				url = "http://" + c.grpc
			}
			// The generated segment's 1200 records in three batches, the
			// hooks' two in a segment of their own.
			want := fmt.Sprintf("intenthook: export: sent 1202 records in 4 batches from 2 ledger files (this clone's records) to %s over %s\n", url, protocol)
			if stdout != want {
				t.Errorf("stdout\n%q\nwant\n%q", stdout, want)
			}
			if strings.Contains(stdout+stderr, "s3cret") {
				t.Errorf("a header's value was printed:\n%s%s", stdout, stderr)
			}
			got := c.received(t, service, len(ids))
			exactlyOnce(t, ids, got)
			checkAttributes(t, got)

			stdout, _, code = runSplit(t, ws, env, "", hook, "export", "otlp")
			if code != 0 || !strings.HasPrefix(stdout, "intenthook: export: nothing new to send from 2 ledger files") {
				t.Errorf("second export: exit %d, %q", code, stdout)
			}
			exactlyOnce(t, ids, c.received(t, service, len(ids)+1))
		})
	}

	t.Run("collector down then up", func(t *testing.T) {
		ws := otelWorkspace(t, bin, 300, "")
		service := "ws-down"
		env := otelEnv(c, "http/protobuf", service)
		c.stop()
		stdout, stderr, code := runSplit(t, ws, env, "", hook, "export", "otlp")
		if code != 1 || stdout != "" || !strings.Contains(stderr, "intenthook: error: export otlp: could not send a batch of 300 records from .orchestration/ledger/"+bench.Writer+"/2026-11/000001.jsonl to http://"+c.http+"/v1/logs (http/protobuf)") ||
			!strings.Contains(stderr, "the export cursor did not move") {
			t.Errorf("export with the collector down: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
		}
		if cursors, _ := filepath.Glob(filepath.Join(ws, ".orchestration/state/export/otlp-*.json")); len(cursors) > 0 {
			t.Errorf("a cursor was written while nothing was sent: %v", cursors)
		}
		c.start(t)
		if _, stderr, code := runSplit(t, ws, env, "", hook, "export", "otlp"); code != 0 {
			t.Fatalf("export with the collector up: exit %d: %s", code, stderr)
		}
		ids := ledgerIDs(t, ws)
		exactlyOnce(t, ids, c.received(t, service, len(ids)))
	})

	t.Run("kill in the middle", func(t *testing.T) {
		const batch = 50
		ws := otelWorkspace(t, bin, 20000, fmt.Sprintf("export: {batch: %d}\n", batch))
		service := "ws-kill"
		env := otelEnv(c, "http/protobuf", service)
		// Three kills, each a little later after a batch's cursor was
		// written, so that one may land between the collector's answer and
		// the next cursor: each may cost that one batch again.
		const kills = 3
		cursor := filepath.Join(ws, ".orchestration/state/export/otlp-*.json")
		var at []int64
		for k := 0; k < kills; k++ {
			export := exec.Command(filepath.Join(bin, "intenthook-export"), "otlp")
			export.Dir, export.Env = ws, append(os.Environ(), env...)
			if err := export.Start(); err != nil {
				t.Fatal(err)
			}
			from := cursorRecords(cursor)
			deadline := time.Now().Add(60 * time.Second)
			for cursorRecords(cursor) < from+10*batch {
				if time.Now().After(deadline) {
					t.Fatal("the export made no progress")
				}
				time.Sleep(2 * time.Millisecond)
			}
			time.Sleep(time.Duration(k*7) * time.Millisecond)
			export.Process.Kill()
			export.Wait()
			at = append(at, cursorRecords(cursor))
		}
		before := at[len(at)-1]
		if before >= 20002 {
			t.Fatal("the export finished before the last kill: make the ledger longer")
		}
		if _, stderr, code := runSplit(t, ws, env, "", hook, "export", "otlp"); code != 0 {
			t.Fatalf("export after the kill: exit %d: %s", code, stderr)
		}
		ids := ledgerIDs(t, ws)
		got := c.received(t, service, len(ids))
		n := counts(got)
		twice := 0
		for _, id := range ids {
			switch {
			case n[id] == 0:
				t.Errorf("record %s never arrived", id)
			case n[id] == 2:
				twice++
			case n[id] > 2:
				t.Errorf("record %s arrived %d times", id, n[id])
			}
		}
		if twice > kills*batch {
			t.Errorf("%d records arrived twice: more than the batch (%d) each of %d kills interrupted", twice, batch, kills)
		}
		t.Logf("killed at %v of %d records; %d sent again", at, len(ids), twice)
	})

	t.Run("two exports at once", func(t *testing.T) {
		ws := otelWorkspace(t, bin, 3000, "export: {batch: 100}\n")
		service := "ws-twice"
		env := otelEnv(c, "grpc", service)
		var wg sync.WaitGroup
		codes := make([]int, 2)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, codes[i] = runSplit(t, ws, env, "", hook, "export", "otlp")
			}()
		}
		wg.Wait()
		if codes[0] != 0 || codes[1] != 0 {
			t.Errorf("exit codes %v", codes)
		}
		ids := ledgerIDs(t, ws)
		exactlyOnce(t, ids, c.received(t, service, len(ids)))
	})

	t.Run("checkout of fewer records", func(t *testing.T) {
		ws := otelWorkspace(t, bin, 100, "")
		service := "ws-checkout"
		env := otelEnv(c, "http/json", service)
		git := func(args ...string) {
			t.Helper()
			if err := bench.GitIn(ws, nil, args...); err != nil {
				t.Fatal(err)
			}
		}
		git("add", "-A")
		git("commit", "-qm", "agent work")
		if _, stderr, code := runSplit(t, ws, env, "", hook, "export", "otlp"); code != 0 {
			t.Fatalf("export: %s", stderr)
		}
		// Back to the first commit: its ledger lacks the hooks' segment. A
		// checkout adds or removes segments, and changes none that a
		// cursor stands in.
		git("checkout", "-q", "HEAD~1")
		stdout, stderr, code := runSplit(t, ws, env, "", hook, "export", "otlp")
		if code != 0 || strings.Contains(stderr, "changed since the last export") ||
			!strings.HasPrefix(stdout, "intenthook: export: nothing new to send") {
			t.Errorf("export on the shorter ledger: exit %d\n%s%s", code, stdout, stderr)
		}
		// New work there, then back to the longer branch.
		bench.Settle(ws)
		runSplit(t, ws, nil, string(bench.Event(ws, "PreToolUse", "toolu_detached")), hook, "pre")
		runSplit(t, ws, nil, string(bench.Event(ws, "PostToolUse", "toolu_detached")), hook, "post")
		detached := ledgerIDs(t, ws)
		stdout, stderr, code = runSplit(t, ws, env, "", hook, "export", "otlp")
		if code != 0 || !strings.HasPrefix(stdout, "intenthook: export: sent 1 record in 1 batch ") {
			t.Errorf("export of the new record: exit %d\n%s%s", code, stdout, stderr)
		}
		git("checkout", "-q", "-f", "-")
		stdout, stderr, code = runSplit(t, ws, env, "", hook, "export", "otlp")
		if code != 0 || strings.Contains(stderr, "changed since the last export") || !strings.HasPrefix(stdout, "intenthook: export: nothing new to send") {
			t.Errorf("export back on the longer ledger: exit %d\n%s%s", code, stdout, stderr)
		}
		// The detached work's segment is not committed: it stays in the
		// work tree across the checkout, its record in the ledger.
		ids := ledgerIDs(t, ws)
		if !slices.Contains(ids, detached[len(detached)-1]) {
			t.Errorf("the detached record is not in the ledger back on the branch")
		}
		exactlyOnce(t, ids, c.received(t, service, len(ids)))
	})

	t.Run("started by SessionEnd", func(t *testing.T) {
		ws := otelWorkspace(t, bin, 50, "export: {when: session_end}\n")
		service := "ws-session-end"
		env := otelEnv(c, "http/protobuf", service)
		start := time.Now()
		stdout, stderr, code := runSplit(t, ws, env, fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"SessionEnd","reason":"exit"}`, ws), hook, "context")
		took := time.Since(start)
		if code != 0 || stdout != "" || stderr != "" {
			t.Fatalf("context on SessionEnd: exit %d\n%s%s", code, stdout, stderr)
		}
		ids := ledgerIDs(t, ws)
		exactlyOnce(t, ids, c.received(t, service, len(ids)))
		log, _ := os.ReadFile(filepath.Join(ws, ".orchestration/state/export/otlp.log"))
		// The session's summary is appended first, then sent with the rest.
		if !strings.Contains(string(log), fmt.Sprintf("intenthook: export: sent %d records", len(ids))) || len(ids) < 52 {
			t.Errorf("otlp.log:\n%s", log)
		}
		t.Logf("SessionEnd hook returned in %v; the export ran detached", took)
	})
}

// cursorRecords is how many records the cursor (a glob: its name holds the
// endpoint's digest) says were sent.
func cursorRecords(glob string) int64 {
	paths, _ := filepath.Glob(glob)
	if len(paths) != 1 {
		return 0
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		return 0
	}
	var c struct {
		Files []struct{ Records int64 } `json:"files"`
	}
	if json.Unmarshal(data, &c) != nil || len(c.Files) == 0 {
		return 0
	}
	return c.Files[0].Records
}

// checkAttributes checks the pinned attributes on the denial and the edit
// the real hooks recorded, and the resource.
func checkAttributes(t *testing.T, got []arrived) {
	t.Helper()
	var deny, edit *arrived
	for i := range got {
		switch got[i].attr("intenthook.tool.use_id") {
		case "toolu_denied":
			deny = &got[i]
		case "toolu_real":
			edit = &got[i]
		}
	}
	if deny == nil || edit == nil {
		t.Fatalf("the hooks' records did not arrive (denial %v, edit %v)", deny != nil, edit != nil)
	}
	for _, a := range []*arrived{deny, edit} {
		if v := a.attr("vcs.repository.url.full"); v != "https://github.com/acme/app.git" {
			t.Errorf("vcs.repository.url.full = %q", v)
		}
		if v := a.attr("vcs.ref.head.revision"); len(v) != 40 {
			t.Errorf("vcs.ref.head.revision = %q", v)
		}
		if v := a.attr("session.id"); v != "bench" {
			t.Errorf("session.id = %q", v)
		}
		env, _ := a.res.Get("deployment.environment")
		if env.AsString() != "test" {
			t.Errorf("resource deployment.environment = %q", env.AsString())
		}
	}
	for key, want := range map[string]string{
		"intenthook.decision": "deny", "intenthook.code": "scope_violation", "intenthook.intent.id": "INT-200",
		"code.file.path": "src/other/secret.go", "intenthook.tool.name": "Write", "intenthook.event": "PreToolUse",
	} {
		if v := deny.attr(key); v != want {
			t.Errorf("denial %s = %q, want %q", key, v, want)
		}
	}
	if deny.rec.SeverityNumber() != plog.SeverityNumberWarn || deny.rec.SeverityText() != "WARN" {
		t.Errorf("denial severity %v %q", deny.rec.SeverityNumber(), deny.rec.SeverityText())
	}
	if b := deny.rec.Body().AsString(); b != "denied Write src/other/secret.go under INT-200: scope_violation" {
		t.Errorf("denial body %q", b)
	}
	for key, want := range map[string]string{
		"intenthook.decision": "allow", "intenthook.mutation.class": "AST_REFACTOR", "code.file.path": bench.File,
		"intenthook.scope.validation": "PASS", "intenthook.success": "true",
	} {
		if v := edit.attr(key); v != want {
			t.Errorf("edit %s = %q, want %q", key, v, want)
		}
	}
	if edit.rec.SeverityNumber() != plog.SeverityNumberInfo {
		t.Errorf("edit severity %v", edit.rec.SeverityNumber())
	}
}
