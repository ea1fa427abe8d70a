// Command benchhook times whole intenthook processes against the floor
// program (SPEC §15): pre and post on a catalog of 200 intents and a ledger of
// 100 000 records, and post on an empty ledger versus one of 1 000 000. Runs
// alternate between the measured program and the floor, after a warm-up, and
// medians are reported with their ratio, each beside the minor and major page
// faults per run (from the rusage wait4 reports). The floor is built with the
// hook's release flags and both are written with read and write calls: one
// ruler for every row.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/agent/described"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/bench"
	"github.com/intenthook/intenthook/internal/hookconfig"
	"github.com/intenthook/intenthook/internal/release"
)

func main() {
	bin := flag.String("bin", "bin/intenthook", "the intenthook binary to measure")
	runs := flag.Int("runs", 200, "timed runs of each program per workload")
	warm := flag.Int("warmup", 20, "untimed runs first")
	only := flag.String("only", "", "one group of rows: hot (pre and post), ledger (post on an empty ledger and on 1 000 000 records in 150 segments), bash (the shell rows), agents (pre on each agent's payload), transcript (post appended to a 100 MB transcript against post with none), commit (audit, precommit and the ledger's readers on generated histories: minutes to build, not in the default), npm (pre and post through the wiring init writes after an npm install of -dist's packages; not in the default); default all but commit and npm")
	dist := flag.String("dist", "dist", "make dist's output, for -only npm")
	gate := flag.Bool("gate", true, "exit 1 when a held number is exceeded on a quiet machine (false: print the verdict only)")
	quiet := flag.Float64("quiet", float64(runtime.NumCPU())/2, "the load average below which the machine counts as quiet at the start (at the end, this plus 1: the benchmark's own processes)")
	flag.Parse()
	if *only == "npm" {
		if err := npmRun(*bin, *dist, *runs, *warm); err != nil {
			fmt.Fprintln(os.Stderr, "benchhook:", err)
			os.Exit(1)
		}
		return
	}
	before := loadAverage()
	if err := run(*bin, *runs, *warm, *only); err != nil {
		fmt.Fprintln(os.Stderr, "benchhook:", err)
		os.Exit(1)
	}
	if held.report(os.Stdout, before, loadAverage(), *quiet) && *gate {
		os.Exit(1)
	}
}

func run(bin string, runs, warm int, only string) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "intenthook-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	floor, err := buildFloor(dir)
	if err != nil {
		return err
	}
	if bin, err = installSet(bin, filepath.Join(dir, "bin")); err != nil {
		return err
	}
	preamble(runs, warm)

	main := filepath.Join(dir, "ws")
	if err := bench.Workspace(main, 200, 100_000); err != nil {
		return err
	}
	flushDisk()
	switch only {
	case "bash":
		return bashRows(bin, dir, main, runs/4, warm)
	case "commit":
		return commitRows(bin, dir)
	case "agents":
		bench.Settle(main)
		return agentRows(bin, floor, main, runs, warm)
	case "transcript":
		return transcriptRows(bin, floor, dir, main, runs, warm)
	}
	if only == "ledger" {
		return ledgerRows(bin, floor, dir, runs, warm)
	}
	pre, post, floorT, err := measurePair(bin, floor, main, runs, warm)
	if err != nil {
		return err
	}
	fmt.Print(ratioHeader("median", "floor"))
	ratioRow("pre  (Write in scope, 200 intents, 100k)", pre, floorT)
	ratioRow("post (same tool_use_id, 200 intents, 100k)", post, floorT)
	held.add("Write pre / the floor", ratio(pre, floorT), heldPre, targetPre)
	held.add("Write post / the floor", ratio(post, floorT), heldPost, targetPost)
	if err := selectRow(bin, floor, main, runs, warm); err != nil {
		return err
	}
	if only == "hot" {
		return nil
	}

	if err := ledgerRows(bin, floor, dir, runs, warm); err != nil {
		return err
	}
	if err := bashRows(bin, dir, main, runs/4, warm); err != nil {
		return err
	}
	if err := transcriptRows(bin, floor, dir, main, runs, warm); err != nil {
		return err
	}
	return agentRows(bin, floor, main, runs, warm)
}

