package precommit

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/workspace"
)

const testCatalog = `active_intents:
  - id: "INT-001"
    name: "Hooks work"
    status: "IN_PROGRESS"
    owned_scope: ["src/hooks/**"]
    constraints: []
    acceptance_criteria: []
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
  - id: "INT-002"
    name: "Done work"
    status: "COMPLETE"
    owned_scope: ["docs/**"]
    constraints: []
    acceptance_criteria: []
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
  - id: "INT-003"
    name: "Not started"
    status: "PENDING"
    owned_scope: ["pending/**"]
    constraints: []
    acceptance_criteria: []
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
  - id: "INT-004"
    name: "Broken"
    status: "IN_PROGRESS"
    owned_scope: ["broken/**"]
    constraints: []
    created_at: "2026-02-18T10:00:00Z"
    updated_at: "2026-02-20T14:00:00Z"
`

func TestCheck(t *testing.T) {
	cat, err := intents.Parse([]byte(testCatalog))
	if err != nil {
		t.Fatal(err)
	}
	a, b := digest.String("a"), digest.String("b")
	traces := map[string]Trace{
		"src/hooks/a.go":    {Seq: 3, PostHash: a},
		"src/hooks/gone.go": {Seq: 4},
		"src/hooks/back.go": {Seq: 5},
		"docs/x.md":         {Seq: 6, PostHash: a},
	}
	ig := workspace.ParseIgnore([]byte(".gitignore\n.claude/\n"))
	tests := []struct {
		name   string
		staged Staged
		strict bool
		want   []Finding
		traced int
		exempt int
	}{
		{name: "in scope, traced", staged: Staged{Path: "src/hooks/a.go", Hash: a}, traced: 1},
		{name: "complete intent's scope counts", staged: Staged{Path: "docs/x.md", Hash: a}, traced: 1},
		{name: "in scope, edited after the record", staged: Staged{Path: "src/hooks/a.go", Hash: b},
			want: []Finding{{Warning, CodeUntraced, "src/hooks/a.go", "staged content differs from the newest ledger record (seq 3): changed after the hooks recorded it"}}},
		{name: "strict makes untraced an error", staged: Staged{Path: "src/hooks/new.go", Hash: b}, strict: true,
			want: []Finding{{Error, CodeUntraced, "src/hooks/new.go", "no ledger record: changed without the hooks (by hand, or by an agent they did not run for)"}}},
		{name: "out of scope and untraced", staged: Staged{Path: "src/api/x.go", Hash: b},
			want: []Finding{
				{Error, CodeOutOfScope, "src/api/x.go", "not inside the owned_scope of any IN_PROGRESS or COMPLETE intent"},
				{Warning, CodeUntraced, "src/api/x.go", "no ledger record: changed without the hooks (by hand, or by an agent they did not run for)"},
			}},
		{name: "a pending intent's scope does not count", staged: Staged{Path: "pending/x", Hash: a},
			want: []Finding{
				{Error, CodeOutOfScope, "pending/x", "not inside the owned_scope of any IN_PROGRESS or COMPLETE intent"},
				{Warning, CodeUntraced, "pending/x", "no ledger record: changed without the hooks (by hand, or by an agent they did not run for)"},
			}},
		{name: "an invalid intent's scope does not count", staged: Staged{Path: "broken/x", Hash: a},
			want: []Finding{
				{Error, CodeOutOfScope, "broken/x", "not inside the owned_scope of any IN_PROGRESS or COMPLETE intent"},
				{Warning, CodeUntraced, "broken/x", "no ledger record: changed without the hooks (by hand, or by an agent they did not run for)"},
			}},
		{name: "deletion traced", staged: Staged{Path: "src/hooks/gone.go", Deleted: true}, traced: 1},
		{name: "deletion without record", staged: Staged{Path: "src/hooks/b.go", Deleted: true},
			want: []Finding{{Warning, CodeUntraced, "src/hooks/b.go", "deleted without a ledger record: not done through the hooks"}}},
		{name: "deletion of a file the ledger has present", staged: Staged{Path: "src/hooks/a.go", Deleted: true},
			want: []Finding{{Warning, CodeUntraced, "src/hooks/a.go", "deleted, but the newest ledger record (seq 3) has the file present"}}},
		{name: "content where the ledger has a deletion", staged: Staged{Path: "src/hooks/back.go", Hash: a},
			want: []Finding{{Warning, CodeUntraced, "src/hooks/back.go", "the newest ledger record (seq 5) has the file deleted, but the commit stages content"}}},
		{name: "unreadable", staged: Staged{Path: "src/hooks/c.go", Unreadable: "why"},
			want: []Finding{{Warning, CodeUntraced, "src/hooks/c.go", "cannot read the staged content: why"}}},
		{name: "ignored", staged: Staged{Path: ".gitignore", Hash: a}, exempt: 1},
		{name: "ignored directory", staged: Staged{Path: ".claude/settings.json", Hash: a}, exempt: 1},
		{name: "governance sidecar", staged: Staged{Path: ".orchestration/agent_trace.jsonl"}, exempt: 1},
		{name: "catalog", staged: Staged{Path: ".orchestration/active_intents.yaml", Hash: a}, exempt: 1},
	}
	catalogErr := Finding{Error, CodeCatalogInvalid, intents.File, "line 26: INT-004: missing required field acceptance_criteria"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Check(&Snapshot{Staged: []Staged{tt.staged}, Parent: Rules{Catalog: cat, Ignore: ig}, Catalog: cat, Ignore: ig, Traces: traces}, tt.strict)
			want := append([]Finding{catalogErr}, tt.want...)
			if !reflect.DeepEqual(r.Findings, want) {
				t.Errorf("findings\n%v\nwant\n%v", r.Findings, want)
			}
			if r.Traced != tt.traced || r.Exempt != tt.exempt {
				t.Errorf("traced %d exempt %d, want %d %d", r.Traced, r.Exempt, tt.traced, tt.exempt)
			}
			if !r.Failed() {
				t.Error("the catalog error must fail the commit")
			}
		})
	}
}

