// Package acceptance runs an intent's acceptance checks for `intents
// verify`: each criterion's shell command, from the workspace root, under a
// timeout, with its output captured. It judges criteria; it does not change
// the catalog.
package acceptance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/safetext"
)

// maxOutput bounds the output kept per check.
const maxOutput = 16 << 10

// Outcome of one criterion.
type Outcome string

// Outcomes.
const (
	Passed    Outcome = "passed"
	Failed    Outcome = "failed"
	TimedOut  Outcome = "timed out"
	Confirmed Outcome = "confirmed" // a string criterion confirmed by a person
	Manual    Outcome = "needs confirmation"
	// Reviewer marks a string criterion at a submission for review: the
	// person who reviews the work judges it.
	Reviewer Outcome = "left to the reviewer"
)

// Result is one criterion's verdict.
type Result struct {
	Description string        `json:"description"`
	Check       string        `json:"check,omitempty"`
	Outcome     Outcome       `json:"outcome"`
	ExitCode    int           `json:"exit_code"`
	Output      string        `json:"output,omitempty"`
	Duration    time.Duration `json:"duration_ns"`
}

// Mark is the criterion's mark for people: ✓ met, ✗ not, and · for one
// left to the reviewer, which nothing checked (no pass is claimed).
func (r Result) Mark() string {
	switch {
	case r.Outcome == Reviewer:
		return "·"
	case r.OK():
		return "✓"
	}
	return "✗"
}

// lessonLines is how many of a failed check's last output lines its
// lesson keeps.
const lessonLines = 3

// Lesson is what the next session should learn from a check that failed
// or timed out: the check and the last lines of its output. failed is
// false for a criterion that is met or has no check.
func Lesson(r Result) (msg string, failed bool) {
	if r.Check == "" || (r.Outcome != Failed && r.Outcome != TimedOut) {
		return "", false
	}
	how := fmt.Sprintf("failed (exit %d)", r.ExitCode)
	if r.Outcome == TimedOut {
		how = "timed out"
	}
	msg = fmt.Sprintf("check `%s` %s", strings.ReplaceAll(r.Check, "`", "'"), how)
	var last []string
	lines := strings.Split(r.Output, "\n")
	for i := len(lines) - 1; i >= 0 && len(last) < lessonLines; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			last = append([]string{l}, last...)
		}
	}
	if len(last) > 0 {
		msg += "; last lines: " + strings.Join(last, " / ")
	}
	return msg, true
}

// OK reports whether the criterion is met.
func (r Result) OK() bool {
	return r.Outcome == Passed || r.Outcome == Confirmed || r.Outcome == Reviewer
}

// Run judges every criterion: checks run with `sh -c` from root, each within
// timeout; string criteria pass only when confirmManual is set.
func Run(ctx context.Context, root string, criteria []intents.Criterion, timeout time.Duration, confirmManual bool) []Result {
	out := make([]Result, 0, len(criteria))
	// What a check leaves running (a process of a new session, written to
	// change a file after the guard's second picture) comes back to this
	// process as its parent ends, and is ended before the result is read.
	reaping := Reap && subreaper()
	for _, c := range criteria {
		r := Result{Description: c.Description, Check: c.Check}
		switch {
		case c.Check != "":
			runCheck(ctx, root, c.Check, timeout, reaping, &r)
		case confirmManual:
			r.Outcome = Confirmed
		default:
			r.Outcome = Manual
		}
		out = append(out, r)
	}
	return out
}

// AllOK reports whether every criterion is met.
func AllOK(rs []Result) bool {
	for _, r := range rs {
		if !r.OK() {
			return false
		}
	}
	return true
}

// Confine, when set (by intenthook-full, where Landlock is available),
// returns the arguments that run a program confined to writing what a
// check may write under root: they come before the check's `sh -c`. done
// is called once the check ended.
var Confine func(root string) (args []string, offline bool, done func())

