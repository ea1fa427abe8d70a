// Command benchhook times whole intenthook processes against the floor
// program (SPEC §15): pre and post on a catalog of 200 intents and a ledger of
// 100 000 records, and post on an empty ledger versus one of 1 000 000. Runs
// alternate between the measured program and the floor, after a warm-up, and
// medians are reported with their ratio.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

func main() {
	bin := flag.String("bin", "bin/intenthook", "the intenthook binary to measure")
	runs := flag.Int("runs", 200, "timed runs of each program per workload")
	warm := flag.Int("warmup", 20, "untimed runs first")
	flag.Parse()
	if err := run(*bin, *runs, *warm); err != nil {
		fmt.Fprintln(os.Stderr, "benchhook:", err)
		os.Exit(1)
	}
}

func run(bin string, runs, warm int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "intenthook-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	floor := filepath.Join(dir, "floor")
	build := exec.Command("go", "build", "-trimpath", "-o", floor, "./internal/bench/floor")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("build floor: %w", err)
	}
	fmt.Printf("machine: %s/%s, %d CPUs, %s\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpuModel())
	fmt.Printf("runs: %d per program per workload after %d warm-up runs, alternating with the floor\n\n", runs, warm)

	main := filepath.Join(dir, "ws")
	if err := workspace(main, 200, 100_000); err != nil {
		return err
	}
	pre, post, floorT, err := measurePair(bin, floor, main, runs, warm)
	if err != nil {
		return err
	}
	fmt.Printf("%-44s %10s %10s %7s\n", "workload", "median", "floor", "ratio")
	row := func(name string, d, f time.Duration) {
		fmt.Printf("%-44s %10s %10s %6.2fx\n", name, round(d), round(f), float64(d)/float64(f))
	}
	row("pre  (Write in scope, 200 intents, 100k)", pre, floorT)
	row("post (same tool_use_id, 200 intents, 100k)", post, floorT)

	empty := filepath.Join(dir, "empty")
	if err := workspace(empty, 200, 0); err != nil {
		return err
	}
	_, postEmpty, floorE, err := measurePair(bin, floor, empty, runs, warm)
	if err != nil {
		return err
	}
	big := filepath.Join(dir, "big")
	if err := workspace(big, 200, 1_000_000); err != nil {
		return err
	}
	_, postBig, floorB, err := measurePair(bin, floor, big, runs, warm)
	if err != nil {
		return err
	}
	row("post, empty ledger", postEmpty, floorE)
	row("post, 1 000 000-record ledger", postBig, floorB)
	fmt.Printf("\npost on 1 000 000 records / post on an empty ledger: %.2fx\n", float64(postBig)/float64(postEmpty))
	return nil
}

// measurePair alternates floor, pre and post runs on one workspace; each
// pre/post pair shares a fresh tool_use_id, as in a real session.
func measurePair(bin, floor, ws string, runs, warm int) (pre, post, fl time.Duration, err error) {
	var pres, posts, floors []time.Duration
	for i := 0; i < warm+runs; i++ {
		id := fmt.Sprintf("toolu_bench_%d", i)
		preEv := event(ws, "PreToolUse", id)
		postEv := event(ws, "PostToolUse", id)
		f, err := timeRun(floor, nil, ws, preEv)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("floor: %w", err)
		}
		p, err := timeRun(bin, []string{"pre"}, ws, preEv)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("pre: %w", err)
		}
		// The edit itself, between the hooks.
		if err := os.WriteFile(filepath.Join(ws, "src/mod100/file.go"), []byte(fmt.Sprintf("x%d\n", i)), 0o644); err != nil {
			return 0, 0, 0, err
		}
		q, err := timeRun(bin, []string{"post"}, ws, postEv)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("post: %w", err)
		}
		if i >= warm {
			floors, pres, posts = append(floors, f), append(pres, p), append(posts, q)
		}
	}
	return median(pres), median(posts), median(floors), nil
}

