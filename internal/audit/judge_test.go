package audit

import (
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/precommit"
	"github.com/intenthook/intenthook/internal/workspace"
)

func TestJudgeByParentRules(t *testing.T) {
	parse := func(scope string) *intents.Catalog {
		c, err := intents.Parse([]byte(`active_intents: [{id: INT-001, name: Hooks, status: IN_PROGRESS, owned_scope: [` + scope + `], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}]`))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	narrow, wide := parse(`"src/**"`), parse(`"src/**", "out/**"`)
	none := workspace.ParseIgnore(nil)
	tests := []struct {
		name  string
		paths []string
		rules commitRules
		codes []string
	}{
		{"root commit: no rules", []string{"out/x"}, commitRules{parent: precommit.Rules{None: true}}, nil},
		{"in the parent's scope", []string{"src/a"}, commitRules{parent: precommit.Rules{Catalog: narrow, Ignore: none}, own: precommit.Rules{Catalog: narrow, Ignore: none}}, nil},
		{"catalog widened with the code", []string{intents.File, "out/x"}, commitRules{parent: precommit.Rules{Catalog: narrow, Ignore: none}, own: precommit.Rules{Catalog: wide, Ignore: none}}, []string{SelfWidening}},
		{"ignore widened with the code", []string{workspace.IgnoreFile, "out/x"}, commitRules{parent: precommit.Rules{Catalog: narrow, Ignore: none}, own: precommit.Rules{Catalog: narrow, Ignore: workspace.ParseIgnore([]byte("out/\n"))}}, []string{SelfWidening}},
		{"the commit's own catalog does not count", []string{"out/x"}, commitRules{parent: precommit.Rules{Catalog: narrow, Ignore: none}, own: precommit.Rules{Catalog: wide, Ignore: none}}, []string{OutOfScope}},
		{"widened by the parent", []string{"out/x"}, commitRules{parent: precommit.Rules{Catalog: wide, Ignore: none}, own: precommit.Rules{Catalog: wide, Ignore: none}}, nil},
		{"parent without a catalog", []string{"src/a"}, commitRules{parent: precommit.Rules{Ignore: none}}, []string{CatalogUnreadable}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := commit{id: "c1", paths: tt.paths}
			tt.rules.hashes, tt.rules.present = make([]string, len(tt.paths)), make([]bool, len(tt.paths))
			traced := map[string]map[string]bool{}
			for _, p := range tt.paths {
				traced[p] = map[string]bool{"": true}
			}
			var codes []string
			for _, f := range judge(c, tt.rules, traced, Warning).findings {
				codes = append(codes, f.Code)
			}
			if !reflect.DeepEqual(codes, tt.codes) {
				t.Errorf("codes %v, want %v", codes, tt.codes)
			}
		})
	}
}

// TestJudgePerson: a commit marked a person's (whose parent says free:
// peopleFree cleared the mark otherwise) has its untraced changes listed as
// person_change, in scope or not, self-widening included; its traced
// changes are judged as an agent's.
func TestJudgePerson(t *testing.T) {
	cat, err := intents.Parse([]byte(`active_intents: [{id: INT-001, name: Hooks, status: IN_PROGRESS, owned_scope: ["src/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}]`))
	if err != nil {
		t.Fatal(err)
	}
	none := workspace.ParseIgnore(nil)
	rules := commitRules{parent: precommit.Rules{Catalog: cat, Ignore: none}, own: precommit.Rules{Catalog: cat, Ignore: workspace.ParseIgnore([]byte("out/\n"))}}
	tests := []struct {
		name   string
		person string
		paths  []string
		traced bool
		codes  []string
	}{
		{"outside every intent", "P <p@x>", []string{"out/x"}, false, []string{PersonChange}},
		{"in scope", "P <p@x>", []string{"src/a"}, false, []string{PersonChange}},
		{"self-widening", "P <p@x>", []string{workspace.IgnoreFile, "out/x"}, false, []string{PersonChange}},
		{"traced outside every intent", "P <p@x>", []string{"out/x"}, true, []string{OutOfScope}},
		{"unmarked", "", []string{"out/x"}, false, []string{OutOfScope, Untraced}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rules
			r.hashes, r.present = make([]string, len(tt.paths)), make([]bool, len(tt.paths))
			traced := map[string]map[string]bool{}
			for _, p := range tt.paths {
				traced[p] = map[string]bool{"": tt.traced}
			}
			var codes []string
			for _, f := range judge(commit{id: "c1", paths: tt.paths, person: tt.person}, r, traced, Warning).findings {
				codes = append(codes, f.Code)
			}
			if !reflect.DeepEqual(codes, tt.codes) {
				t.Errorf("codes %v, want %v", codes, tt.codes)
			}
		})
	}
}
