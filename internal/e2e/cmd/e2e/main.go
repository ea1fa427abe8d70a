// Command e2e runs real agent CLIs against the real intenthook binary in a
// throw-away governed git repository, the model played by mockmodel, and
// prints an agent × scenario table. Run it through "make e2e"; it is not part
// of "make test".
//
// Usage: go run ./internal/e2e/cmd/e2e -intenthook bin/intenthook -cache DIR
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/e2e/mockmodel"
)

type result struct{ scenario, verdict, reason string }

func main() {
	bin := flag.String("intenthook", "bin/intenthook", "intenthook binary")
	cache := flag.String("cache", filepath.Join(os.Getenv("HOME"), ".cache", "intenthook-e2e"), "installed clients")
	flag.Parse()
	abs, err := filepath.Abs(*bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "intenthook: error:", err)
		os.Exit(1)
	}
	rows := map[string][]result{"claude": runClaude(abs, filepath.Join(*cache, "claude", "node_modules", ".bin", "claude"))}
	failed := false
	for agent, rs := range rows {
		for _, r := range rs {
			fmt.Printf("%-8s %-24s %-4s %s\n", agent, r.scenario, r.verdict, r.reason)
			failed = failed || r.verdict == "FAIL"
		}
	}
	if failed {
		os.Exit(1)
	}
}

func runClaude(intenthook, claude string) []result {
	fail := func(err error) []result { return []result{{"setup", "FAIL", err.Error()}} }
	if _, err := os.Stat(claude); err != nil {
		return []result{{"all", "N/A", "client not installed: " + claude}}
	}
	tmp, err := os.MkdirTemp("", "e2e-claude-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	ws, home := filepath.Join(tmp, "proj"), filepath.Join(tmp, "home")
	_ = os.MkdirAll(home, 0o755)
	path := filepath.Dir(intenthook) + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, args := range [][]string{{"git", "init", "-q", ws}, {intenthook, "init", "--root", ws}} {
		c := exec.Command(args[0], args[1:]...)
		c.Dir, c.Env = tmp, append(os.Environ(), "PATH="+path)
		if out, err := c.CombinedOutput(); err != nil {
			return fail(fmt.Errorf("%s: %v: %s", args[0], err, out))
		}
	}
	in := filepath.Join(ws, "src", "example", "a.txt")
	out := filepath.Join(ws, "docs", "b.txt")
	srv := mockmodel.New([]mockmodel.Turn{
		{Calls: []mockmodel.ToolCall{{Name: "Write", Args: map[string]any{"file_path": in, "content": "a\n"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "Bash", Args: map[string]any{"command": "intenthook select INT-001"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "Write", Args: map[string]any{"file_path": in, "content": "a\n"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "Write", Args: map[string]any{"file_path": out, "content": "b\n"}}}},
		{Calls: []mockmodel.ToolCall{{Name: "Bash", Args: map[string]any{"command": "mkdir -p docs && echo c > docs/c.txt"}}}},
		{Text: "done"},
	})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, claude, "-p", "do the scripted task", "--output-format", "stream-json", "--verbose",
		"--permission-mode", "acceptEdits", "--allowedTools", "Bash")
	c.Dir = ws
	c.Env = append(os.Environ(), "PATH="+path, "HOME="+home, "ANTHROPIC_BASE_URL="+srv.URL, "ANTHROPIC_API_KEY=mock",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1")
	outb, err := c.CombinedOutput()
	if os.Getenv("INTENTHOOK_E2E_VERBOSE") != "" {
		fmt.Fprintf(os.Stderr, "%s\n", outb)
	}
	if err != nil {
		return fail(fmt.Errorf("claude: %v: %.300s", err, outb))
	}
	// Each request carries the whole conversation, so the last one shows
	// every tool result the model saw, deny reasons included.
	reqs := srv.Requests()
	last := ""
	if len(reqs) > 0 {
		last = reqs[len(reqs)-1].Body
	}
	denials := strings.Count(last, "PreToolUse:")
	session := sessionID(string(outb))
	ledger, _ := os.ReadFile(filepath.Join(ws, ".orchestration", "agent_trace.jsonl"))
	check := func(name string, ok bool, why string) result {
		if ok {
			return result{name, "PASS", why}
		}
		return result{name, "FAIL", why}
	}
	_, errDocs := os.Stat(out)
	_, errShell := os.Stat(filepath.Join(ws, "docs", "c.txt"))
	return []result{
		check("write-without-intent", strings.Contains(last, "INT-001") && denials >= 1, "deny reason reached the model"),
		check("in-scope-write", fileIs(in, "a\n") && strings.Contains(string(ledger), "src/example/a.txt") && session != "" &&
			strings.Contains(string(ledger), session), "file written, ledger record with session "+session),
		check("out-of-scope-write", os.IsNotExist(errDocs), "docs/b.txt not written"),
		check("out-of-scope-shell", os.IsNotExist(errShell), "docs/c.txt not written"),
		{"other agents", "N/A", "rows follow once main has --agent for pre/post"},
	}
}

// sessionID takes the session id from Claude Code's stream-json output.
func sessionID(out string) string {
	const key = `"session_id":"`
	i := strings.Index(out, key)
	if i < 0 {
		return ""
	}
	rest := out[i+len(key):]
	if j := strings.IndexByte(rest, '"'); j >= 0 {
		return rest[:j]
	}
	return ""
}

func fileIs(path, want string) bool {
	b, err := os.ReadFile(path)
	return err == nil && string(b) == want
}
