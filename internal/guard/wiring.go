package guard

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// A Wiring file is an agent's JSON hook settings: Claude-shaped
// ({"hooks": {"<event>": [{"matcher": …, "hooks": [handler…]}]}}) or flat
// ({"hooks": {"<event>": [handler…]}}, Cursor, Windsurf, Copilot CLI's
// own files). It is judged by effect, and only when its fingerprint
// changed: the rest of the file (permissions, the model, the theme) is the
// person's and the client's, which writes "don't ask again" answers there
// during a call.

// hooksKey is the key every agent keeps its hooks under.
const hooksKey = "hooks"

// wiringKeys are the top-level keys a Wiring file is judged and restored
// by: the hooks and the row's keys (off switches, MCP servers).
func wiringKeys(spec *governed.Hooks) []string {
	keys := []string{hooksKey}
	if spec != nil {
		keys = append(keys, spec.Keys...)
	}
	return keys
}

// rewired reports whether after (nil: the file is gone) weakens the
// agent's hooks against before (nil: there was none): one of spec's
// keys changed; a handler runs that did not (a hook of the command's own
// runs outside every judgement); one of intenthook's handlers is gone,
// changed in any field (its command, its timeout), moved to another event,
// or its matcher no longer selects a tool it selected. A file that is not
// a JSON object, before or after, counts whenever it changed. Formatting,
// the order of keys, a matcher widened, another hook taken out, and the
// rest of the file do not count.
func rewired(before, after []byte, spec *governed.Hooks) bool {
	b, ok1 := jsonObject(before)
	a, ok2 := jsonObject(after)
	if !ok1 || !ok2 {
		return true
	}
	for _, k := range wiringKeys(spec)[1:] {
		if canonical(b[k]) != canonical(a[k]) {
			return true
		}
	}
	if canonical(b[hooksKey]) == canonical(a[hooksKey]) {
		return false
	}
	hb, ok1 := handlersOf(b[hooksKey])
	ha, ok2 := handlersOf(a[hooksKey])
	if !ok1 || !ok2 || !slices.Equal(hb.settings, ha.settings) {
		return true
	}
	for _, h := range ha.list {
		if !slices.ContainsFunc(hb.list, h.same) {
			return true
		}
	}
	var names []string
	for _, h := range hb.list {
		if !h.ours {
			continue
		}
		if names == nil {
			names = governedNames(spec, hb.list)
		}
		if !slices.ContainsFunc(ha.list, func(now handler) bool { return h.same(now) && covers(now.matcher, h.matcher, names) }) {
			return true
		}
	}
	return false
}

// handler is one hook of a settings file: its event, its matcher (a
// group's, or a flat entry's own), and the rest of it in canonical form
// (a group's other fields, such as Droid's commandRegex, included).
type handler struct {
	event, matcher, id string
	ours               bool // it runs intenthook
}

func (h handler) same(o handler) bool { return h.event == o.event && h.id == o.id }

// hookSet is a hooks object read: its handlers, and its values that are
// not lists of hooks (Droid's hooksDisabled), as "key=value" lines.
type hookSet struct {
	list     []handler
	settings []string
}

// handlersOf reads a hooks object (absent or null: none); ok is false
// when it is not an object.
func handlersOf(raw json.RawMessage) (hookSet, bool) {
	var s hookSet
	if len(raw) == 0 || string(raw) == "null" {
		return s, true
	}
	var events map[string]json.RawMessage
	if json.Unmarshal(raw, &events) != nil || events == nil {
		return s, false
	}
	for event, v := range events {
		var entries []json.RawMessage
		if json.Unmarshal(v, &entries) != nil {
			s.settings = append(s.settings, event+"="+canonical(v))
			continue
		}
		for _, e := range entries {
			var obj map[string]json.RawMessage
			if json.Unmarshal(e, &obj) != nil || obj == nil {
				s.list = append(s.list, handler{event: event, id: canonical(e)})
				continue
			}
			matcher, plain := matcherOf(obj)
			drop := []string{hooksKey}
			if plain {
				drop = append(drop, "matcher")
			}
			var group []json.RawMessage
			if json.Unmarshal(obj[hooksKey], &group) != nil || obj[hooksKey] == nil {
				s.list = append(s.list, handler{event: event, matcher: matcher, id: canonical(without(obj, drop[1:]...)), ours: runsIntenthook(obj)})
				continue
			}
			rest := canonical(without(obj, drop...))
			for _, h := range group {
				var hobj map[string]json.RawMessage
				_ = json.Unmarshal(h, &hobj)
				s.list = append(s.list, handler{event: event, matcher: matcher, id: canonical(h) + "\x00" + rest, ours: runsIntenthook(hobj)})
			}
		}
	}
	slices.Sort(s.settings)
	return s, true
}

