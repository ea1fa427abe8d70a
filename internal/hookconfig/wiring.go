package hookconfig

import (
	"encoding/json"
	"fmt"
)

// Handler is one command handler found in a settings document, with the
// matcher of the group it sits in.
type Handler struct {
	Event      string
	Matcher    string // "" when absent: every tool or source
	Command    string
	Invocation Invocation
	Parsed     bool // false: the command could not be split into words
}

// Handlers lists the command handlers configured for event. Entries of an
// unexpected shape are skipped: Claude Code would not run them either.
func Handlers(settings *Object, event string, getenv func(string) string) []Handler {
	groups, _ := eventGroups(settings, event)
	var out []Handler
	for _, g := range groups {
		group, ok := g.(*Object)
		if !ok {
			continue
		}
		matcher, _ := stringField(group, "matcher")
		list, _ := group.Get("hooks")
		handlers, _ := list.([]any)
		for _, h := range handlers {
			if hd, ok := handler(h, getenv); ok {
				hd.Event, hd.Matcher = event, matcher
				out = append(out, hd)
			}
		}
	}
	return out
}

func handler(v any, getenv func(string) string) (Handler, bool) {
	o, ok := v.(*Object)
	if !ok {
		return Handler{}, false
	}
	if t, ok := stringField(o, "type"); ok && t != "command" {
		return Handler{}, false
	}
	cmd, ok := stringField(o, "command")
	if !ok {
		return Handler{}, false
	}
	h := Handler{Command: cmd}
	if args, ok := o.Get("args"); ok {
		// The exec form: command is the program, run without a shell.
		h.Invocation, h.Parsed = Invocation{Program: cmd, Args: stringList(args)}, true
		return h, true
	}
	h.Invocation, h.Parsed = ParseCommand(cmd, getenv)
	return h, true
}

// Runs returns the handlers of event that run intenthook's subcommand sub.
func Runs(settings *Object, event, sub string, getenv func(string) string) []Handler {
	var out []Handler
	for _, h := range Handlers(settings, event, getenv) {
		if h.Parsed && h.Invocation.Subcommand() == sub {
			out = append(out, h)
		}
	}
	return out
}

// Merge adds to settings each hook that its event does not already run (a
// handler running the same intenthook subcommand, whatever its matcher: the
// user's own wiring is left as it is), keeping every other key, group and
// handler. Hooks of one event and subcommand with different matchers (an
// agent whose MCP tools need a matcher of their own) are added together or
// not at all. It returns the hooks it added.
func Merge(settings *Object, hooks []Hook) ([]Hook, error) {
	hooksObj, err := hooksObject(settings)
	if err != nil {
		return nil, err
	}
	type key struct{ event, sub string }
	wired := map[key]bool{}
	for _, h := range hooks {
		k := key{h.Event, h.Subcommand}
		if _, seen := wired[k]; !seen {
			wired[k] = len(Runs(settings, h.Event, h.Subcommand, nil)) > 0
		}
	}
	var added []Hook
	for _, h := range hooks {
		groups, err := eventGroups(settings, h.Event)
		if err != nil {
			return nil, err
		}
		if wired[key{h.Event, h.Subcommand}] {
			continue
		}
		hooksObj.Set(h.Event, append(groups, group(h)))
		added = append(added, h)
	}
	return added, nil
}

// group is the matcher group that runs h.
func group(h Hook) *Object {
	handler := &Object{}
	handler.Set("type", "command")
	handler.Set("command", h.Command())
	handler.Set("timeout", json.Number(fmt.Sprint(h.Timeout)))
	g := &Object{}
	if h.Matcher != "" {
		g.Set("matcher", h.Matcher)
	}
	g.Set("hooks", []any{handler})
	return g
}

// hooksObject returns settings' "hooks" object, adding an empty one.
func hooksObject(settings *Object) (*Object, error) {
	v, ok := settings.Get("hooks")
	if !ok || v == nil {
		o := &Object{}
		settings.Set("hooks", o)
		return o, nil
	}
	o, ok := v.(*Object)
	if !ok {
		return nil, fmt.Errorf(`"hooks" is not an object`)
	}
	return o, nil
}

// eventGroups returns the matcher groups of event (nil when it has none).
func eventGroups(settings *Object, event string) ([]any, error) {
	v, ok := settings.Get("hooks")
	if !ok || v == nil {
		return nil, nil
	}
	hooks, ok := v.(*Object)
	if !ok {
		return nil, fmt.Errorf(`"hooks" is not an object`)
	}
	g, ok := hooks.Get(event)
	if !ok || g == nil {
		return nil, nil
	}
	groups, ok := g.([]any)
	if !ok {
		return nil, fmt.Errorf(`"hooks.%s" is not a list`, event)
	}
	return groups, nil
}

func stringField(o *Object, key string) (string, bool) {
	v, ok := o.Get(key)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	return s, ok
}

