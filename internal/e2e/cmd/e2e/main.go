// Command e2e runs real agent CLIs against the real intenthook binary in
// throw-away governed git repositories, the model played by mockmodel, and
// prints one line per agent and scenario: PASS, FAIL or N/A, and why. It
// exits 1 on any FAIL. Run it through "make e2e"; it is not part of
// "make test".
//
// Usage: go run ./internal/e2e/cmd/e2e -intenthook bin/intenthook -cache DIR [-agents claude,gemini]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/e2e/harness"
	"github.com/intenthook/intenthook/internal/e2e/mockmodel"
)

// plan is a group of scenarios played in one fresh workspace per client:
// the client runs one or more scripted sessions, then play checks what
// happened, one row per scenario.
type plan struct {
	name   string
	agents []string // the clients it runs under
	play   func(t *trial)
	wiring string // the --agent init wires; "": the client's own
}

// hooked are the clients whose hooks intenthook wires and that run offline here.
var hooked = []string{"claude", "gemini", "codex", "qwen", "copilot", "droid", "auggie", "opencode", "opencode-gpt", "kilo"}

func plans() []plan {
	return []plan{
		{"governance", hooked, governance, ""},
		{"mcp", []string{"claude", "gemini", "codex", "qwen", "copilot", "droid", "auggie", "opencode"}, mcpSelect, ""},
		{"lessons", []string{"claude"}, lessonNextSession, ""},
		{"subagent", []string{"claude"}, subagentBriefing, ""},
		{"select-redirect", []string{"claude"}, selectRedirect, ""},
		{"review", []string{"claude"}, reviewCycle, ""},
		{"restore", []string{"claude"}, restoreShown, ""},
		{"sandbox-escape", []string{"claude"}, sandboxEscape, ""},
		{"mods", []string{"claude"}, modsRefused, ""},
		{"mods-headless", []string{"claude"}, modsHeadless, ""},
		{"sandbox", []string{"claude"}, sandboxed, ""},
		{"add-dir", []string{"claude"}, addedDir, ""},
		{"worktree", []string{"claude"}, inWorktree, ""},
		{"usage", []string{"claude"}, usageRecorded, ""},
		{"ask-wait", []string{"claude"}, asksWait, ""},
		{"stale", hooked, staleEdit, ""},
		{"shell-patch", []string{"codex"}, shellPatch, ""},
		// Copilot CLI also runs the hooks of a repository wired for Claude Code.
		{"claude-settings", []string{"copilot"}, claudeSettings, "claude"},
		// Cline 3 refuses one call through intenthook's plugin; a hook
		// file alone can only stop the whole task.
		{"plugin", []string{"cline"}, clineDeny, ""},
		{"no-plugin", []string{"cline"}, clineNoPlugin, ""},
		{"resume", []string{"cline"}, clineResume, ""},
	}
}

type row struct{ agent, scenario, verdict, detail string }

func main() {
	bin := flag.String("intenthook", "bin/intenthook", "intenthook binary (intenthook-mcp must sit next to it)")
	cache := flag.String("cache", filepath.Join(os.Getenv("HOME"), ".cache", "intenthook-e2e"), "installed clients")
	only := flag.String("agents", "", "comma-separated clients to run (default: all)")
	onlyPlans := flag.String("plans", "", "comma-separated plans to run (default: all): "+planNames())
	flag.Parse()
	abs, err := filepath.Abs(*bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "intenthook: error:", err)
		os.Exit(1)
	}
	// Every client runs in a workspace of its own; the run starts outside
	// the checkout too, and fails if it left anything there.
	checkout, err := harness.OpenCheckout(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "intenthook: error:", err)
		os.Exit(1)
	}
	back, err := harness.Leave()
	if err != nil {
		fmt.Fprintln(os.Stderr, "intenthook: error:", err)
		os.Exit(1)
	}
	failed := false
	for _, c := range harness.Clients() {
		if *only != "" && !slices.Contains(list(*only), c.Name) && !slices.Contains(list(*only), c.Agent) {
			continue
		}
		for _, r := range runClient(c, abs, *cache, list(*onlyPlans)) {
			fmt.Printf("%-12s %-22s %-4s %s\n", r.agent, r.scenario, r.verdict, r.detail)
			failed = failed || r.verdict == "FAIL"
		}
	}
	back()
	changed, err := checkout.Changed()
	switch {
	case err != nil:
		fmt.Printf("%-12s %-22s %-4s %s\n", "e2e", "checkout", "FAIL", err)
		failed = true
	case len(changed) > 0:
		fmt.Printf("%-12s %-22s %-4s %s\n", "e2e", "checkout", "FAIL", "the run wrote into the checkout: "+strings.Join(changed, "; "))
		failed = true
	}
	if failed {
		os.Exit(1)
	}
}