// transcriptRows times post with the session's transcript a 100 MB Claude
// Code JSONL file, one assistant message (with its usage) appended before
// each call, against post whose transcript is missing, alternated in one
// loop: what post reads of a transcript is what was appended since the
// session's previous record, whatever the file's length.
func transcriptRows(bin, floor, dir, ws string, runs, warm int) error {
	p := filepath.Join(dir, "transcript.jsonl")
	pad := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", 4000) + `"}}` + "\n"
	if err := os.WriteFile(p, []byte(strings.Repeat(pad, 100<<20/len(pad))), 0o644); err != nil {
		return err
	}
	defer drop(p)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	flushDisk()
	bench.Settle(ws)
	edit := filepath.Join(ws, "src/mod100/file.go")
	var plain, withT, floors []timed
	for i := 0; i < warm+runs; i++ {
		for _, transcript := range []bool{false, true} {
			id := fmt.Sprintf("toolu_transcript_%d_%v", i, transcript)
			preEv, postEv := bench.Event(ws, "PreToolUse", id), bench.Event(ws, "PostToolUse", id)
			if transcript {
				postEv = bytes.Replace(postEv, []byte("/home/u/.claude/projects/bench/bench.jsonl"), []byte(p), 1)
			}
			fl, err := timeRun(floor, nil, ws, preEv, false)
			if err != nil {
				return fmt.Errorf("floor: %w", err)
			}
			if _, err := timeRun(bin, []string{"pre"}, ws, preEv, false); err != nil {
				return fmt.Errorf("pre: %w", err)
			}
			if err := os.WriteFile(edit, []byte(fmt.Sprintf("t%d%v\n", i, transcript)), 0o644); err != nil {
				return err
			}
			if transcript {
				msg := fmt.Sprintf(`{"type":"assistant","message":{"id":"msg_bench_%d","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"%s"}],"usage":{"input_tokens":3,"output_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000}}}`+"\n", i, strings.Repeat("y", 400))
				if _, err := f.WriteString(msg); err != nil {
					return err
				}
			}
			q, err := timeRun(bin, []string{"post"}, ws, postEv, false)
			if err != nil {
				return fmt.Errorf("post: %w", err)
			}
			if i < warm {
				continue
			}
			if transcript {
				withT = append(withT, q)
			} else {
				plain, floors = append(plain, q), append(floors, fl)
			}
		}
	}
	fmt.Print(ratioHeader("median", "floor"))
	s, t := summarize(plain), summarize(withT)
	ratioRow("post, no transcript (200 intents, 100k)", s, summarize(floors))
	ratioRow("post, 100 MB transcript, a message per call", t, summarize(floors))
	fmt.Printf("\npost with the 100 MB transcript / post with none: %.2fx\n", ratio(t, s))
	held.add("post, 100 MB transcript / the floor", ratio(t, summarize(floors)), heldPost, 0)
	return nil
}

// ledgerRows times post on an empty ledger and on one of 1 000 000 records
// in 150 segments, the work tree their writer (post appends to the newest).
func ledgerRows(bin, floor, dir string, runs, warm int) error {
	empty := filepath.Join(dir, "empty")
	if err := bench.Workspace(empty, 200, 0); err != nil {
		return err
	}
	big := filepath.Join(dir, "big")
	if err := bench.Workspace(big, 200, 1_000_000); err != nil {
		return err
	}
	// One loop for both, each round the floor, then a pair on each
	// ledger in turn: the ratio of the two is taken from runs side by
	// side, so a machine that drifts between two loops, or a binary whose
	// cached pages age, does not read as the ledger's cost.
	defer drop(empty, big)
	flushDisk()
	bench.Settle(empty)
	bench.Settle(big)
	var floors []timed
	var posts [2][]timed
	for i := 0; i < warm+runs; i++ {
		f, err := timeRun(floor, nil, empty, bench.Event(empty, "PreToolUse", "toolu_floor"), false)
		if err != nil {
			return fmt.Errorf("floor: %w", err)
		}
		for k := range 2 {
			j := (i + k) % 2 // which ledger goes first alternates
			ws := []string{empty, big}[j]
			_, q, err := pairOnce(bin, ws, fmt.Sprintf("toolu_ledger_%d", i))
			if err != nil {
				return err
			}
			if i >= warm {
				posts[j] = append(posts[j], q)
			}
		}
		if i >= warm {
			floors = append(floors, f)
		}
	}
	postEmpty, postBig := summarize(posts[0]), summarize(posts[1])
	ratioRow("post, empty ledger", postEmpty, summarize(floors))
	ratioRow("post, 1 000 000-record ledger (150 segments)", postBig, summarize(floors))
	fmt.Printf("\npost on 1 000 000 records / post on an empty ledger: %.2fx\n", ratio(postBig, postEmpty))
	held.add("post on 1 000 000 records / on none", ratio(postBig, postEmpty), heldBigPost, targetBigPost)
	return nil
}

// commitRows times the commands of commit time and CI on generated
// histories: precommit with one staged file on a 100 000- and a
// 1 000 000-record ledger (the first run after a commit, and the next), the
// people's reading commands on the 1 000 000-record ledger, and audit over
// 100 commits on a 100 000-record packed repository.
func commitRows(bin, dir string) error {
	fmt.Print(timeHeader())
	for _, records := range []int{100_000, 1_000_000} {
		ws := filepath.Join(dir, fmt.Sprintf("pc%d", records))
		if err := bench.History(ws, records, 0); err != nil {
			return err
		}
		// The edit a hooked session leaves for its commit: written through
		// pre and post (the record appended by intenthook), then staged.
		if err := writePairOnce(bin, ws); err != nil {
			return err
		}
		// Staged a second later, as a person commits: staged in the same
		// second as written, the ledger is "racily clean" to git, which
		// then re-reads all of it on every git diff.
		time.Sleep(1100 * time.Millisecond)
		if err := bench.GitIn(ws, nil, "add", bench.File, ".orchestration/ledger"); err != nil {
			return err
		}
		for _, run := range []string{"first run", "next run"} {
			r, err := timeCmd(bin, []string{"precommit"}, ws)
			if err != nil {
				return fmt.Errorf("precommit: %w", err)
			}
			fmt.Print(timeLine(fmt.Sprintf("precommit, 1 staged file, %d records (%s)", records, run), summarize([]timed{r})))
		}
		if records == 1_000_000 {
			if err := readingRows(bin, ws); err != nil {
				return err
			}
		}
	}
	ws := filepath.Join(dir, "audit")
	if err := bench.History(ws, 100_000, 100); err != nil {
		return err
	}
	var rs []timed
	for range 3 {
		r, err := timeCmd(bin, []string{"audit", "HEAD~100..HEAD"}, ws)
		if err != nil {
			return fmt.Errorf("audit: %w", err)
		}
		rs = append(rs, r)
	}
	fmt.Print(timeLine("audit, 100 commits, 100 000 records, packed (median of 3)", summarize(rs)))
	return nil
}

// readingRows times the commands people read a large ledger with, each the
// median of three runs: verify, and blame and query for one file or intent
// of the 200 the generated ledger spreads its records over; and a replay of
// every record against a candidate catalog that moves half the scopes.
func readingRows(bin, ws string) error {
	cand, err := candidateCatalog(ws)
	if err != nil {
		return err
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"ledger verify, 1000000 records", []string{"ledger", "verify"}},
		{"blame FILE, 1000000 records (0.5% of them)", []string{"blame", "src/mod150/file.go"}},
		{"ledger query --intent, 1000000 records (0.5%)", []string{"ledger", "query", "--intent", "INT-150"}},
		{"replay --catalog, 1000000 records (half newly denied)", []string{"replay", "--catalog", cand}},
	} {
		var rs []timed
		for range 3 {
			r, err := timeCmd(bin, c.args, ws)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			rs = append(rs, r)
		}
		fmt.Print(timeLine(c.name, summarize(rs)))
	}
	return nil
}

// candidateCatalog writes, beside the workspace, a candidate catalog for
// the replay row: the generated one with each even intent owning its
// records' module (the generated records of INT-N write src/modN/, which
// the generated scopes leave out): against it, half the records stay
// allowed and half are newly denied.
func candidateCatalog(ws string) (string, error) {
	data, err := os.ReadFile(filepath.Join(ws, ".orchestration", "active_intents.yaml"))
	if err != nil {
		return "", err
	}
	lines := strings.Split(string(data), "\n")
	id := 0
	for i, l := range lines {
		if n, ok := strings.CutPrefix(l, `  - id: "INT-`); ok {
			id, _ = strconv.Atoi(strings.TrimSuffix(n, `"`))
		}
		if strings.HasPrefix(l, "    owned_scope: ") && id%2 == 0 {
			lines[i] = fmt.Sprintf(`    owned_scope: ["src/mod%d/**"]`, id)
		}
	}
	cand := ws + "-candidate.yaml"
	return cand, os.WriteFile(cand, []byte(strings.Join(lines, "\n")), 0o644)
}