func stringList(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// MigrateNPM rewrites every hook command of settings that an older
// intenthook wrote for an npm install (MigrateCommand: npm's link becomes
// the package's own binary), in Claude-shaped groups ("hooks": {event:
// [{"hooks": [{"command": …}]}]}) and in flat lists ("hooks": {event:
// [{"command": …}]}) alike. It returns the commands as they now read.
func MigrateNPM(settings *Object) []string {
	v, _ := settings.Get("hooks")
	hooks, ok := v.(*Object)
	if !ok {
		return nil
	}
	var out []string
	rewrite := func(o *Object) {
		for _, key := range []string{"command", "bash"} {
			cmd, ok := stringField(o, key)
			if !ok {
				continue
			}
			if now, ok := MigrateCommand(cmd); ok {
				o.Set(key, now)
				out = append(out, now)
			}
		}
	}
	for _, event := range hooks.Keys() {
		list, _ := hooks.Get(event)
		entries, _ := list.([]any)
		for _, e := range entries {
			entry, ok := e.(*Object)
			if !ok {
				continue
			}
			rewrite(entry)
			inner, _ := entry.Get("hooks")
			handlers, _ := inner.([]any)
			for _, h := range handlers {
				if ho, ok := h.(*Object); ok {
					rewrite(ho)
				}
			}
		}
	}
	return out
}

// Timeouts lists the timeout, under key, of every handler of event that
// runs intenthook's subcommand sub, in the agent's unit; unset stands for a
// handler without the key (the host's default). It reads both shapes the
// agents use: matcher groups holding "hooks" (Claude's), and handlers
// straight in the event's list whose command is "command" or "bash"
// (Copilot CLI's).
func Timeouts(settings *Object, event, sub, key string, unset int) []int {
	var out []int
	eachRunning(settings, event, sub, func(h *Object) {
		out = append(out, timeoutOf(h, key, unset))
	})
	return out
}

// RaiseTimeout sets the timeout, under key, of every handler of event that
// runs sub to at least need (in the agent's unit); a handler without the
// key waits unset, the host's default. It returns how many it raised.
func RaiseTimeout(settings *Object, event, sub, key string, need, unset int) int {
	raised := 0
	eachRunning(settings, event, sub, func(h *Object) {
		if timeoutOf(h, key, unset) < need {
			h.Set(key, json.Number(fmt.Sprint(need)))
			raised++
		}
	})
	return raised
}

func timeoutOf(h *Object, key string, unset int) int {
	v, ok := h.Get(key)
	if !ok {
		return unset
	}
	var n json.Number
	switch v := v.(type) {
	case json.Number:
		n = v
	case string:
		n = json.Number(v)
	default:
		return 0
	}
	f, err := n.Float64()
	if err != nil {
		return 0
	}
	return int(f)
}

// eachRunning calls fn with each handler object of event whose command runs
// intenthook's subcommand sub.
func eachRunning(settings *Object, event, sub string, fn func(*Object)) {
	groups, _ := eventGroups(settings, event)
	runs := func(v any) {
		o, ok := v.(*Object)
		if !ok {
			return
		}
		h, ok := handler(o, nil)
		if !ok {
			if bash, isFlat := stringField(o, "bash"); isFlat {
				h.Invocation, h.Parsed = ParseCommand(bash, nil)
			}
		}
		if h.Parsed && h.Invocation.Subcommand() == sub {
			fn(o)
		}
	}
	for _, g := range groups {
		group, ok := g.(*Object)
		if !ok {
			continue
		}
		list, nested := group.Get("hooks")
		if !nested {
			runs(group)
			continue
		}
		handlers, _ := list.([]any)
		for _, h := range handlers {
			runs(h)
		}
	}
}

// WireAlongside adds to event to a handler running intenthook's subcommand
// sub with the command of the first handler of event from that runs it
// (its program and flags as the person or init wrote them) and the given
// timeout under key, unless to already runs sub. It reports whether it
// added one.
func WireAlongside(settings *Object, from, to, sub, key string, timeout int) (bool, error) {
	if len(Runs(settings, to, sub, nil)) > 0 {
		return false, nil
	}
	var command string
	eachRunning(settings, from, sub, func(h *Object) {
		if c, ok := stringField(h, "command"); ok && command == "" {
			command = c
		}
	})
	if command == "" {
		return false, nil
	}
	hooksObj, err := hooksObject(settings)
	if err != nil {
		return false, err
	}
	groups, err := eventGroups(settings, to)
	if err != nil {
		return false, err
	}
	handler := &Object{}
	handler.Set("type", "command")
	handler.Set("command", command)
	handler.Set(key, json.Number(fmt.Sprint(timeout)))
	g := &Object{}
	g.Set("hooks", []any{handler})
	hooksObj.Set(to, append(groups, g))
	return true, nil
}
