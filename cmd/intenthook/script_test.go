package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/intenthook/intenthook/internal/attest"
	"github.com/intenthook/intenthook/internal/cli"
	"github.com/intenthook/intenthook/internal/confine"
	"github.com/intenthook/intenthook/internal/consolecmd"
	"github.com/intenthook/intenthook/internal/export"
	"github.com/intenthook/intenthook/internal/ledger"
)

func TestMain(m *testing.M) {
	testscript.Main(removeShipped{m}, map[string]func(){
		// The two binaries as make build makes them: every script runs the
		// hook binary, which hands all but the hooks to the full one.
		"intenthook":      main,
		"intenthook-full": func() { os.Exit(cli.FullMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		// And the programs the full binary hands commands to, which make
		// build puts beside them.
		"intenthook-export":  func() { os.Exit(export.Main(os.Args[1:], os.Stdout, os.Stderr, "test")) },
		"intenthook-attest":  func() { os.Exit(attest.Main(os.Args[1:], os.Stdout, os.Stderr, "test")) },
		"intenthook-console": func() { os.Exit(consolecmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		// A webhook's receiver, for the asks' notifications.
		"webhook-sink": func() { os.Exit(webhookSink()) },
	})
}

// removeShipped runs the tests, then removes the binaries buildShipped
// made for them.
type removeShipped struct{ m *testing.M }

func (r removeShipped) Run() int {
	code := r.m.Run()
	if shippedDir != "" {
		os.RemoveAll(shippedDir)
	}
	return code
}

var update = flag.Bool("update", false, "rewrite the golden files inside the scripts from what the binary produced")

// TestScripts runs testdata/script/*.txtar: real event payloads through the
// real binary, asserting exit codes, stdout JSON and the files written.
func TestScripts(t *testing.T) { runScripts(t, "", *update) }

// TestScriptsShipped runs every script again with the binaries as make
// build makes them: the hook binary built without YAML (its catalog parses,
// settings outside the plain subset and catalog edits go to intenthook-full)
// and the full binary beside it.
func TestScriptsShipped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries and runs every script again")
	}
	runScripts(t, filepath.Dir(buildShipped(t)), false)
}

// runScripts runs testdata/script with bin, when not empty, first on PATH.
func runScripts(t *testing.T, bin string, update bool) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       update,
		Setup: func(e *testscript.Env) error {
			if bin != "" {
				e.Setenv("PATH", bin+string(os.PathListSeparator)+e.Getenv("PATH"))
			}
			e.Setenv("HOME", e.WorkDir+"/.home")
			// Records are stamped in UTC whatever the zone: a script that
			// shows another zone sets TZ itself.
			e.Setenv("TZ", "UTC")
			// The race detector's options (make test-slow sets them):
			// testscript passes on only the variables it names.
			if v := os.Getenv("GORACE"); v != "" {
				e.Setenv("GORACE", v)
			}
			// The repository's own files (scripts/ run by action.yml).
			src, err := filepath.Abs("../..")
			if err != nil {
				return err
			}
			e.Setenv("INTENTHOOK_SRC", src)
			return nil
		},
		// [mountns]: a mount namespace of one's own can be had (unshare
		// -rm) and a file bound read-only in it, as an OS sandbox does.
		// [landlock]: the kernel enforces Landlock (checks run confined).
		// [offline]: a check can be kept off the network here (a network
		// namespace, or Landlock's network rules).
		// [shipped]: the commands are the binaries make build makes, not
		// this test binary (which links every command's packages).
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "shipped":
				return bin != "", nil
			case "offline":
				return confine.Network() != confine.NetNone, nil
			case "landlock":
				return confine.Available(), nil
			case "mountns":
			default:
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			f, err := os.CreateTemp("", "mountns-*")
			if err != nil {
				return false, err
			}
			f.Close()
			defer os.Remove(f.Name())
			bind := `mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && ! (echo x > "$1") 2>/dev/null`
			return exec.Command("unshare", "-rm", "sh", "-c", bind, "sh", f.Name()).Run() == nil, nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"code":       cmdCode,
			"subst":      cmdSubst,
			"trace":      cmdTrace,
			"waitfor":    cmdWaitFor,
			"ledgergrep": cmdLedgerGrep,
			"answer":     cmdAnswer,
			"schema":     cmdSchema,
			"lookdir":    cmdLookDir,
			"gencert":    cmdGenCert,
		},
	})
}

// cmdLookDir sets a variable to the directory of the first program of that
// name on PATH (`lookdir BIN intenthook`): a script can then build a PATH
// of its own that still runs the binaries under test.
func cmdLookDir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: lookdir VAR PROGRAM")
	}
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		for _, name := range []string{args[1], args[1] + ".exe"} {
			if st, err := os.Stat(filepath.Join(dir, name)); err == nil && !st.IsDir() {
				ts.Setenv(args[0], dir)
				return
			}
		}
	}
	ts.Fatalf("lookdir: %s is not on PATH", args[1])
}