func TestCheckFailedAndSummary(t *testing.T) {
	cat, _ := intents.Parse([]byte(`active_intents: []`))
	ok := Check(&Snapshot{Parent: Rules{Catalog: cat}, Catalog: cat, Staged: []Staged{{Path: "x", Hash: "h"}}, Traces: map[string]Trace{}}, false)
	if ok.Failed() != true {
		t.Error("out of scope must fail")
	}
	if got, want := ok.Summary(), "precommit: commit refused: 1 staged path(s) checked, 0 traced, 0 exempt; 1 error(s), 1 warning(s)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	empty := Check(&Snapshot{Parent: Rules{Catalog: cat}, Catalog: cat}, true)
	if empty.Failed() || empty.Summary() != "precommit: ok: 0 staged path(s) checked, 0 traced, 0 exempt; 0 error(s), 0 warning(s)" {
		t.Errorf("empty commit: %v %q", empty.Failed(), empty.Summary())
	}
}

func TestCheckCatalogNotYAML(t *testing.T) {
	// The staged catalog is checked; the scope is HEAD's.
	none, _ := intents.Parse([]byte(`active_intents: []`))
	r := Check(&Snapshot{Parent: Rules{Catalog: none, Ignore: workspace.ParseIgnore([]byte("a\n"))}, CatalogErr: errors.New("catalog is not valid YAML: x"), Staged: []Staged{{Path: "a", Hash: "h"}, {Path: "b", Hash: "h"}}}, false)
	want := []Finding{
		{Error, CodeCatalogInvalid, intents.File, "catalog is not valid YAML: x"},
		{Error, CodeOutOfScope, "b", "not inside the owned_scope of any IN_PROGRESS or COMPLETE intent"},
		{Warning, CodeUntraced, "b", "no ledger record: changed without the hooks (by hand, or by an agent they did not run for)"},
	}
	if !reflect.DeepEqual(r.Findings, want) {
		t.Errorf("findings %v, want %v", r.Findings, want)
	}
}

func TestCheckLedgerErrorsBounded(t *testing.T) {
	cat, _ := intents.Parse([]byte(`active_intents: []`))
	var rep ledger.Report
	for i := 1; i <= 12; i++ {
		rep.Errors = append(rep.Errors, ledger.Problem{Line: i, Message: "does not parse"})
	}
	r := Check(&Snapshot{Parent: Rules{Catalog: cat}, Catalog: cat, Ledger: rep}, false)
	if len(r.Findings) != maxLedgerFindings+1 {
		t.Fatalf("%d findings, want %d", len(r.Findings), maxLedgerFindings+1)
	}
	if got := r.Findings[0].String(); got != "error ledger_invalid .orchestration/agent_trace.jsonl: line 1: does not parse" {
		t.Errorf("first finding %q", got)
	}
	if got := r.Findings[maxLedgerFindings].Message; got != "… and 2 more (intenthook ledger verify lists them)" {
		t.Errorf("last finding %q", got)
	}
}

