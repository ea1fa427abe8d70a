package replay

import (
	"bytes"

	"github.com/intenthook/intenthook/internal/ledger"
)

// entry is what a replay needs of one ledger record: the writes it holds
// and what was decided of them, and for a transition the status it set.
type entry struct {
	when      string
	event     string
	intent    string
	session   string
	agent     string // agent_id, "" for the top-level agent
	role      string
	roleKnown bool // the record names its role (or is the top-level agent's)
	tool      string
	class     string // mutation_class
	scope     string // scope_validation
	decision  string
	code      string
	success   bool
	to        string // a transition's new status
	paths     []string
}

// events a replay reads; every other line is skipped before it is decoded.
var wanted = []string{ledger.EventPostToolUse, ledger.EventPreToolUse, ledger.EventViolation, ledger.EventTransition}

var eventKey = []byte(`"event":"`)

// relevant reports whether line may be a record a replay reads: its first
// "event" key names one of the wanted events.
func relevant(line []byte) bool {
	i := bytes.Index(line, eventKey)
	if i < 0 {
		return false
	}
	rest := line[i+len(eventKey):]
	for _, w := range wanted {
		if len(rest) > len(w) && rest[len(w)] == '"' && string(rest[:len(w)]) == w {
			return true
		}
	}
	return false
}

// decode reads a line into e: intenthook's own lines of the current
// format through a scan of their fixed keys, anything else (older
// shapes, escaped values) through ledger.ParseLine.
func decode(line []byte, e *entry) bool {
	if fastDecode(line, e) {
		return true
	}
	r, err := ledger.ParseLine(line)
	if err != nil {
		return false
	}
	fromRecord(r, e)
	return true
}

func fromRecord(r *ledger.Record, e *entry) {
	m := &r.Metadata.Intenthook
	*e = entry{
		when: r.Timestamp, event: m.Event, intent: string(m.IntentID), session: m.SessionID,
		agent: string(m.AgentID), role: m.Role, tool: m.ToolName, class: m.MutationClass,
		scope: m.ScopeValidation, decision: m.Decision, code: string(m.Code), success: m.Success, to: m.To,
	}
	e.roleKnown = e.role != "" || e.agent == ""
	for _, f := range r.Files {
		e.paths = append(e.paths, f.Path)
	}
	if m.Event == ledger.EventViolation {
		e.paths = append(e.paths, m.Paths...)
	}
}

var (
	versionPrefix = []byte(`{"version":"0.1.0",`)
	metaKey       = []byte(`"metadata":{"dev.intenthook":{`)
	pathKey       = []byte(`{"path":"`)
)

// fastDecode reads the fields of a line intenthook wrote in the current
// shape (metadata keys in MarshalLine's order, before any nested object)
// without decoding the rest. It gives up, for decode's slow path, on any
// value with an escape and on any shape it does not expect.
func fastDecode(line []byte, e *entry) bool {
	if !bytes.HasPrefix(line, versionPrefix) {
		return false
	}
	mi := bytes.Index(line, metaKey)
	if mi < 0 {
		return false
	}
	files, meta := line[:mi], line[mi+len(metaKey):]
	*e = entry{paths: e.paths[:0]}
	var ok bool
	if e.when, ok = str(line, "timestamp"); !ok {
		return false
	}
	// The keys come in MarshalLine's order: each is looked for after the
	// one before it.
	at := 0
	to := [...]*string{&e.event, &e.intent, &e.session, &e.agent, &e.tool, &e.class, &e.scope, &e.decision, &e.code}
	for i, k := range metaKeys {
		v, n, ok := strOrNull(meta[at:], k)
		if !ok {
			return false
		}
		*to[i], at = v, at+n
	}
	rest := meta[at:]
	switch {
	case bytes.HasPrefix(rest, []byte(`,"success":true`)):
		e.success = true
	case !bytes.HasPrefix(rest, []byte(`,"success":false`)):
		return false
	}
	// The keys after command (which may hold anything, escaped) and
	// before the nested objects (summary, result, sealed), which the
	// events read here do not carry.
	if v, found, ok := optional(rest, "role"); !ok {
		return false
	} else if found {
		e.role = v
	}
	e.roleKnown = e.role != "" || e.agent == ""
	if e.event == ledger.EventTransition {
		if v, found, ok := optional(rest, "to"); !ok {
			return false
		} else if found {
			e.to = v
		}
	}
	for rest := files; ; {
		i := bytes.Index(rest, pathKey)
		if i < 0 {
			break
		}
		rest = rest[i+len(pathKey):]
		j := bytes.IndexByte(rest, '"')
		if j < 0 || bytes.IndexByte(rest[:j], '\\') >= 0 {
			return false
		}
		e.paths = append(e.paths, string(rest[:j]))
		rest = rest[j:]
	}
	if e.event == ledger.EventViolation {
		i := bytes.Index(rest, []byte(`"paths":[`))
		if i >= 0 {
			list := rest[i+len(`"paths":[`):]
			end := bytes.IndexByte(list, ']')
			if end < 0 || bytes.IndexByte(list[:end], '\\') >= 0 {
				return false
			}
			for _, p := range bytes.Split(list[:end], []byte(",")) {
				p = bytes.TrimSpace(p)
				if len(p) < 2 || p[0] != '"' || p[len(p)-1] != '"' {
					return false
				}
				e.paths = append(e.paths, string(p[1:len(p)-1]))
			}
		}
	}
	return true
}

// str reads the string value of key's first occurrence in b.
func str(b []byte, key string) (string, bool) {
	v, found, ok := optional(b, key)
	return v, ok && found
}

// metaKeys are the metadata keys fastDecode reads in order, each with its
// quotes and colon.
var metaKeys = func() [][]byte {
	var out [][]byte
	for _, k := range []string{"event", "intent_id", "session_id", "agent_id", "tool_name", "mutation_class", "scope_validation", "decision", "code"} {
		out = append(out, []byte(`"`+k+`":`))
	}
	return out
}()

// strOrNull reads key's string value (key with its quotes and colon), ""
// for null; the key must be there. n is how far into b the value ends.
func strOrNull(b []byte, key []byte) (v string, n int, ok bool) {
	i := bytes.Index(b, key)
	if i < 0 {
		return "", 0, false
	}
	start := i + len(key)
	rest := b[start:]
	if bytes.HasPrefix(rest, []byte("null")) {
		return "", start + 4, true
	}
	v, ok = quoted(rest)
	return v, start + len(v) + 2, ok
}

// optional reads key's string value where the key may be absent.
func optional(b []byte, key string) (v string, found, ok bool) {
	k := `"` + key + `":`
	i := bytes.Index(b, []byte(k))
	if i < 0 {
		return "", false, true
	}
	v, ok = quoted(b[i+len(k):])
	return v, true, ok
}

// quoted reads a JSON string without escapes at the start of b.
func quoted(b []byte) (string, bool) {
	if len(b) == 0 || b[0] != '"' {
		return "", false
	}
	j := bytes.IndexByte(b[1:], '"')
	if j < 0 || bytes.IndexByte(b[1:1+j], '\\') >= 0 {
		return "", false
	}
	return string(b[1 : 1+j]), true
}