// cmdCode runs a command and asserts its exact exit code:
// `code 2 intenthook pre` (exec's `!` only says "not zero").
func cmdCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: code N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("code: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("code: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// cmdAnswer prints one string field of the JSON answer the last command
// printed, so that a post answer's reason is matched line by line as exit
// 2's stderr is: `answer reason`. No JSON, or no such field, fails.
func cmdAnswer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: answer field")
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(ts.ReadFile("stdout")), &out); err != nil {
		ts.Fatalf("answer: the last stdout is not one JSON object: %v", err)
	}
	s, ok := out[args[0]].(string)
	if !ok {
		ts.Fatalf("answer: no string %q in the answer", args[0])
	}
	_, err := ts.Stdout().Write([]byte(s + "\n"))
	ts.Check(err)
}

// cmdSchema validates a JSON file against a JSON Schema (draft 2020-12):
// `schema SCHEMA FILE`; with `!`, the file must not validate.
func cmdSchema(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: schema schema.json file.json")
	}
	sch, err := jsonschema.NewCompiler().Compile(ts.MkAbs(args[0]))
	ts.Check(err)
	f, err := os.Open(ts.MkAbs(args[1]))
	ts.Check(err)
	defer f.Close()
	inst, err := jsonschema.UnmarshalJSON(f)
	ts.Check(err)
	err = sch.Validate(inst)
	switch {
	case err != nil && !neg:
		ts.Fatalf("%s does not validate against %s: %v", args[1], args[0], err)
	case err == nil && neg:
		ts.Fatalf("%s validates against %s", args[1], args[0])
	}
}

// cmdWaitFor waits up to 20 seconds for a file to match a regular
// expression: what a detached process writes, `waitfor FILE REGEXP`.
func cmdWaitFor(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitfor file regexp")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	deadline := time.Now().Add(20 * time.Second)
	for {
		data, _ := os.ReadFile(ts.MkAbs(args[0]))
		if re.Match(data) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s does not match %q after 20s:\n%s", args[0], args[1], data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cmdSubst replaces $WORK in files with the script's work directory, so that
// events carry the absolute paths Claude Code sends: `subst event.json`.
func cmdSubst(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: subst file...")
	}
	for _, name := range args {
		data, err := os.ReadFile(ts.MkAbs(name))
		ts.Check(err)
		out := strings.ReplaceAll(string(data), "$WORK", ts.Getenv("WORK"))
		ts.Check(os.WriteFile(ts.MkAbs(name), []byte(out), 0o644))
	}
}

// Fields of a ledger line that differ between runs, normalised for golden
// comparisons: uuids, times, the chain hashes that cover them, the commit.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"id":"[0-9a-f-]{36}"`), `"id":"<uuid>"`},
	{regexp.MustCompile(`"timestamp":"[^"]+"`), `"timestamp":"<time>"`},
	{regexp.MustCompile(`"prev":"sha256:[0-9a-f]{64}"`), `"prev":"<prev>"`},
	{regexp.MustCompile(`"revision":"[0-9a-f]{40}"`), `"revision":"<commit>"`},
}

// cmdTrace prints a ledger file with its volatile fields normalised, for
// `cmp stdout want.jsonl`: `trace .orchestration/agent_trace.jsonl`;
// `trace .orchestration/ledger` prints every ledger file (see ledgerBytes).
func cmdTrace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: trace file")
	}
	var data []byte
	var err error
	if args[0] == ledger.SegmentDir {
		data = ledgerBytes(ts)
	} else {
		data, err = os.ReadFile(ts.MkAbs(args[0]))
	}
	ts.Check(err)
	out := strings.ReplaceAll(string(data), ts.Getenv("WORK"), "$WORK")
	for _, v := range volatile {
		out = v.re.ReplaceAllString(out, v.with)
	}
	_, err = ts.Stdout().Write([]byte(out))
	ts.Check(err)
}

// ledgerBytes is every ledger file of the workspace in the current
// directory: the legacy file, then the segments in name order (one writer's
// are in the order it wrote them).
func ledgerBytes(ts *testscript.TestScript) []byte {
	root := ts.MkAbs(".")
	files, err := ledger.Files(root)
	ts.Check(err)
	var out []byte
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		ts.Check(err)
		out = append(out, b...)
	}
	return out
}

// cmdLedgerGrep is grep over every ledger file (see ledgerBytes):
// `ledgergrep [-count=N] PATTERN`; with `!`, no line may match.
func cmdLedgerGrep(ts *testscript.TestScript, neg bool, args []string) {
	want := -1
	if len(args) > 0 && strings.HasPrefix(args[0], "-count=") {
		n, err := strconv.Atoi(strings.TrimPrefix(args[0], "-count="))
		ts.Check(err)
		want, args = n, args[1:]
	}
	if len(args) != 1 {
		ts.Fatalf("usage: ledgergrep [-count=N] pattern")
	}
	re, err := regexp.Compile("(?m)" + args[0])
	ts.Check(err)
	n := 0
	for _, line := range strings.Split(string(ledgerBytes(ts)), "\n") {
		if re.MatchString(line) {
			n++
		}
	}
	switch {
	case neg && n > 0:
		ts.Fatalf("ledger matches %q %d time(s)", args[0], n)
	case neg:
	case want >= 0 && n != want:
		ts.Fatalf("ledger matches %q %d time(s), want %d", args[0], n, want)
	case n == 0:
		ts.Fatalf("no line of the ledger matches %q", args[0])
	}
}