// Isolate, when set (by intenthook-full on Linux), starts a check that
// Confine takes offline in a network namespace of its own; where the
// kernel refuses it, the check is started without, and the helper falls
// back on Landlock's network rules. Network says which applies to the
// checks of the workspace at root ("" when its settings let them reach
// the network).
var (
	Isolate func(*exec.Cmd)
	Network func(root string) string
)

// Reap, when set, makes the process that runs the checks their child
// subreaper (Linux): after each check, every process it left running is
// killed and waited for. Only a process that runs one command sets it
// (intenthook-full): reap takes every child of the process, and a server
// that starts other programs meanwhile (intenthook-mcp) would lose them.
var Reap bool

// Confinement says how the checks run, for the people who run them: the
// checks are code an agent may have written.
func Confinement(root string) string {
	if Confine != nil {
		net := ""
		if Network != nil {
			if how := Network(root); how != "" {
				net = "; off the network (checks.network: deny) through " + how
			}
		}
		return "confined by Landlock: they may write the workspace but its governance files, temp and the build caches" + net
	}
	return "unconfined (Landlock is not available here): they run with your rights"
}

// Containment says what becomes of the processes a check starts, for the
// people who run the checks.
func Containment() string {
	switch {
	case runtime.GOOS == "linux" && Reap:
		return "every process they start ends with them (a child subreaper kills and reaps what they leave running)"
	case runtime.GOOS == "windows":
		return "a process they start may outlive them"
	}
	return "what they start in their process group ends with them; a process that leaves the group may outlive them"
}

// Notice is what a person is told before in's checks run, "" when it has
// none to run (or in is nil).
func Notice(root string, in *intents.Intent) string {
	if in == nil {
		return ""
	}
	for _, c := range in.AcceptanceCriteria {
		if c.Check != "" {
			return fmt.Sprintf("%s's checks are code an agent may have written; they run %s; %s", in.ID, Confinement(root), Containment())
		}
	}
	return ""
}

func runCheck(ctx context.Context, root, check string, timeout time.Duration, reaping bool, r *Result) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// The check is the catalog author's command, run as written; no event
	// data is ever part of it.
	argv := []string{"sh", "-c", check}
	offline := false
	if Confine != nil {
		prefix, off, done := Confine(root)
		defer done()
		argv, offline = append(prefix, argv...), off
	}
	var buf bytes.Buffer
	command := func(isolated bool) *exec.Cmd {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Dir = root
		ownGroup(cmd)
		if isolated {
			Isolate(cmd)
		}
		cmd.Stdout = &buf
		cmd.Stderr = &buf
		// A check's children may hold the output pipe after sh is killed.
		cmd.WaitDelay = time.Second
		return cmd
	}
	isolated := offline && Isolate != nil
	cmd := command(isolated)
	start := time.Now()
	err := cmd.Start()
	if err != nil && isolated {
		// No user namespaces here: the helper keeps the check off the
		// network with Landlock instead.
		cmd = command(false)
		err = cmd.Start()
	}
	if err == nil {
		err = cmd.Wait()
	}
	endGroup(cmd)
	if reaping {
		if n, clear := reap(); n > 0 || !clear {
			note := fmt.Sprintf("\n[intenthook: ended %d process(es) the check left running]\n", n)
			if !clear {
				note = fmt.Sprintf("\n[intenthook: ended %d process(es) the check left running; some still run]\n", n)
			}
			buf.WriteString(note)
		}
	}
	r.Duration = time.Since(start)
	r.Output = tail(buf.Bytes())
	var ee *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		r.Outcome, r.ExitCode = TimedOut, -1
	case err == nil:
		r.Outcome = Passed
	case errors.As(err, &ee):
		r.Outcome, r.ExitCode = Failed, ee.ExitCode()
	default:
		r.Outcome, r.ExitCode, r.Output = Failed, -1, err.Error()
	}
}

// tail keeps the end of long output: that is where failures are reported.
func tail(b []byte) string {
	if len(b) <= maxOutput {
		return string(b)
	}
	return safetext.Ellipsis + safetext.Suffix(string(b), maxOutput)
}
