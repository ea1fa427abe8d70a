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
	var html bytes.Buffer
	if err := r.Write(&html); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, html.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	view := open(t, browser, file)
	count, visible, set, eval := view.count, view.visible, view.set, view.eval
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
	shot, err := chromedp.Run(view.ctx, chromedp.CaptureScreenshot()) // the first screen: the page is long
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
	view.noProblems()
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

// TestDemoInBrowser loads the report of the demo session (`make demo`, the
// real binary through scripts/demo.sh): the board shows each intent of the
// demo's catalog, and the page logs no error.
func TestDemoInBrowser(t *testing.T) {
	browser := findChromium()
	if browser == "" {
		t.Skip("no Chromium on this machine (install Debian's chromium, or set CHROMIUM): the report's browser test cannot run")
	}
	dir := t.TempDir()
	// The two binaries, as make build makes them.
	bin := filepath.Join(dir, "intenthook")
	for _, args := range [][]string{
		{"-tags", "noyaml", "-o", bin, "../../cmd/intenthook"},
		{"-o", bin + "-full", "../../cmd/intenthook-full"},
	} {
		build := exec.Command("go", append([]string{"build"}, args...)...)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	file := filepath.Join(dir, "demo-report.html")
	demo := exec.Command("bash", "../../scripts/demo.sh", bin)
	demo.Env = append(os.Environ(), "INTENTHOOK_DEMO_REPORT="+file)
	if out, err := demo.CombinedOutput(); err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	catalog, err := os.ReadFile("../../testdata/demo/.orchestration/active_intents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := intents.Parse(catalog)
	if err != nil {
		t.Fatal(err)
	}
	view := open(t, browser, file)
	if cards, want := view.count(".board .card"), len(c.All()); cards != want || want == 0 {
		t.Errorf("the board shows %d intents, the demo's catalog has %d", cards, want)
	}
	if view.count("section.intent tr.ev") == 0 {
		t.Error("no event of the demo session is shown")
	}
	view.noProblems()
}

// loaded is a report open in the browser, with what it logged.
type loaded struct {
	t        *testing.T
	ctx      context.Context
	mu       sync.Mutex
	problems []string
}

// open loads file in a headless Chromium for the test's length.
func open(t *testing.T, browser, file string) *loaded {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.WindowSize(1280, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancel)
	p := &loaded{t: t, ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			p.problems = append(p.problems, "exception: "+e.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				p.problems = append(p.problems, fmt.Sprintf("console %s", e.Type))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *loaded) eval(expr string) int {
	p.t.Helper()
	n, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return n
}

func (p *loaded) count(sel string) int {
	return p.eval("document.querySelectorAll(`" + sel + "`).length")
}

func (p *loaded) visible(sel string) int {
	return p.eval("[...document.querySelectorAll(`" + sel + "`)].filter(e => e.offsetParent !== null).length")
}

func (p *loaded) set(id, value string) {
	p.eval(`(e => { e.value = "` + value + `"; e.dispatchEvent(new Event("input")); return 0 })(document.getElementById("` + id + `"))`)
}

func (p *loaded) noProblems() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.problems) > 0 {
		p.t.Errorf("the page logged: %s", strings.Join(p.problems, "; "))
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