func timeRun(prog string, args []string, dir string, stdin []byte) (time.Duration, error) {
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("%v: %s", err, stderr.String())
	}
	if len(out) > 0 || stderr.Len() > 0 {
		return 0, fmt.Errorf("unexpected output (the call should be a silent allow): %s%s", out, stderr.String())
	}
	return d, nil
}

func event(ws, name, id string) []byte {
	resp := ""
	if name == "PostToolUse" {
		resp = fmt.Sprintf(`,"tool_response":{"type":"update","filePath":%q,"structuredPatch":[{"oldStart":1,"oldLines":1,"newStart":1,"newLines":1,"lines":["-x","+x"]}]}`, ws+"/src/mod100/file.go")
	}
	return []byte(fmt.Sprintf(`{"session_id":"bench","transcript_path":"/home/u/.claude/projects/bench/bench.jsonl","cwd":%q,"hook_event_name":%q,"tool_name":"Edit","tool_input":{"file_path":%q,"old_string":"x","new_string":"x"},"tool_use_id":%q%s}`,
		ws, name, ws+"/src/mod100/file.go", id, resp))
}

// workspace writes a governed workspace with n intents (INT-101 selected by
// the bench session), one small file in its scope, and a chained ledger of
// records lines.
func workspace(ws string, n, records int) error {
	var cat strings.Builder
	cat.WriteString("# Generated for make bench.\nactive_intents:\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&cat, `  - id: "INT-%03d"
    name: "Generated intent %d"
    status: "IN_PROGRESS"
    owned_scope: ["src/mod%d/**", "docs/mod%d.md"]
    constraints: ["Keep the public API stable", "No new dependencies"]
    acceptance_criteria:
      - "Behaviour %d is covered by tests"
      - description: "unit tests pass"
        check: "go test ./src/mod%d/..."
    related_specs: [{type: speckit, ref: ".specify/specs/mod%d.md"}]
    tags: ["generated"]
    created_at: "2026-11-01T09:00:00Z"
    updated_at: "2026-11-02T09:00:00Z"
`, i+100, i, i, i, i, i, i)
	}
	files := map[string]string{
		".orchestration/active_intents.yaml":       cat.String(),
		".orchestration/state/.gitignore":          "*\n",
		".orchestration/state/sessions/bench.json": `{"session_id":"bench","last_seen":"2026-11-22T00:00:00Z","intent":"INT-200"}`,
		"src/mod100/file.go":                       "x\n",
	}
	for name, content := range files {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return writeLedger(filepath.Join(ws, ".orchestration/agent_trace.jsonl"), records)
}

// writeLedger writes a hash-chained ledger of n records shaped like the ones
// post writes.
func writeLedger(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	prev := "null"
	for i := 1; i <= n; i++ {
		line := fmt.Sprintf(`{"version":"0.1.0","id":"00000000-0000-4000-8000-%012d","timestamp":"2026-11-22T10:00:00.000Z","tool":{"name":"intenthook","version":"bench"},"files":[{"path":"src/mod%d/file.go","conversations":[{"contributor":{"type":"ai","model_id":"anthropic/claude-sonnet-5"},"ranges":[{"start_line":1,"end_line":1}],"related":[{"type":"intent","url":"intent:INT-%03d"}]}]}],"metadata":{"dev.intenthook":{"seq":%d,"prev":%s,"event":"PostToolUse","intent_id":"INT-%03d","session_id":"old","agent_id":null,"tool_name":"Edit","tool_use_id":"toolu_%d","mutation_class":"AST_REFACTOR","pre_hash":null,"post_hash":null,"scope_validation":"PASS","decision":"allow","code":null,"success":true,"error":null}}}`,
			i, i%200+101, i%200+101, i, prev, i%200+101, i)
		sum := sha256.Sum256([]byte(line))
		prev = `"sha256:` + hex.EncodeToString(sum[:]) + `"`
		w.WriteString(line)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func round(d time.Duration) string { return d.Round(10 * time.Microsecond).String() }

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "model name") {
			if _, v, ok := strings.Cut(l, ":"); ok {
				return strings.TrimSpace(v)
			}
		}
	}
	return "unknown CPU"
}