// bashRows times Bash calls in git repositories: a read-only `ls` against a
// Write's pre+post, and a build-like command (the backstop's git status
// runs) against one `git status` there; on the 100 000-record ledger, and
// in a repository of 50 000 files. Each ratio's two sides are timed
// alternately in the same workspace, so that a change in the machine's
// load between rows does not show as a ratio.
func bashRows(bin, dir, ledgerWS string, runs, warm int) error {
	big := filepath.Join(dir, "bigrepo")
	if err := bench.Workspace(big, 200, 100_000); err != nil {
		return err
	}
	defer drop(big)
	if err := bench.Files(big, 50_000); err != nil {
		return err
	}
	fmt.Println()
	fmt.Print(ratioHeader("pre+post", "against"))
	for _, ws := range []struct{ name, dir string }{{"100k ledger", ledgerWS}, {"50 000 files", big}} {
		if err := gitRepo(ws.dir); err != nil {
			return err
		}
		var writes, lists, builds, statuses []timed
		for i := 0; i < warm+runs; i++ {
			w, err := writePair(bin, ws.dir, fmt.Sprintf("toolu_w_%d", i))
			if err != nil {
				return err
			}
			l, err := bashPair(bin, ws.dir, "ls -la src", fmt.Sprintf("toolu_ls_%d", i))
			if err != nil {
				return err
			}
			b, err := bashPair(bin, ws.dir, "make build", fmt.Sprintf("toolu_mk_%d", i))
			if err != nil {
				return err
			}
			st, err := timeCmd("git", []string{"status", "--porcelain"}, ws.dir)
			if err != nil {
				return err
			}
			if i >= warm {
				writes, lists, builds, statuses = append(writes, w), append(lists, l), append(builds, b), append(statuses, st)
			}
		}
		fmt.Print(ratioLine("read-only Bash / a Write's, "+ws.name, summarize(lists), summarize(writes)))
		held.add("read-only Bash / a Write's, "+ws.name, ratio(summarize(lists), summarize(writes)), heldReadBash, targetReadBash)
		fmt.Print(ratioLine("build-like Bash / one git status, "+ws.name, summarize(builds), summarize(statuses)))
	}
	return nil
}

