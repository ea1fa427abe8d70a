// Package loop notices an agent stuck retrying a call that is denied every
// time, and escalates: the same deny (code, intent, path, tool) for the same
// agent `repeats` times within `window` turns, from the deny that brings the
// count to `repeats` on, into a message that tells the agent to stop and ask
// the user (action deny), a question for the user (ask), or a deny that also
// moves the intent to BLOCKED (block). It decides from a count; the count
// lives in the session's state (package state), and the gate does the I/O.
package loop

import (
	"fmt"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/hook"
)

// Actions of loop.action.
const (
	Ask   = "ask"
	Deny  = "deny"
	Block = "block"
)

// Settings is config.yaml's loop: {repeats, window, action}; repeats 0
// turns detection off.
type Settings struct {
	Repeats int           `yaml:"repeats"`
	Window  time.Duration `yaml:"window"`
	Action  string        `yaml:"action"`
}

// Default is on: three identical denials within ten minutes.
func Default() Settings { return Settings{Repeats: 3, Window: 10 * time.Minute, Action: Deny} }

// Key is what makes two denials the same.
type Key struct{ Code, Intent, Path, Tool string }

// String is the key as stored in the session's denial log.
func (k Key) String() string {
	return strings.Join([]string{k.Code, k.Intent, k.Path, k.Tool}, "\x1f")
}

// Escalated reports whether the n-th identical denial is escalated.
func (s Settings) Escalated(n int) bool { return s.Repeats > 0 && n >= s.Repeats }

// Escalate turns the n-th identical deny d into its escalation under s:
// the first line keeps its code and says it is a repeat, a `stop:` line
// tells the agent to stop and ask the user; with action ask the verdict
// becomes ask, the message then being the question for the user. A d that
// is not escalated comes back unchanged.
func Escalate(d hook.Decision, n int, s Settings) hook.Decision {
	if d.Verdict != hook.Deny || !s.Escalated(n) {
		return d
	}
	first, rest, _ := strings.Cut(d.Message, "\n")
	first += fmt.Sprintf(" (repeat: denied %d times in %s)", n, window(s.Window))
	stop := fmt.Sprintf("stop: this call was denied %d times in %s for the same reason; retrying will not change the answer. Stop retrying it and ask the user how to proceed", n, window(s.Window))
	msg := first + "\n" + stop
	if rest != "" {
		msg += "\n" + rest
	}
	d.Message = msg
	if s.Action == Ask {
		d.Verdict = hook.Ask
	}
	return d
}

// Blocked adds to an escalated deny what the block action did: the intent
// is BLOCKED, or why it could not be.
func Blocked(d hook.Decision, intent string, err error) hook.Decision {
	first, rest, _ := strings.Cut(d.Message, "\n")
	line := fmt.Sprintf("blocked: intent %s is now BLOCKED (reason recorded in the ledger); the user resolves it with `intenthook intents transition %s IN_PROGRESS`", intent, intent)
	if err != nil {
		line = fmt.Sprintf("blocked: intent %s could not be moved to BLOCKED: %v", intent, err)
	}
	d.Message = first + "\n" + line
	if rest != "" {
		d.Message += "\n" + rest
	}
	return d
}

// Reason is the reason recorded with a loop's BLOCKED transition.
func Reason(k Key, n int, s Settings) string {
	return fmt.Sprintf("loop: %s denied %d times in %s (tool %s, path %s)", k.Code, n, window(s.Window), orDash(k.Tool), orDash(k.Path))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// window prints a duration without trailing zero units: 10m, not 10m0s.
func window(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Check validates settings read from config.yaml.
func (s Settings) Check() error {
	switch {
	case s.Repeats < 0:
		return fmt.Errorf("loop.repeats must be 0 (off) or more")
	case s.Repeats > 0 && s.Window <= 0:
		return fmt.Errorf("loop.window must be positive")
	case s.Action != Ask && s.Action != Deny && s.Action != Block:
		return fmt.Errorf("loop.action is %q, want one of [ask deny block]", s.Action)
	}
	return nil
}
