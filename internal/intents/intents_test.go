package intents

import (
	"reflect"
	"strings"
	"testing"
)

const good = `active_intents:
  - id: "INT-001"
    name: "Hook System"
    status: "IN_PROGRESS"
    owned_scope: ["src/hooks/**"]
    constraints: ["keep it fast"]
    acceptance_criteria:
      - "intercepts writes"
      - description: "tests pass"
        check: "go test ./..."
    related_specs: [{type: speckit, ref: ".specify/specs/hooks.md"}]
    allowed_tools: ["Write", "Edit"]
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
`

func TestParseGood(t *testing.T) {
	c, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Problems) != 0 {
		t.Fatalf("problems: %v", c.Problems)
	}
	in := c.Find("INT-001")
	if in == nil || !in.Valid() || in.Version != 1 || in.Status != InProgress || in.Line != 2 {
		t.Fatalf("intent = %+v", in)
	}
	if got := in.AcceptanceCriteria[1]; got.Check != "go test ./..." || got.Description != "tests pass" {
		t.Errorf("criterion = %+v", got)
	}
	if !in.AllowsTool("Edit") || in.AllowsTool("Bash") {
		t.Error("allowed_tools not applied")
	}
	if p, ok := in.Match("src/hooks/a.go"); !ok || p != "src/hooks/**" {
		t.Errorf("Match = %q %v", p, ok)
	}
}