func TestFindingQuotesControlCharacters(t *testing.T) {
	f := Finding{Error, CodeOutOfScope, "a\nprecommit: ok", "not in scope"}
	if got := f.String(); strings.Contains(got, "\n") || !strings.Contains(got, `"a\nprecommit: ok"`) {
		t.Errorf("String() = %q", got)
	}
	if got := (Finding{Warning, CodeUntraced, "src/a b.go", "m"}).String(); got != "warning untraced src/a b.go: m" {
		t.Errorf("String() = %q", got)
	}
}

func TestTraceOfIgnoresAttributed(t *testing.T) {
	const traced = `{"version":"0.1.0","id":"x","timestamp":"2026-01-01T00:00:00Z","files":[{"path":"src/a.go","conversations":[]}],"metadata":{"dev.intenthook":{"seq":3,"event":"PostToolUse","tool_name":"Write","mutation_class":"FILE_CREATION","pre_hash":null,"post_hash":"sha256:aa","scope_validation":"PASS","decision":"allow","success":true,"format":2}}}`
	attributed := strings.Replace(strings.Replace(traced, "FILE_CREATION", "ATTRIBUTED", 1), `"PASS"`, `"EXEMPT"`, 1)
	if p, tr, ok := TraceOf([]byte(traced)); !ok || p != "src/a.go" || tr.PostHash != "sha256:aa" {
		t.Fatalf("traced line: %q %+v %v", p, tr, ok)
	}
	if p, _, ok := TraceOf([]byte(attributed)); ok {
		t.Errorf("an ATTRIBUTED record is a trace of %q", p)
	}
	// The decoding path (a path that needs unescaping) too.
	escaped := strings.Replace(attributed, `"path":"src/a.go"`, `"path":"src/\u0061.go"`, 1)
	if p, _, ok := TraceOf([]byte(escaped)); ok {
		t.Errorf("an ATTRIBUTED record (decoded) is a trace of %q", p)
	}
}