// writePairOnce makes the bench session's edit through the hooks.
func writePairOnce(bin, ws string) error {
	_, err := writePair(bin, ws, "toolu_staged")
	return err
}

// writePair times a Write's pre and post (the edit between them).
func writePair(bin, ws, id string) (timed, error) {
	p, err := timeRun(bin, []string{"pre"}, ws, bench.Event(ws, "PreToolUse", id), false)
	if err != nil {
		return timed{}, fmt.Errorf("pre: %w", err)
	}
	if err := os.WriteFile(filepath.Join(ws, "src/mod100/file.go"), []byte(id+"\n"), 0o644); err != nil {
		return timed{}, err
	}
	q, err := timeRun(bin, []string{"post"}, ws, bench.Event(ws, "PostToolUse", id), false)
	if err != nil {
		return timed{}, fmt.Errorf("post: %w", err)
	}
	return p.plus(q), nil
}

// bashPair times one Bash command's pre and post.
func bashPair(bin, ws, command, id string) (timed, error) {
	p, err := timeRun(bin, []string{"pre"}, ws, bench.BashEvent(ws, "PreToolUse", id, command), false)
	if err != nil {
		return timed{}, fmt.Errorf("pre %q: %w", command, err)
	}
	q, err := timeRun(bin, []string{"post"}, ws, bench.BashEvent(ws, "PostToolUse", id, command), false)
	if err != nil {
		return timed{}, fmt.Errorf("post %q: %w", command, err)
	}
	return p.plus(q), nil
}