// runClient plays every plan that runs under c, one client process at a
// time (the node clients are heavy).
func runClient(c harness.Client, intenthook, cache string, only []string) []row {
	var plans []plan
	for _, p := range plansFor(c.Name) {
		if only == nil || slices.Contains(only, p.name) {
			plans = append(plans, p)
		}
	}
	if len(plans) == 0 {
		return nil
	}
	if !c.Installed(cache) {
		return []row{{c.Name, "all", "N/A", "client not installed: " + c.Bin(cache)}}
	}
	var rows []row
	for _, p := range plans {
		t := &trial{c: c, cache: cache}
		wiring := p.wiring
		if wiring == "" {
			wiring = c.AgentName()
		}
		w, err := harness.NewWorkspace(intenthook, wiring)
		if err != nil {
			rows = append(rows, row{c.Name, p.name, "FAIL", err.Error()})
			continue
		}
		t.w = w
		p.play(t)
		w.Close()
		rows = append(rows, t.rows...)
	}
	return rows
}

func list(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func planNames() string {
	var names []string
	for _, p := range plans() {
		names = append(names, p.name)
	}
	return strings.Join(names, ", ")
}

func plansFor(agent string) []plan {
	var out []plan
	for _, p := range plans() {
		if slices.Contains(p.agents, agent) {
			out = append(out, p)
		}
	}
	return out
}

// trial is one plan under one client: its workspace and the rows it gave.
type trial struct {
	c     harness.Client
	w     *harness.Workspace
	cache string
	rows  []row
}

// run plays one headless session of turns (each a single tool call, or
// text), ending with "done".
func (t *trial) run(calls ...mockmodel.ToolCall) harness.Session {
	return t.runWith(nil, calls...)
}

// runWith is run with args on the client's command line.
func (t *trial) runWith(args []string, calls ...mockmodel.ToolCall) harness.Session {
	turns := make([]mockmodel.Turn, 0, len(calls)+1)
	for _, c := range calls {
		turns = append(turns, mockmodel.Turn{Calls: []mockmodel.ToolCall{c}})
	}
	return t.w.RunWith(t.c, t.cache, append(turns, mockmodel.Turn{Text: "done"}), args...)
}

// check adds a row: PASS when ok, else FAIL with the detail.
func (t *trial) check(scenario string, ok bool, detail string) {
	v := "PASS"
	if !ok {
		v = "FAIL"
	}
	t.rows = append(t.rows, row{t.c.Name, scenario, v, detail})
}

// failed adds a FAIL row for a session that did not run to its end.
func (t *trial) failed(scenario string, s harness.Session) bool {
	if s.Err == nil {
		return false
	}
	t.check(scenario, false, s.Err.Error())
	return true
}

// written checks that rel holds content and that the ledger records the
// write under a session id the client itself knows (its session files under
// HOME name it).
func (t *trial) written(rel, content string) (bool, string) {
	if got, _ := t.w.ReadFile(rel); got != content {
		return false, fmt.Sprintf("%s holds %q, want %q", rel, got, content)
	}
	recs, err := t.w.Records()
	if err != nil {
		return false, "ledger: " + err.Error()
	}
	rec := harness.Written(recs, rel)
	if rec == nil {
		return false, fmt.Sprintf("no ledger record of the write to %s (%d records)", rel, len(recs))
	}
	sid := rec.Metadata.Intenthook.SessionID
	if !t.w.ClientKnows(sid) {
		return false, fmt.Sprintf("ledger session %q is not in the client's own files", sid)
	}
	detail := "recorded, session " + sid
	if url := conversationURL(rec.Files); url != "" {
		detail += ", transcript " + filepath.Base(url)
	}
	return true, detail
}