func TestCheckParentRules(t *testing.T) {
	narrow, _ := intents.Parse([]byte(`active_intents: [{id: INT-001, name: xyz, status: IN_PROGRESS, owned_scope: ["src/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}]`))
	wide, _ := intents.Parse([]byte(`active_intents: [{id: INT-001, name: xyz, status: IN_PROGRESS, owned_scope: ["src/**", "out/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}]`))
	pending, _ := intents.Parse([]byte(`active_intents: [{id: INT-001, name: xyz, status: PENDING, owned_scope: ["out/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}]`))
	started, _ := intents.Parse([]byte(`active_intents: [{id: INT-001, name: xyz, status: IN_PROGRESS, owned_scope: ["out/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}]`))
	startedWide, _ := intents.Parse([]byte(`active_intents: [{id: INT-001, name: xyz, status: IN_PROGRESS, owned_scope: ["out/**", "src/**"], constraints: [], acceptance_criteria: [], created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z"}]`))
	h := digest.String("x")
	traces := map[string]Trace{"out/x": {Seq: 1, PostHash: h}, "src/a": {Seq: 2, PostHash: h}, "other/y": {Seq: 3, PostHash: h}}
	tests := []struct {
		name  string
		snap  Snapshot
		codes []string
	}{
		{"root commit: no rules", Snapshot{Parent: Rules{None: true, Root: true}, Catalog: narrow, Staged: []Staged{{Path: "out/x", Hash: h}}}, nil},
		{"history without rules, the catalog staged: adopts", Snapshot{Parent: Rules{None: true}, Catalog: narrow, RulesChanged: []string{intents.File},
			Staged: []Staged{{Path: intents.File, Hash: h}, {Path: "out/x", Hash: h}}}, nil},
		{"history without rules, the catalog not staged", Snapshot{Parent: Rules{None: true}, Catalog: narrow, Staged: []Staged{{Path: "out/x", Hash: h}}}, []string{CodeNotAdopted}},
		{"history without rules, the catalog deleted", Snapshot{Parent: Rules{None: true}, Catalog: narrow, Staged: []Staged{{Path: intents.File, Deleted: true}, {Path: "out/x", Hash: h}}}, []string{CodeNotAdopted}},
		{"rules removed before", Snapshot{Parent: Rules{Removed: "0123456789abcdef"}, Catalog: narrow, Staged: []Staged{{Path: "out/x", Hash: h}}}, []string{CodeCatalogRemoved}},
		{"catalog widened with the code", Snapshot{Parent: Rules{Catalog: narrow}, Catalog: wide, RulesChanged: []string{intents.File},
			Staged: []Staged{{Path: intents.File, Hash: h}, {Path: "out/x", Hash: h}}}, []string{CodeRulesChanged, CodeSelfWidening}},
		{"ignore widened with the code", Snapshot{Parent: Rules{Catalog: narrow}, Catalog: narrow, Ignore: workspace.ParseIgnore([]byte("out/\n")), RulesChanged: []string{workspace.IgnoreFile},
			Staged: []Staged{{Path: "out/x", Hash: h}}}, []string{CodeRulesChanged, CodeSelfWidening}},
		{"rules changed, code out of both", Snapshot{Parent: Rules{Catalog: narrow}, Catalog: wide, RulesChanged: []string{intents.File},
			Staged: []Staged{{Path: "other/y", Hash: h}}}, []string{CodeRulesChanged, CodeOutOfScope}},
		{"rules changed, code in the parent's scope", Snapshot{Parent: Rules{Catalog: narrow}, Catalog: wide, RulesChanged: []string{intents.File},
			Staged: []Staged{{Path: "src/a", Hash: h}}}, []string{CodeRulesChanged}},
		{"rules committed first", Snapshot{Parent: Rules{Catalog: wide}, Catalog: wide, Staged: []Staged{{Path: "out/x", Hash: h}}}, nil},
		{"a pending intent started with the code", Snapshot{Parent: Rules{Catalog: pending}, Catalog: started, RulesChanged: []string{intents.File},
			Staged: []Staged{{Path: "out/x", Hash: h}}}, []string{CodeRulesChanged}},
		{"a pending intent started wider", Snapshot{Parent: Rules{Catalog: pending}, Catalog: startedWide, RulesChanged: []string{intents.File},
			Staged: []Staged{{Path: "out/x", Hash: h}}}, []string{CodeRulesChanged, CodeSelfWidening}},
		{"a pending intent not started", Snapshot{Parent: Rules{Catalog: pending}, Catalog: pending,
			Staged: []Staged{{Path: "out/x", Hash: h}}}, []string{CodeOutOfScope}},
		{"parent without a catalog", Snapshot{Parent: Rules{}, Catalog: wide, Staged: []Staged{{Path: "out/x", Hash: h}}}, []string{CodeCatalogInvalid}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.snap.Traces = traces
			var codes []string
			for _, f := range Check(&tt.snap, false).Findings {
				codes = append(codes, f.Code)
			}
			if !reflect.DeepEqual(codes, tt.codes) {
				t.Errorf("codes %v, want %v", codes, tt.codes)
			}
		})
	}
}

// TestAdoptionLists checks what a commit adopting the rules lists: the
// governance files and init's git files with their reason, first, then the
// rest, all with the author.
func TestAdoptionLists(t *testing.T) {
	h := "sha256:" + strings.Repeat("a", 64)
	catalog, err := intents.Parse([]byte("active_intents: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := &Snapshot{Parent: Rules{None: true}, Catalog: catalog, Author: "Dev <dev@example.com>", Staged: []Staged{
		{Path: "src/app.go", Hash: h}, {Path: intents.File, Hash: h}, {Path: ".gitignore", Hash: h},
	}}
	r := Check(s, true)
	var got []string
	for _, a := range r.Adopted {
		got = append(got, a.String())
	}
	want := []string{
		"governance adopted .orchestration/active_intents.yaml: the catalog: intents, scopes, who may do what (by Dev <dev@example.com>)",
		"governance adopted .gitignore: git's ignore file (init keeps .orchestration/state/ out of commits) (by Dev <dev@example.com>)",
		"adopted with the rules src/app.go: changed in the commit that adopts them, not judged (by Dev <dev@example.com>)",
	}
	if !reflect.DeepEqual(got, want) || r.Failed() || r.Exempt != 3 || r.Checked != 0 {
		t.Errorf("adopted %q (failed %v, exempt %d, checked %d), want %q", got, r.Failed(), r.Exempt, r.Checked, want)
	}
	if sum := r.Summary(); !strings.Contains(sum, "the commit adopts the rules: 2 governance file(s) and 1 other path(s)") {
		t.Errorf("summary %q", sum)
	}
}

