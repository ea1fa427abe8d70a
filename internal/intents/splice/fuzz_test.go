//go:build !noyaml

package splice

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// FuzzSetStatus checks SetStatus on arbitrary input: it never panics, never trips its own splice check
// (errMismatch means it built a wrong file and only its check caught it), and when it succeeds the
// result parses, holds the requested status, and keeps every input line that did not hold status or
// updated_at.
func FuzzSetStatus(f *testing.F) {
	inputs, _ := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	for _, path := range inputs {
		if strings.HasSuffix(path, ".golden.yaml") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "INT-001", "IN_PROGRESS")
		f.Add(data, "INT-002", "a: 'b' # c")
	}
	for seed := range 20 {
		data, ids := genCatalog(rand.New(rand.NewPCG(uint64(seed), 7)))
		f.Add(data, ids[0], "BLOCKED")
	}
	f.Add([]byte("active_intents:\n- {id: X, status: P}\n"), "X", "COMPLETE")
	f.Add([]byte("active_intents:\n  - id: X\n    status: >\n      P\n    notes: |+\n      n\n\n"), "X", "")
	f.Add([]byte("active_intents: [{id: X, status: 'P', k}]"), "X", "true")
	f.Add([]byte("active_intents: [{}, {name: x}]"), "", "P")

	f.Fuzz(func(t *testing.T, data []byte, id, status string) {
		out, err := SetStatus(data, id, status, now)
		if err != nil {
			if errors.Is(err, errMismatch) {
				t.Fatalf("wrong splice caught by the check: %v\ninput:\n%q", err, data)
			}
			return
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(out, &doc); err != nil {
			t.Fatalf("result does not parse: %v\n%q", err, out)
		}
		if got := statusOf(t, &doc, id); got != status {
			t.Fatalf("status = %q, want %q\n%q", got, status, out)
		}
		checkLinesKept(t, data, out, id)
	})
}

// statusOf finds intent id's status in a parsed catalog, independently of the code under test.
func statusOf(t *testing.T, doc *yaml.Node, intentID string) string {
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != keyIntents {
			continue
		}
		for _, item := range root.Content[i+1].Content {
			var id, status *yaml.Node
			for k := 0; item.Kind == yaml.MappingNode && k+1 < len(item.Content); k += 2 {
				switch item.Content[k].Value {
				case "id":
					id = item.Content[k+1]
				case "status":
					status = item.Content[k+1]
				}
			}
			if id != nil && id.Value == intentID && status != nil {
				return status.Value
			}
		}
	}
	t.Fatalf("intent %q not in the result", intentID)
	return ""
}

// checkLinesKept checks that every line of before (split at \n) is still in after, except the lines
// from where status or updated_at starts up to the line before the next node, and, when updated_at was
// inserted into a flow mapping, the lines from its last value to the next node.
func checkLinesKept(t *testing.T, before, after []byte, id string) {
	var doc yaml.Node
	if err := yaml.Unmarshal(before, &doc); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(before), "\n")
	txt := newText(before)
	// line converts a yaml.v3 line to an index in lines: yaml.v3 also breaks lines at CR, NEL, LS, PS.
	line := func(n int) int { return bytes.Count(before[:txt.lines[n-1]], []byte("\n")) }
	var starts [][2]int
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		starts = append(starts, [2]int{n.Line, n.Column})
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	// mark exempts the lines from n's line to the line before the next node starts (at least n's), or
	// through the next node's line.
	exempt := map[int]bool{}
	mark := func(n *yaml.Node, through bool) {
		last := len(lines) - 1
		var next [2]int
		for _, s := range starts {
			if (s[0] > n.Line || s[0] == n.Line && s[1] > n.Column) && (next[0] == 0 || s[0] < next[0] || s[0] == next[0] && s[1] < next[1]) {
				next = s
			}
		}
		if next[0] != 0 {
			last = max(line(n.Line), line(next[0])-1)
			if through || line(next[0]) == line(n.Line) {
				last = line(next[0])
			}
		}
		for k := line(n.Line); k <= last; k++ {
			exempt[k] = true
		}
	}
	list, _ := intentList(&doc)
	for _, m := range list {
		if m.Kind != yaml.MappingNode || idOf(m) != id {
			continue
		}
		_, status, _ := lookup(m, keyStatus)
		mark(status, false)
		_, stamp, _ := lookup(m, keyUpdatedAt)
		if stamp != nil {
			mark(stamp, false)
		} else if m.Style&yaml.FlowStyle != 0 {
			// The insertion goes after the last value, possibly on the line of the closing brace.
			mark(m.Content[len(m.Content)-1], true)
		}
	}
	have := map[string]int{}
	// A line may gain a CR: with no final newline, an inserted CRLF line ends the old last line.
	for _, l := range strings.Split(string(after), "\n") {
		have[strings.TrimSuffix(l, "\r")]++
	}
	for k, l := range lines {
		if exempt[k] {
			continue
		}
		l = strings.TrimSuffix(l, "\r")
		if have[l] == 0 {
			t.Fatalf("line %d %q is missing from the result\ninput:\n%q\nresult:\n%q", k+1, l, before, after)
		}
		have[l]--
	}
}