func TestParseBudget(t *testing.T) {
	tests := []struct {
		name, field string
		want        Budget
		warn        string
	}{
		{"flow", `budget: {tokens: 2000000, usd: 12.5, calls: 300}`, Budget{Tokens: 2_000_000, MicroUSD: 12_500_000, Calls: 300}, ""},
		{"block", "budget:\n      calls: 2\n      usd: \"0.25\"", Budget{Calls: 2, MicroUSD: 250_000}, ""},
		{"none", `tags: []`, Budget{}, ""},
		{"unknown kind", `budget: {calls: 3, minutes: 5}`, Budget{Calls: 3}, `unknown budget field "minutes"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(strings.Replace(good, `    allowed_tools:`, "    "+tt.field+"\n    allowed_tools:", 1)))
			if err != nil {
				t.Fatal(err)
			}
			in := c.Find("INT-001")
			if in == nil || !in.Valid() {
				t.Fatalf("intent = %+v", in)
			}
			if in.Budget != tt.want || in.Budget.Set() != (tt.want != Budget{}) {
				t.Errorf("budget = %+v, want %+v", in.Budget, tt.want)
			}
			var msgs []string
			for _, p := range c.Problems {
				msgs = append(msgs, p.Message)
			}
			if got := strings.Join(msgs, "\n"); tt.warn == "" && got != "" || !strings.Contains(got, tt.warn) {
				t.Errorf("problems %q, want %q", got, tt.warn)
			}
		})
	}
}

func TestValidation(t *testing.T) {
	base := strings.Split(good, "\n")
	replace := func(old, new string) string {
		out := make([]string, len(base))
		copy(out, base)
		for i, l := range out {
			if strings.Contains(l, old) {
				out[i] = strings.Replace(l, old, new, 1)
			}
		}
		return strings.Join(out, "\n")
	}
	tests := []struct {
		name, catalog, want string
	}{
		{"bad id", replace(`"INT-001"`, `"int-1"`), `id "int-1" does not match`},
		{"short name", replace(`"Hook System"`, `"ab"`), "name must be 3 to 200 characters"},
		{"bad status", replace(`"IN_PROGRESS"`, `"DONE"`), `status "DONE" is not one of`},
		{"empty scope", replace(`["src/hooks/**"]`, `[]`), "owned_scope needs at least one pattern"},
		{"bad glob", replace(`["src/hooks/**"]`, `["src/{a"]`), `owned_scope pattern "src/{a"`},
		{"absolute glob", replace(`["src/hooks/**"]`, `["/src/**"]`), "must be relative"},
		{"bad version", replace(`name: "Hook System"`, `version: 0`), "version must be an integer >= 1"},
		{"bad time", replace(`"2026-02-18T10:00:00Z"`, `"Feb 18"`), "created_at \"Feb 18\" is not an RFC 3339 time"},
		{"unknown parent", replace(`name: "Hook System"`, `parent_intent: "INT-404"`), "parent_intent INT-404 names no intent"},
		{"unknown dep", replace(`name: "Hook System"`, `depends_on: ["INT-404"]`), "depends_on INT-404 names no intent"},
		{"self cycle", replace(`name: "Hook System"`, `depends_on: ["INT-001"]`), "dependency cycle: INT-001 -> INT-001"},
		{"bad spec type", replace(`type: speckit`, `type: wiki`), `related spec type "wiki"`},
		{"missing constraints", replace(`constraints: ["keep it fast"]`, `tags: []`), "missing required field constraints"},
		{"bad approval", replace(`name: "Hook System"`, `requires_approval: maybe`), "requires_approval must be true or false"},
		{"budget not a mapping", replace(`name: "Hook System"`, `budget: 100`), "budget is a mapping"},
		{"budget negative calls", replace(`name: "Hook System"`, `budget: {calls: -1}`), "budget calls must be a whole number >= 0"},
		{"budget fractional tokens", replace(`name: "Hook System"`, `budget: {tokens: 1.5}`), "budget tokens must be a whole number >= 0"},
		{"budget usd words", replace(`name: "Hook System"`, `budget: {usd: ten}`), "budget usd must be an amount of dollars"},
		{"budget usd too fine", replace(`name: "Hook System"`, `budget: {usd: 0.0000001}`), "budget usd must be an amount of dollars"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.catalog))
			if err != nil {
				t.Fatal(err)
			}
			var msgs []string
			for _, p := range c.Problems {
				msgs = append(msgs, p.Format("f"))
			}
			if !strings.Contains(strings.Join(msgs, "\n"), tt.want) {
				t.Fatalf("problems %q lack %q", msgs, tt.want)
			}
			if !c.HasErrors() {
				t.Fatal("HasErrors = false")
			}
		})
	}
}

func TestInvalidIntentLeavesOthersUsable(t *testing.T) {
	cat := good + `  - id: "INT-002"
    name: "Broken"
    status: "IN_PROGRESS"
    owned_scope: []
    constraints: []
    acceptance_criteria: []
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
    mood: happy
`
	c, err := Parse([]byte(cat))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Find("INT-001").Valid() || c.Find("INT-002").Valid() {
		t.Fatal("validity not per intent")
	}
	var warn bool
	for _, p := range c.Problems {
		warn = warn || (p.Severity == Warning && strings.Contains(p.Message, `"mood"`))
	}
	if !warn {
		t.Error("unknown field is not a warning")
	}
}

func TestParseNotYAML(t *testing.T) {
	if _, err := Parse([]byte("a: [\n")); err == nil {
		t.Fatal("want ErrNotYAML")
	}
	c, err := Parse([]byte("intents: []\n"))
	if err != nil || !c.HasErrors() {
		t.Fatalf("wrong shape should be a problem, got %v %v", c, err)
	}
}

func TestTransitions(t *testing.T) {
	allowed := map[[2]Status]bool{
		{Pending, InProgress}: true, {Pending, Archived}: true,
		{InProgress, Complete}: true, {InProgress, Blocked}: true, {InProgress, Archived}: true,
		{InProgress, InReview}: true,
		{InReview, Complete}:   true, {InReview, InProgress}: true, {InReview, Archived}: true,
		{Blocked, InProgress}: true, {Blocked, Archived}: true,
		{Complete, Archived}: true,
	}
	all := []Status{Pending, InProgress, InReview, Complete, Blocked, Archived}
	for _, from := range all {
		for _, to := range all {
			err := CheckTransition(from, to)
			if (err == nil) != allowed[[2]Status{from, to}] {
				t.Errorf("%s -> %s: err=%v", from, to, err)
			}
		}
	}
	if err := CheckTransition(Complete, InProgress); err == nil || !strings.Contains(err.Error(), "completed work is immutable") {
		t.Errorf("COMPLETE -> IN_PROGRESS: %v", err)
	}
}

func TestProgress(t *testing.T) {
	const head = "active_intents:\n  - {id: P-001, name: Plan, status: IN_PROGRESS, owned_scope: ['**'], constraints: [], acceptance_criteria: []}\n"
	child := func(id, status, extra string) string {
		return "  - {id: " + id + ", name: Child " + id + ", status: " + status + ", parent_intent: P-001, owned_scope: ['" + id + "/**'], constraints: [], acceptance_criteria: []" + extra + "}\n"
	}
	tests := []struct {
		name        string
		children    string
		done, total int
		next        string
	}{
		{"no children", "", 0, 0, ""},
		{"first pending", child("C-001", "COMPLETE", "") + child("C-002", "PENDING", ""), 1, 2, "C-002"},
		{"dependency open", child("C-001", "PENDING", ", depends_on: [C-002]") + child("C-002", "PENDING", ""), 0, 2, "C-002"},
		{"in review waits", child("C-001", "IN_REVIEW", "") + child("C-002", "PENDING", ", depends_on: [C-001]"), 0, 2, ""},
		{"abandoned left out", child("C-001", "ARCHIVED", "") + child("C-002", "ARCHIVED", ", completed_at: '2026-01-01T00:00:00Z'"), 1, 1, ""},
		{"blocked is not next", child("C-001", "BLOCKED", "") + child("C-002", "IN_PROGRESS", ""), 0, 2, "C-002"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(head + tt.children))
			if err != nil {
				t.Fatal(err)
			}
			p := c.Progress("P-001")
			next := ""
			if p.Next != nil {
				next = p.Next.ID
			}
			if p.Done != tt.done || p.Total != tt.total || next != tt.next {
				t.Errorf("Progress = %d/%d next %q, want %d/%d next %q", p.Done, p.Total, next, tt.done, tt.total, tt.next)
			}
		})
	}
}

func FuzzParseCatalog(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte("active_intents: [{id: X}]"))
	f.Add([]byte("active_intents:\n  - depends_on: [A-001]\n    id: A-001\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			return
		}
		for _, in := range c.All() {
			_, _ = in.Match("src/a.go")
			_ = in.Valid()
			// The cache's codec gives back what it was given.
			b := appendIntent(nil, in)
			back, err := decodeIntent(b)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			back.scope, back.scopeLines = in.scope, in.scopeLines
			if !reflect.DeepEqual(back, in) {
				t.Fatalf("codec round trip:\n%+v\n%+v", back, in)
			}
			for i := 0; i < len(b); i++ {
				_, _ = decodeIntent(b[:i]) // truncated: an error, never a panic
			}
		}
	})
}

func TestParentScope(t *testing.T) {
	const head = "active_intents:\n"
	intent := func(id, parent string, scope ...string) string {
		s := "  - id: " + id + "\n    name: intent " + id + "\n    status: PENDING\n    owned_scope:\n"
		for _, p := range scope {
			s += "      - \"" + p + "\"\n"
		}
		s += "    constraints: []\n    acceptance_criteria: []\n    created_at: \"2026-01-01T00:00:00Z\"\n    updated_at: \"2026-01-01T00:00:00Z\"\n"
		if parent != "" {
			s += "    parent_intent: " + parent + "\n"
		}
		return s
	}
	tests := []struct {
		name    string
		catalog string
		want    []string // formatted problems
	}{
		{
			name:    "child within parent",
			catalog: head + intent("INT-001", "", "src/**") + intent("INT-002", "INT-001", "src/api/**", "src/*.go"),
		},
		{
			name:    "child within the union of the parent's patterns",
			catalog: head + intent("INT-001", "", "src/a/**", "src/b/**") + intent("INT-002", "INT-001", "src/{a,b}/*.go"),
		},
		{
			name:    "child reaching outside names the parent and the pattern's line",
			catalog: head + intent("INT-001", "", "src/**") + intent("INT-002", "INT-001", "src/api/**", "lib/**"),
			want:    []string{`f:16: INT-002: error: owned_scope pattern "lib/**" reaches outside parent INT-001's owned_scope (src/**): "lib" matches it and no pattern of INT-001`},
		},
		{
			name:    "undecidable pair is a warning",
			catalog: head + intent("INT-001", "", "src/**") + intent("INT-002", "INT-001", "src/**{/a,/b}"),
			want:    []string{`f:15: INT-002: warning: cannot decide whether owned_scope pattern "src/**{/a,/b}" lies within parent INT-001's owned_scope (src/**): "src/**{/a,/b}": a ** next to a {…} group; check it by hand`},
		},
		{
			name:    "parent loop",
			catalog: head + intent("INT-001", "INT-002", "src/**") + intent("INT-002", "INT-001", "src/**"),
			want: []string{
				"f:2: INT-001: error: parent_intent loop: INT-001 -> INT-002 -> INT-001",
				"f:12: INT-002: error: parent_intent loop: INT-002 -> INT-001 -> INT-002",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.catalog))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range c.Problems {
				got = append(got, p.Format("f"))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestTreeAndDone(t *testing.T) {
	c, err := Parse([]byte(`active_intents:
  - {id: INT-001, name: root one, status: IN_PROGRESS, owned_scope: ["src/**"], constraints: [], acceptance_criteria: []}
  - {id: INT-002, name: child a, status: COMPLETE, owned_scope: ["src/a/**"], constraints: [], acceptance_criteria: [], parent_intent: INT-001}
  - {id: INT-003, name: root two, status: ARCHIVED, completed_at: "2026-01-02T00:00:00Z", owned_scope: ["lib/**"], constraints: [], acceptance_criteria: []}
  - {id: INT-004, name: child b, status: ARCHIVED, owned_scope: ["src/b/**"], constraints: [], acceptance_criteria: [], parent_intent: INT-001}
`))
	if err != nil {
		t.Fatal(err)
	}
	tree := c.Tree()
	if len(tree) != 2 || tree[0].ID != "INT-001" || tree[1].ID != "INT-003" || len(tree[0].Children) != 2 || tree[0].Children[1].ID != "INT-004" {
		t.Fatalf("tree = %+v", tree)
	}
	for id, want := range map[string]bool{"INT-001": false, "INT-002": true, "INT-003": true, "INT-004": false} {
		if got := c.Find(id).Done(); got != want {
			t.Errorf("%s.Done() = %v, want %v", id, got, want)
		}
	}
}