// TestCheckPeople: under people.commits: free a person's commit lists its
// untraced changes, in scope or not, as person_change; traced work and an
// agent's commit are judged as under scoped.
func TestCheckPeople(t *testing.T) {
	cat, err := intents.Parse([]byte(testCatalog))
	if err != nil {
		t.Fatal(err)
	}
	a, b := digest.String("a"), digest.String("b")
	traces := map[string]Trace{"src/hooks/a.go": {Seq: 3, PostHash: a}, "src/api/t.go": {Seq: 4, PostHash: a}}
	const mark = "; the commit is marked " + PersonTrailer
	tests := []struct {
		name   string
		people string
		agent  string
		staged Staged
		want   []Finding
		who    string
	}{
		{name: "outside every intent", people: "free", staged: Staged{Path: "README.md", Hash: b}, who: "a person's commit",
			want: []Finding{{Warning, CodePersonChange, "README.md", "a person's change (people.commits: free): outside every intent, no ledger record" + mark}}},
		{name: "in scope, changed after the record", people: "free", staged: Staged{Path: "src/hooks/a.go", Hash: b}, who: "a person's commit",
			want: []Finding{{Warning, CodePersonChange, "src/hooks/a.go", "a person's change (people.commits: free): not what the newest ledger record (seq 3) left" + mark}}},
		{name: "traced in scope", people: "free", staged: Staged{Path: "src/hooks/a.go", Hash: a}, who: "a person's commit"},
		{name: "an agent's traced work outside every intent stays refused", people: "free", staged: Staged{Path: "src/api/t.go", Hash: a}, who: "a person's commit",
			want: []Finding{{Error, CodeOutOfScope, "src/api/t.go", "not inside the owned_scope of any IN_PROGRESS or COMPLETE intent"}}},
		{name: "an agent's commit", people: "free", agent: "session s1: why", staged: Staged{Path: "README.md", Hash: b}, who: "an agent's commit (session s1: why)",
			want: []Finding{
				{Error, CodeOutOfScope, "README.md", "not inside the owned_scope of any IN_PROGRESS or COMPLETE intent"},
				{Warning, CodeUntraced, "README.md", "no ledger record: changed without the hooks (by hand, or by an agent they did not run for)"},
			}},
		{name: "scoped", people: "scoped", staged: Staged{Path: "README.md", Hash: b},
			want: []Finding{
				{Error, CodeOutOfScope, "README.md", "not inside the owned_scope of any IN_PROGRESS or COMPLETE intent"},
				{Warning, CodeUntraced, "README.md", "no ledger record: changed without the hooks (by hand, or by an agent they did not run for)"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Snapshot{Staged: []Staged{tt.staged}, Parent: Rules{Catalog: cat}, Catalog: cat, Traces: traces, People: tt.people, Agent: tt.agent}
			r := Check(s, false)
			var got []Finding
			for _, f := range r.Findings {
				if f.Code != CodeCatalogInvalid {
					got = append(got, f)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("findings\n%v\nwant\n%v", got, tt.want)
			}
			if r.Who != tt.who {
				t.Errorf("who %q, want %q", r.Who, tt.who)
			}
			if hints := r.Hints(); (len(hints) > 0) != (len(tt.want) > 0 && tt.want[0].Code == CodeOutOfScope) {
				t.Errorf("hints %q", hints)
			}
		})
	}
}

func TestHasTrailer(t *testing.T) {
	for msg, want := range map[string]bool{
		"x\n\nIntenthook-Person: P <p@x>\n": true,
		"x\n\nintenthook-person : P\n":      true,
		"x\n\nSigned-off-by: P <p@x>\n":     false,
		"Intenthook-Person mentioned\n":     false,
	} {
		if got := hasTrailer([]byte(msg)); got != want {
			t.Errorf("hasTrailer(%q) = %v", msg, got)
		}
	}
}