// timeCmd times one run of a command in dir.
func timeCmd(prog string, args []string, dir string) (timed, error) {
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return timed{}, err
	}
	return ranFor(cmd.ProcessState, time.Since(start)), nil
}

// ranFor is a run of d that ended in ps.
func ranFor(ps *os.ProcessState, d time.Duration) timed {
	minflt, majflt, ok := pageFaults(ps)
	return timed{d: d, minflt: minflt, majflt: majflt, faults: ok}
}

// gitRepo makes ws a git repository with everything committed, the ledger
// and state left out as init leaves them.
func gitRepo(ws string) error {
	if _, err := os.Stat(filepath.Join(ws, ".git")); err == nil {
		return nil
	}
	if err := os.WriteFile(filepath.Join(ws, ".gitignore"), []byte(".orchestration/state/\n"), 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=b@x", "-c", "user.name=b", "commit", "-qm", "bench"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v: %s", args, err, out)
		}
	}
	return nil
}

// drop removes a workload's files once its rows are printed, and waits
// for what the workloads wrote to reach the disk: otherwise the rows after
// it are timed while the kernel writes back a million records, 50 000
// files or a 100 MB transcript, work of the bench's own that the hook, with
// its writes, pays more of than the floor.
func drop(paths ...string) {
	for _, p := range paths {
		_ = os.RemoveAll(p)
	}
	flushDisk()
}

// agentRows times each agent's pre on its own payload for the same edit,
// with --agent as init wires it, against the floor fed the same event.
func agentRows(bin, floor, ws string, runs, warm int) error {
	fmt.Println()
	agents := slices.SortedFunc(slices.Values(agent.All()), func(a, b protocol.Agent) int { return strings.Compare(a.Name, b.Name) })
	// A workspace's own agent, read from .orchestration/agents/: the
	// data-file path a release does not build in. Its description is
	// written for its own row only, the last: every hook in a workspace
	// that describes an agent reads and parses the description (about
	// 0.03x of the floor, docs/performance.md), and the built-in agents'
	// rows are timed on the ruler's workspace, as the hot rows are.
	d, err := described.Parse([]byte(benchAgent))
	if err != nil {
		return err
	}
	agents = append(agents, d.Agent())
	claude, err := agent.Lookup("claude")
	if err != nil {
		return err
	}
	// Each agent's loop times Claude Code's pre beside its own (the floor,
	// then the two in turn): the held number compares the two
	// from one loop, so the machine's drift between rows is not read as an
	// agent's cost.
	ratios, beside := map[string]float64{}, map[string]float64{}
	for _, a := range agents {
		name := a.Name
		if name == d.Name {
			if err := describe(ws); err != nil {
				return err
			}
		}
		var pres, floors, claudes []timed
		for i := 0; i < warm+runs; i++ {
			ev := a.Sample(ws, bench.File, "bench", fmt.Sprintf("toolu_agent_%d", i))
			f, err := timeRun(floor, nil, ws, ev, false)
			if err != nil {
				return fmt.Errorf("floor: %w", err)
			}
			var p, c timed
			agentRun := func() (err error) {
				if p, err = timeRun(bin, []string{"pre", "--agent", name}, ws, ev, true); err != nil {
					return fmt.Errorf("pre --agent %s: %w", name, err)
				}
				return nil
			}
			claudeRun := func() (err error) {
				if name == claude.Name {
					return nil
				}
				cev := claude.Sample(ws, bench.File, "bench", fmt.Sprintf("toolu_beside_%s_%d", name, i))
				if c, err = timeRun(bin, []string{"pre", "--agent", claude.Name}, ws, cev, true); err != nil {
					return fmt.Errorf("pre --agent %s: %w", claude.Name, err)
				}
				return nil
			}
			// In turn first after the floor: a hook run right after
			// another finds more of the binary warm.
			first, second := agentRun, claudeRun
			if i%2 == 1 {
				first, second = claudeRun, agentRun
			}
			if err := first(); err != nil {
				return err
			}
			if err := second(); err != nil {
				return err
			}
			if i >= warm {
				floors, pres, claudes = append(floors, f), append(pres, p), append(claudes, c)
			}
		}
		ratioRow("pre --agent "+name+" (its own payload)", summarize(pres), summarize(floors))
		ratios[name] = ratio(summarize(pres), summarize(floors))
		if name != claude.Name {
			beside[name] = ratio(summarize(claudes), summarize(floors))
		}
	}
	// Every agent's pre within heldAgentSpread of Claude Code's, timed in
	// its loop.
	for _, a := range agents {
		if a.Name != claude.Name {
			held.add(fmt.Sprintf("pre --agent %s (Claude Code's beside it, %.2fx, + 0.05x)", a.Name, beside[a.Name]), ratios[a.Name], beside[a.Name]+heldAgentSpread, targetPre)
		}
	}
	return nil
}