// matcherOf is an entry's matcher ("" when absent: every tool); plain is
// false for a matcher that is not a string, which then stays in the
// entry's identity.
func matcherOf(obj map[string]json.RawMessage) (matcher string, plain bool) {
	v, ok := obj["matcher"]
	if !ok {
		return "", true
	}
	if json.Unmarshal(v, &matcher) != nil {
		return "", false
	}
	return matcher, true
}

func without(obj map[string]json.RawMessage, keys ...string) json.RawMessage {
	c := make(map[string]json.RawMessage, len(obj))
	for k, v := range obj {
		if !slices.Contains(keys, k) {
			c[k] = v
		}
	}
	out, _ := json.Marshal(c)
	return out
}

// runsIntenthook reports whether a handler runs an intenthook
// subcommand: its command (Copilot CLI's bash or powershell), as a shell
// line or, with args, as a program.
func runsIntenthook(h map[string]json.RawMessage) bool {
	for _, k := range []string{"command", "bash", "powershell"} {
		var cmd string
		if json.Unmarshal(h[k], &cmd) != nil || cmd == "" {
			continue
		}
		inv, ok := hookconfig.ParseCommand(cmd, nil)
		if args, has := h["args"]; has && k == "command" {
			var list []string
			ok = json.Unmarshal(args, &list) == nil
			inv = hookconfig.Invocation{Program: cmd, Args: list}
		}
		if ok && inv.Subcommand() != "" {
			return true
		}
	}
	return false
}

// mcpNames stand for MCP tools in each agent's spelling: a matcher that
// selected them must go on selecting them.
var mcpNames = []string{"mcp__intenthook__select_active_intent", "mcp__server__tool", "mcp_intenthook_select_active_intent", "mcp_server_tool", "server___select_active_intent", "mcp:server:tool"}

// governedNames are the names a changed matcher of intenthook's is tried
// on: the names in init's matchers for the file and in the file's own, and
// MCP tools.
func governedNames(spec *governed.Hooks, hs []handler) []string {
	names := append([]string{}, mcpNames...)
	add := func(matcher string) {
		names = append(names, strings.FieldsFunc(matcher, func(r rune) bool {
			return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-' || r == ':')
		})...)
	}
	if spec != nil {
		for _, m := range spec.Matchers {
			add(m)
		}
	}
	for _, h := range hs {
		if h.ours {
			add(h.matcher)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// covers reports whether matcher now selects every name that matcher was
// selected.
func covers(now, was string, names []string) bool {
	if now == was {
		return true
	}
	for _, n := range names {
		if hookconfig.Matches(was, n) && !hookconfig.Matches(now, n) {
			return false
		}
	}
	return true
}

// canonical is a JSON value in one form: compact, object keys sorted,
// numbers as written; "" for an absent value.
func canonical(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return string(raw)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(out)
}

func jsonObject(content []byte) (map[string]json.RawMessage, bool) {
	var obj map[string]json.RawMessage
	if len(bytes.TrimSpace(content)) == 0 {
		return map[string]json.RawMessage{}, true
	}
	if err := json.Unmarshal(content, &obj); err != nil || obj == nil {
		return nil, false
	}
	return obj, true
}

// restoreWiring returns the file as the command left it with the keys put
// back as they were before; when nothing but those keys changed, or the
// file is no longer a JSON object, it is the old file byte for byte.
func restoreWiring(before, after []byte, keys []string) []byte {
	old, ok1 := jsonObject(before)
	now, ok2 := jsonObject(after)
	if !ok1 || !ok2 {
		return before
	}
	rest := func(m map[string]json.RawMessage) string {
		c := map[string]json.RawMessage{}
		for k, v := range m {
			c[k] = v
		}
		for _, k := range keys {
			delete(c, k)
		}
		b, _ := json.Marshal(c)
		return string(b)
	}
	if rest(old) == rest(now) {
		return before
	}
	for _, k := range keys {
		if v, ok := old[k]; ok {
			now[k] = v
		} else {
			delete(now, k)
		}
	}
	out, err := json.MarshalIndent(now, "", "  ")
	if err != nil {
		return before
	}
	return append(out, '\n')
}

// countWiring is how many of obj's keys are keys.
func countWiring(obj map[string]json.RawMessage, keys []string) int {
	n := 0
	for _, k := range keys {
		if _, ok := obj[k]; ok {
			n++
		}
	}
	return n
}
