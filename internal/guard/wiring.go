package guard

import (
	"bytes"
	"encoding/json"
)

// wiringKeys are the top-level keys of a Claude-shaped settings file that
// decide whether intenthook's hooks fire: the hooks themselves and the
// switches that turn every hook off or leave only managed ones. The rest
// of the file (permissions, env, the model) is the person's and the
// client's, which writes "don't ask again" answers there during a call.
var wiringKeys = []string{"hooks", "disableAllHooks", "allowManagedHooksOnly"}

// wiringOf returns the wiring part of a settings file, in a form two
// versions can be compared by; ok is false when the file is not a JSON
// object (then every change counts).
func wiringOf(content []byte) (string, bool) {
	obj, ok := jsonObject(content)
	if !ok {
		return "", false
	}
	var b bytes.Buffer
	for _, k := range wiringKeys {
		b.WriteString(k + "=")
		if v, ok := obj[k]; ok {
			var c bytes.Buffer
			if json.Compact(&c, v) == nil {
				b.Write(c.Bytes())
			}
		}
		b.WriteByte('\n')
	}
	return b.String(), true
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

// restoreWiring returns the file as the command left it with the wiring
// keys put back as they were before; when nothing but the wiring changed,
// or the file is no longer a JSON object, it is the old file byte for
// byte.
func restoreWiring(before, after []byte) []byte {
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
		for _, k := range wiringKeys {
			delete(c, k)
		}
		b, _ := json.Marshal(c)
		return string(b)
	}
	if rest(old) == rest(now) {
		return before
	}
	for _, k := range wiringKeys {
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

// countWiring is how many of obj's keys are wiring.
func countWiring(obj map[string]json.RawMessage) int {
	n := 0
	for _, k := range wiringKeys {
		if _, ok := obj[k]; ok {
			n++
		}
	}
	return n
}
