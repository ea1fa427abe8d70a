package protocol

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/intenthook/intenthook/internal/hookconfig"
)

// PreTimeout is where an agent's committed wiring gives the hook that runs
// pre its time, and in what unit.
type PreTimeout struct {
	File  string        // the settings file, root-relative
	Event string        // the event whose handler runs pre
	Key   string        // the handler's timeout key: timeout, timeoutSec
	Unit  time.Duration // time.Second or time.Millisecond
	Unset time.Duration // the host's own limit for a handler without the key
	// Permission is the host's own permission question's event, in the
	// same file, that init wires to pre beside it when asks wait: a
	// person answers the host's questions where they are too. "" when
	// the host has none.
	Permission string
}

// AskMargin is the time a waiting pre keeps beyond ask.timeout: to give
// its answer after the wait ends, before the host stops it.
const AskMargin = 10 * time.Second

// need is the timeout a pre that waits up to wait needs, in t's unit.
func (t PreTimeout) need(wait time.Duration) int {
	return int((wait + AskMargin + t.Unit - 1) / t.Unit)
}

// RaisePreTimeout raises, in ag's settings, the timeout of each handler
// that runs pre to wait plus AskMargin, so a pre that waits for a person's
// answer up to wait (ask.timeout) is not stopped by the host first; a
// handler already given as much is left as it is. ag.PreTimeout must be
// set, and its file wired.
func RaisePreTimeout(root string, ag Agent, wait time.Duration) (Change, error) {
	t := ag.PreTimeout
	path := filepath.Join(root, filepath.FromSlash(t.File))
	data, err := os.ReadFile(path)
	if err != nil {
		return Change{}, err
	}
	settings, err := hookconfig.Decode(data)
	if err != nil {
		return Change{}, &Conflict{Path: t.File, Reason: "not valid JSON: " + err.Error(), Hint: "fix " + t.File + " and run intenthook init again"}
	}
	need := t.need(wait)
	raised := hookconfig.RaiseTimeout(settings, t.Event, "pre", t.Key, need, int(t.Unset/t.Unit)) > 0
	var added bool
	if t.Permission != "" {
		if added, err = hookconfig.WireAlongside(settings, t.Event, t.Permission, "pre", t.Key, need); err != nil {
			return Change{}, &Conflict{Path: t.File, Reason: err.Error(), Hint: "fix " + t.File + " and run intenthook init again"}
		}
		raised = hookconfig.RaiseTimeout(settings, t.Permission, "pre", t.Key, need, int(t.Unset/t.Unit)) > 0 || raised
	}
	if !raised && !added {
		return Change{Action: Kept, Path: t.File, Detail: fmt.Sprintf("%s's pre has the %s ask.timeout %s needs", t.Event, fmtUnit(need, t.Unit), wait)}, nil
	}
	out, err := hookconfig.Encode(settings)
	if err != nil {
		return Change{}, err
	}
	if err := WriteFile(path, out); err != nil {
		return Change{}, err
	}
	detail := fmt.Sprintf("%s's pre %s raised to %s: ask.timeout %s and %s to answer", t.Event, t.Key, fmtUnit(need, t.Unit), wait, AskMargin)
	if !raised {
		detail = fmt.Sprintf("%s's pre has the %s ask.timeout %s needs", t.Event, fmtUnit(need, t.Unit), wait)
	}
	if added {
		detail += fmt.Sprintf("; added %s running pre (%s), so that a person answers the host's own questions where they are too", t.Permission, fmtUnit(need, t.Unit))
	}
	return Change{Action: Updated, Path: t.File, Detail: detail}, nil
}

// CheckPreTimeout warns when a handler that runs pre in ag's settings
// would be stopped by the host before a wait of up to wait ends.
func CheckPreTimeout(root string, ag Agent, wait time.Duration) (Check, bool) {
	t := ag.PreTimeout
	if t == nil {
		return Check{}, false
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(t.File)))
	if err != nil {
		return Check{}, false
	}
	settings, err := hookconfig.Decode(data)
	if err != nil {
		return Check{}, false
	}
	need := t.need(wait)
	for _, have := range hookconfig.Timeouts(settings, t.Event, "pre", t.Key, int(t.Unset/t.Unit)) {
		if have < need {
			return Check{Status: Warn, Name: ag.Name + " ask timeout",
				Detail: fmt.Sprintf("%s gives pre %s in %s, and ask.timeout lets it wait %s for a person: the host stops it first, and the call goes on without the answer", t.Event, fmtUnit(have, t.Unit), t.File, wait),
				Hint:   fmt.Sprintf("run intenthook init again (it raises the %s to %s), or lower ask.timeout", t.Key, fmtUnit(need, t.Unit))}, true
		}
	}
	return Check{}, false
}

// fmtUnit says n of unit as a person reads it: 130 s, 130000 ms.
func fmtUnit(n int, unit time.Duration) string {
	if unit == time.Millisecond {
		return fmt.Sprintf("%d ms", n)
	}
	return fmt.Sprintf("%d s", n)
}