// describe writes benchAgent into the workspace ws.
func describe(ws string) error {
	dir := filepath.Join(ws, ".orchestration", "agents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "benchagent.json"), []byte(benchAgent), 0o644)
}

// benchAgent is a workspace's description of a Claude-shaped agent.
const benchAgent = `{"name": "benchagent", "settings": {"project": ".benchagent/settings.json"},
 "events": {"pre": "PreToolUse", "post": "PostToolUse"},
 "tools": {"Write": {"class": "write", "path": "file_path", "whole_file": true}, "Edit": {"class": "write", "path": "file_path", "new_strings": "new_string"},
  "Bash": {"class": "shell", "command": "command"}, "Read": {"class": "read", "path": "file_path"}}}`

// selectRow times the pre of an agent's `intenthook select` (a Bash call
// of Claude Code's), selecting two intents in turn, alternated with the
// floor on the same event: the call that builds the intent's context,
// with its recent trace from the ledger.
func selectRow(bin, floor, ws string, runs, warm int) error {
	event := func(id string, i int) []byte {
		return []byte(fmt.Sprintf(`{"session_id":"bench","transcript_path":"/home/u/.claude/projects/bench/bench.jsonl","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"intenthook select %s"},"tool_use_id":"toolu_select_%d"}`, ws, id, i))
	}
	var pres, floors []timed
	for i := 0; i < warm+runs; i++ {
		ev := event(fmt.Sprintf("INT-%d", 201+i%2), i)
		f, err := timeRun(floor, nil, ws, ev, false)
		if err != nil {
			return fmt.Errorf("floor: %w", err)
		}
		p, err := timeRun(bin, []string{"pre"}, ws, ev, true)
		if err != nil {
			return fmt.Errorf("pre (select): %w", err)
		}
		if i >= warm {
			floors, pres = append(floors, f), append(pres, p)
		}
	}
	// The session's intent back, for the rows after this one.
	if _, err := timeRun(bin, []string{"pre"}, ws, event("INT-200", warm+runs), true); err != nil {
		return fmt.Errorf("pre (select): %w", err)
	}
	ratioRow("pre (intenthook select, two intents in turn)", summarize(pres), summarize(floors))
	held.add("pre of intenthook select / the floor", ratio(summarize(pres), summarize(floors)), 0, targetSelect)
	return nil
}

// measurePair alternates floor, pre and post runs on one workspace; each
// pre/post pair shares a fresh tool_use_id, as in a real session.
func measurePair(bin, floor, ws string, runs, warm int) (pre, post, fl summary, err error) {
	bench.Settle(ws)
	var pres, posts, floors []timed
	for i := 0; i < warm+runs; i++ {
		id := fmt.Sprintf("toolu_bench_%d", i)
		f, err := timeRun(floor, nil, ws, bench.Event(ws, "PreToolUse", id), false)
		if err != nil {
			return pre, post, fl, fmt.Errorf("floor: %w", err)
		}
		p, q, err := pairOnce(bin, ws, id)
		if err != nil {
			return pre, post, fl, err
		}
		if i >= warm {
			floors, pres, posts = append(floors, f), append(pres, p), append(posts, q)
		}
	}
	return summarize(pres), summarize(posts), summarize(floors), nil
}

// pairOnce times a pre, makes the edit, and times its post, under id.
func pairOnce(bin, ws, id string) (pre, post timed, err error) {
	if pre, err = timeRun(bin, []string{"pre"}, ws, bench.Event(ws, "PreToolUse", id), false); err != nil {
		return pre, post, fmt.Errorf("pre: %w", err)
	}
	// The edit itself, between the hooks.
	if err := os.WriteFile(filepath.Join(ws, bench.File), []byte(id+"\n"), 0o644); err != nil {
		return pre, post, err
	}
	if post, err = timeRun(bin, []string{"post"}, ws, bench.Event(ws, "PostToolUse", id), false); err != nil {
		return pre, post, fmt.Errorf("post: %w", err)
	}
	return pre, post, nil
}

// timeRun runs prog once and times it. The call must be an allow: a
// silent one, or (answered) one whose answer is only JSON on stdout, for the
// agents that answer every call.
func timeRun(prog string, args []string, dir string, stdin []byte, answered bool) (timed, error) {
	return timeRunEnv(prog, args, nil, dir, stdin, answered)
}

// timeRunEnv is timeRun with env added to the environment.
func timeRunEnv(prog string, args, env []string, dir string, stdin []byte, answered bool) (timed, error) {
	cmd := exec.Command(prog, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	d := time.Since(start)
	if err != nil {
		return timed{}, fmt.Errorf("%v: %s", err, stderr.String())
	}
	if (len(out) > 0 && !answered) || stderr.Len() > 0 {
		return timed{}, fmt.Errorf("unexpected output (the call should be a silent allow): %s%s", out, stderr.String())
	}
	return ranFor(cmd.ProcessState, d), nil
}

// ratioRow prints a workload's row against the floor's runs.
func ratioRow(name string, s, floor summary) { fmt.Print(ratioLine(name, s, floor)) }

// preamble prints what a table's figures were measured on and how.
func preamble(runs, warm int) {
	fmt.Printf("machine: %s/%s, %d CPUs, %s\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpuModel())
	fmt.Printf("runs: %d per program per workload after %d warm-up runs, alternating with the floor\n", runs, warm)
	fmt.Printf("floor: go build %s with CGO_ENABLED=0, as a release builds the hook; both written with read and write calls\n", quoteArgs(floorFlags))
	fmt.Printf("%s\n\n", faultsLegend)
}

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

// npmRun times a hook through the wiring init writes after an npm install:
// the packages of dist/npm/ installed offline into the workspace, the hook
// run as Claude Code runs its command (sh -c, the project in
// CLAUDE_PROJECT_DIR), against the same command naming bin directly and
// against the floor run the same way. npm's install step makes
// node_modules/intenthook/bin/intenthook, which the wiring runs, the native
// binary, so the two should not differ.
func npmRun(bin, dist string, runs, warm int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	if dist, err = filepath.Abs(dist); err != nil {
		return err
	}
	tarballs, err := release.HostTarballs(dist, runtime.GOOS, runtime.GOARCH)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "intenthook-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	floor, err := buildFloor(dir)
	if err != nil {
		return err
	}
	ws := filepath.Join(dir, "ws")
	if err := bench.Workspace(ws, 200, 100_000); err != nil {
		return err
	}
	install := exec.Command("npm", append([]string{"install", "--offline", "--no-audit", "--no-fund", "--no-save", "--cache", filepath.Join(dir, "npm-cache")}, tarballs...)...)
	install.Dir = ws
	if out, err := install.CombinedOutput(); err != nil {
		return fmt.Errorf("npm install: %v\n%s", err, out)
	}
	// node_modules and package.json are not the workload's: out of git's sight.
	if err := os.WriteFile(filepath.Join(ws, ".git", "info", "exclude"), []byte("node_modules/\npackage.json\npackage-lock.json\n"), 0o644); err != nil && !os.IsNotExist(err) {
		return err
	}
	bench.Settle(ws)
	preamble(runs, warm)
	wired := `"$CLAUDE_PROJECT_DIR"/` + hookconfig.NPMBinary
	env := []string{"CLAUDE_PROJECT_DIR=" + ws}
	var floors, npmPre, npmPost, binPre []timed
	for i := 0; i < warm+runs; i++ {
		id := fmt.Sprintf("toolu_npm_%d", i)
		preEv, postEv := bench.Event(ws, "PreToolUse", id), bench.Event(ws, "PostToolUse", id)
		// The floor through sh -c too: every row pays the shell the agent
		// runs hook commands with.
		f, err := timeRunEnv("sh", []string{"-c", shellQuote(floor)}, env, ws, preEv, false)
		if err != nil {
			return fmt.Errorf("floor: %w", err)
		}
		b, err := timeRunEnv("sh", []string{"-c", shellQuote(bin) + " pre"}, env, ws, preEv, false)
		if err != nil {
			return fmt.Errorf("pre: %w", err)
		}
		p, err := timeRunEnv("sh", []string{"-c", wired + " pre"}, env, ws, preEv, false)
		if err != nil {
			return fmt.Errorf("npm pre: %w", err)
		}
		if err := os.WriteFile(filepath.Join(ws, "src/mod100/file.go"), []byte(fmt.Sprintf("n%d\n", i)), 0o644); err != nil {
			return err
		}
		q, err := timeRunEnv("sh", []string{"-c", wired + " post"}, env, ws, postEv, false)
		if err != nil {
			return fmt.Errorf("npm post: %w", err)
		}
		if i >= warm {
			floors, binPre, npmPre, npmPost = append(floors, f), append(binPre, b), append(npmPre, p), append(npmPost, q)
		}
	}
	fmt.Print(ratioHeader("median", "floor"))
	fl := summarize(floors)
	pre := summarize(npmPre)
	ratioRow("pre  via sh -c, the binary by its path", summarize(binPre), fl)
	ratioRow("pre  via sh -c, npm's node_modules/intenthook", pre, fl)
	ratioRow("post via sh -c, npm's node_modules/intenthook", summarize(npmPost), fl)
	fmt.Printf("\nnpm's wiring / the binary by its path (pre): %.2fx\n", ratio(pre, summarize(binPre)))
	return nil
}

// quoteArgs is args as a shell command line writes them.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if strings.ContainsAny(a, " '\"$") {
			q[i] = shellQuote(a)
		}
	}
	return strings.Join(q, " ")
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// floorFlags are the go build flags of the floor: a release's for the hook
// binary (.goreleaser.yaml, make build), less the -X settings and the
// noyaml tag, which the floor has nothing for. A floor built without -s -w
// carries a symbol table and DWARF the hook does not (2.9 MB against
// 2.0 MB) and faults in about 11 more pages per run, so it starts slower
// than a stripped one and flatters the ratio (docs/performance.md, "The
// ruler"). TestFloorBuiltAsRelease holds these flags to the release's.
var floorFlags = []string{"-trimpath", "-ldflags", "-s -w"}

// buildFloor builds the floor program into dir, as a release builds the
// hook, with CGO_ENABLED=0, and writes it to its place as install does.
func buildFloor(dir string) (string, error) {
	built := filepath.Join(dir, "floor.built")
	build := exec.Command("go", slices.Concat([]string{"build"}, floorFlags, []string{"-o", built, "./internal/bench/floor"})...)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("build floor: %w", err)
	}
	floor := filepath.Join(dir, "floor")
	return floor, install(built, floor)
}

// installSet copies the program at bin, and the intenthook programs beside
// it (the full binary it hands people's commands to, the MCP server), into
// dir, and returns the copy of bin.
func installSet(bin, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for _, name := range []string{"intenthook-full", "intenthook-mcp"} {
		src := filepath.Join(filepath.Dir(bin), name)
		if _, err := os.Stat(src); err != nil {
			continue
		}
		if err := install(src, filepath.Join(dir, name)); err != nil {
			return "", err
		}
	}
	dst := filepath.Join(dir, filepath.Base(bin))
	return dst, install(bin, dst)
}

// install copies a program to dst as an installer writes it (an archive's
// extraction, npm, Homebrew), with read and write calls: both the floor
// and the measured binary are timed as such copies. A file the Go linker
// has just written (through a memory map) runs slower while its pages stay
// cached as the linker left them: on 2026-11-27 the same hook binary timed
// 1.57–1.59× the floor for pre as make build left it and 1.34–1.38× as a
// copy, so a ratio taken on the linker's file said when the binary was
// built, not what it costs.
func install(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o755)
}
