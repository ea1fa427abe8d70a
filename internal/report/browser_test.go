package report

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/intenthook/intenthook/internal/bench"
	"github.com/intenthook/intenthook/internal/intents"
)

// TestInBrowser loads reports in a real headless Chromium: the one of a
// generated workspace of 12 intents with dependencies and a 10 000-record
// ledger, and one whose intent names try to inject markup. The board must
// show every intent, choosing an intent must leave only its section and its
// events, a date range must hide the events outside it, and the page must
// log no error. A screenshot is kept ($INTENTHOOK_ARTIFACTS, else the test's
// temporary directory).
func TestInBrowser(t *testing.T) {
	browser := findChromium()
	if browser == "" {
		t.Skip("no Chromium on this machine (install Debian's chromium, or set CHROMIUM): the report's browser test cannot run")
	}
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := bench.Workspace(ws, 12, 10_000); err != nil {
		t.Fatal(err)
	}
	// Dependencies and a parent, so that the graph has edges.
	cat := filepath.Join(ws, ".orchestration/active_intents.yaml")
	data, _ := os.ReadFile(cat)
	data = bytes.Replace(data, []byte(`    name: "Generated intent 2"`), []byte("    name: \"Generated intent 2\"\n    depends_on: [\"INT-101\"]"), 1)
	data = bytes.Replace(data, []byte(`    name: "Generated intent 3"`), []byte("    name: \"Generated intent 3 <script>alert(1)</script>\"\n    depends_on: [\"INT-102\"]"), 1)
	if err := os.WriteFile(cat, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := intents.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(Options{Root: ws, Catalog: c, Now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Records != 10_000 {
		t.Fatalf("records %d", r.Records)
	}
	var page bytes.Buffer
	if err := r.Write(&page); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.WindowSize(1280, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	var mu sync.Mutex
	var problems []string
	err = chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				problems = append(problems, fmt.Sprintf("console %s", e.Type))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}

	eval := func(expr string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return n
	}
	count := func(sel string) int {
		return eval("document.querySelectorAll(`" + sel + "`).length")
	}
	visible := func(sel string) int {
		return eval("[...document.querySelectorAll(`" + sel + "`)].filter(e => e.offsetParent !== null).length")
	}
	set := func(id, value string) {
		eval(`(e => { e.value = "` + value + `"; e.dispatchEvent(new Event("input")); return 0 })(document.getElementById("` + id + `"))`)
	}
	if _, err := chromedp.Run(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	cards, sections, nodes, edges := count(".board .card"), count("section.intent"), count("svg g.node"), count("svg line")
	// The ledger names 200 intents (INT-101 to INT-300), the catalog 12:
	// every one has its section; the board and the graph show the catalog's.
	if cards != 12 || sections != 200 || nodes != 12 || edges != 2 {
		t.Errorf("cards %d, sections %d, graph nodes %d, edges %d: want 12, 200, 12, 2", cards, sections, nodes, edges)
	}
	// One script (the page's own); the hostile name is shown as text.
	if n := count("script"); n != 1 || eval(`document.body.innerText.includes("<script>alert(1)</script>") ? 1 : 0`) != 1 {
		t.Errorf("%d scripts, or the hostile name is not shown as text", n)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()) // the first screen: the page is long
	if err != nil {
		t.Fatal(err)
	}

	// Choosing an intent leaves its section and its events only.
	set("f-intent", "INT-105")
	events := count(`section.intent[data-intent="INT-105"] tr.ev`)
	if s, v := visible("section.intent"), visible("tr.ev"); s != 1 || events == 0 || v != events {
		t.Errorf("after choosing INT-105: %d sections, %d of its %d events shown", s, v, events)
	}
	// A date range after every record hides them all.
	set("f-from", "2027-01-01")
	if v := visible("tr.ev"); v != 0 {
		t.Errorf("%d events shown after 2027-01-01", v)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("the page logged: %s", strings.Join(problems, "; "))
	}
	out := os.Getenv("INTENTHOOK_ARTIFACTS")
	if out == "" {
		out = dir
	}
	if err := os.MkdirAll(out, 0o755); err == nil {
		p := filepath.Join(out, "report.png")
		if os.WriteFile(p, shot, 0o644) == nil {
			t.Logf("screenshot: %s", p)
		}
	}
}

// findChromium returns a Chromium to drive: $CHROMIUM, else the first of
// the usual names on PATH.
func findChromium() string {
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
