package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestConsoleInBrowser is a person answering asks in intenthook console
// in a real headless Chromium, through the shipped binaries: logged in by
// the printed URL, they see a decision made before the console ran and
// the intent on the intents board, then a waiting hook's ask appear with no reload,
// allow it with a click (the hook returns allow, the ledger names them and
// the console), then deny the next with a reason (the hook denies, the
// agent reads the reason). A screenshot of the page with a pending ask is
// kept ($INTENTHOOK_ARTIFACTS, else the test's temporary directory).
func TestConsoleInBrowser(t *testing.T) {
	browser := chromium()
	if browser == "" {
		t.Skip("no Chromium on this machine (install Debian's chromium, or set CHROMIUM): the console's browser test cannot run")
	}
	bin := buildShipped(t)
	setPath(t, filepath.Dir(bin))
	ws := t.TempDir()
	files := map[string]string{
		".orchestration/active_intents.yaml": `active_intents:
  - id: "INT-001"
    name: "Payments"
    status: "IN_PROGRESS"
    owned_scope: ["src/**"]
    requires_approval: true
    constraints: []
    acceptance_criteria: []
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
  - id: "INT-002"
    name: "Docs"
    status: "IN_REVIEW"
    review: required
    owned_scope: ["docs/**"]
    constraints: []
    acceptance_criteria: []
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
`,
		".orchestration/config.yaml": "ask: {via: console, timeout: 60s}\n",
		".gitignore":                 ".orchestration/state/\n",
	}
	for name, text := range files {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = ws
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("git", "init", "-q")
	run("git", "config", "user.email", "p@example.com")
	run("git", "config", "user.name", "P")
	run("git", "add", "-A")
	run("git", "commit", "-qm", "base")
	run(bin, "select", "INT-001", "--session", "s1")
	// A decision before the console runs: a write out of the intent's
	// scope, denied.
	early := exec.Command(bin, "pre")
	early.Dir = ws
	early.Stdin = strings.NewReader(`{"session_id":"s1","cwd":"` + ws + `","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"` + filepath.Join(ws, "outside.txt") + `","content":"x"},"tool_use_id":"early"}`)
	if out, err := early.CombinedOutput(); early.ProcessState.ExitCode() != 2 {
		t.Fatalf("a write out of scope before the console: %v, want exit 2\n%s", err, out)
	}

	console := exec.Command(bin, "console")
	console.Dir = ws
	out, err := console.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := console.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { console.Process.Signal(syscall.SIGINT); console.Wait() })
	login, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.Contains(login, "/login?token=") {
		t.Fatalf("the console printed %q (%v)", login, err)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.WindowSize(1280, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	reason := "not before the release"
	err = chromedp.Listen(ctx, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true, PromptText: reason})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(strings.TrimSpace(login))); err != nil {
		t.Fatal(err)
	}
	// until polls the page for a JavaScript condition; click clicks the
	// element a selector names.
	until := func(cond string) {
		t.Helper()
		for {
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
			if err != nil {
				t.Fatalf("waiting for %s: %v", cond, err)
			}
			if ok {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	click := func(sel string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("(e => (e.click(), true))(document.querySelector(`"+sel+"`))")); err != nil {
			t.Fatalf("click %s: %v", sel, err)
		}
	}
	until(`document.getElementById("status").textContent === "live"`)
	// The decision made before the page connected is in its feed, and
	// the intents board lists the intent.
	until("[...document.querySelectorAll(`#feed tr`)].some(tr => tr.textContent.includes(`outside.txt`) && tr.textContent.includes(`deny`))")
	until("[...document.querySelectorAll(`#board tr`)].some(tr => tr.children[0].textContent === `INT-001` && tr.children[1].textContent === `Payments` && tr.children[2].textContent === `IN_PROGRESS` && tr.children[4].textContent !== `0`)")

	// A hook waits; its ask appears on the page, unreloaded.
	hook := func(file string) (done chan struct{}, stdout, stderr *bytes.Buffer, code *int) {
		payload := `{"session_id":"s1","cwd":"` + ws + `","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"` + filepath.Join(ws, file) + `","content":"x"},"tool_use_id":"` + file + `"}`
		cmd := exec.Command(bin, "pre")
		cmd.Dir = ws
		cmd.Stdin = strings.NewReader(payload)
		stdout, stderr, code = &bytes.Buffer{}, &bytes.Buffer{}, new(int)
		cmd.Stdout, cmd.Stderr = stdout, stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done = make(chan struct{})
		go func() {
			cmd.Wait()
			*code = cmd.ProcessState.ExitCode()
			close(done)
		}()
		return done, stdout, stderr, code
	}
	wait := func(done chan struct{}) {
		t.Helper()
		select {
		case <-done:
		case <-time.After(45 * time.Second):
			t.Fatal("the hook is still waiting after the click")
		}
	}

	done, stdout, _, code := hook("src/pay.go")
	until("document.querySelector(`#pending .ask`)?.textContent.includes(`src/pay.go`) ?? false")
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	click(`#pending .ask button:nth-of-type(1)`)
	keep(t, "console-pending.png", shot)
	wait(done)
	if *code != 0 || !strings.Contains(stdout.String(), `"permissionDecision":"allow","permissionDecisionReason":"intenthook: P <p@example.com>`) {
		t.Errorf("after Allow the hook exited %d with %s", *code, stdout)
	}

	done, _, stderr, code := hook("src/pay2.go")
	until("document.querySelector(`#pending .ask`)?.textContent.includes(`src/pay2.go`) ?? false")
	click(`#pending .ask button:nth-of-type(2)`)
	wait(done)
	if *code != 2 || !strings.Contains(stderr.String(), "deny [ask_denied]") || !strings.Contains(stderr.String(), "\n"+reason+"\n") {
		t.Errorf("after Deny the hook exited %d with %s", *code, stderr)
	}

	// The allowed write happens, and its post records it: blame shows
	// its line as the session's, under INT-001.
	if err := os.MkdirAll(filepath.Join(ws, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "src/pay.go"), []byte("package pay\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	post := exec.Command(bin, "post")
	post.Dir = ws
	post.Stdin = strings.NewReader(`{"session_id":"s1","cwd":"` + ws + `","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"` + filepath.Join(ws, "src/pay.go") + `","content":"package pay\n"},"tool_response":{"type":"create"},"tool_use_id":"src/pay.go"}`)
	if out, err := post.CombinedOutput(); err != nil {
		t.Fatalf("post: %v\n%s", err, out)
	}
	submit := func(form, input, value string) {
		t.Helper()
		js := "(() => { document.getElementById(`" + input + "`).value = `" + value + "`; document.getElementById(`" + form + "`).requestSubmit(); return true })()"
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err != nil {
			t.Fatalf("submit %s: %v", form, err)
		}
	}
	submit("blame-form", "blame-path", "src/pay.go")
	until("[...document.querySelectorAll(`#blame tr`)].some(tr => tr.children[1].textContent === `INT-001` && tr.children[2].textContent === `s1` && tr.children[3].textContent === `main` && tr.textContent.includes(`package pay`))")
	screenshot(ctx, t, "blame-form", "console-blame.png")

	// The roll-up of the commit that adds it: one line, the agent's.
	run("git", "add", "src/pay.go")
	run("git", "commit", "-qm", "pay")
	submit("rollup-form", "rollup-range", "HEAD~1..HEAD")
	until("document.getElementById(`rollup-note`).textContent.includes(`1 lines in 1 files, 1 by agents (100 %)`)")
	until("[...document.querySelectorAll(`#rollup tr`)].some(tr => tr.children[0].textContent === `author` && tr.children[1].textContent === `P <p@example.com>`)")

	// The intent in review, rejected with a reason from the page.
	until("document.querySelector(`#reviews .ask`)?.textContent.includes(`INT-002`) ?? false")
	screenshot(ctx, t, "reviews", "console-reviews.png")
	click(`#reviews .ask button:nth-of-type(2)`)
	until("document.getElementById(`status`).textContent === `INT-002: reject`")
	until("document.querySelector(`#reviews p`)?.textContent === `none`")
	if catalog, err := os.ReadFile(filepath.Join(ws, ".orchestration/active_intents.yaml")); err != nil || !strings.Contains(string(catalog), "id: \"INT-002\"\n    name: \"Docs\"\n    status: \"IN_PROGRESS\"") {
		t.Errorf("after Reject the catalog reads (%v):\n%s", err, catalog)
	}

	ledger := run(bin, "ledger", "query", "--json")
	for _, want := range []string{`"decision":"allow"`, `"decision":"deny"`, `"reason":"` + reason + `"`, `"event":"reject"`} {
		if !strings.Contains(ledger, want) {
			t.Errorf("the ledger lacks %s", want)
		}
	}
	if n := strings.Count(ledger, `"by":"P <p@example.com>"`); n != 3 || strings.Count(ledger, `"via":"console"`) != 3 {
		t.Errorf("the ledger names the person %d times and the console %d times, want 3 and 3 (two answers, a rejection):\n%s", n, strings.Count(ledger, `"via":"console"`), ledger)
	}
}

// screenshot keeps a picture of the page scrolled to the element id.
func screenshot(ctx context.Context, t *testing.T, id, name string) {
	t.Helper()
	scroll := "(() => { document.getElementById(`" + id + "`).scrollIntoView(); return true })()"
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](scroll)); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	keep(t, name, shot)
}

// chromium returns a Chromium to drive: $CHROMIUM, else the first of the
// usual names on PATH.
func chromium() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// keep writes an artefact of the test to $INTENTHOOK_ARTIFACTS, else to
// the test's temporary directory.
func keep(t *testing.T, name string, data []byte) {
	dir := os.Getenv("INTENTHOOK_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Error(err)
	}
}
