//go:build !noyaml

package splice

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// now is in a non-UTC zone so that the tests see the conversion to UTC.
var now = time.Date(2026, 3, 1, 12, 30, 45, 999, time.FixedZone("CET", 3600))

const stamp = "2026-03-01T11:30:45Z"

// TestGolden runs each case on testdata/NAME.yaml and compares the result with
// testdata/NAME.golden.yaml byte for byte (go test -update rewrites them), then decodes both and checks
// that only the intended values differ.
func TestGolden(t *testing.T) {
	tests := []struct {
		name    string // input testdata/NAME.yaml
		golden  string // expected testdata/GOLDEN.golden.yaml; NAME when empty
		id      string
		status  string   // SetStatus when set
		scope   []string // SetScope when set
		times   []Stamp  // SetTimes when set
		version int      // the version SetScope should leave
		wantErr string
	}{
		{name: "block_comments", id: "INT-001", status: "IN_PROGRESS"},
		{name: "single_quoted", id: "INT-001", status: "IN_PROGRESS"},
		{name: "plain", id: "INT-001", status: "COMPLETE"},
		{name: "flow_intent", id: "INT-001", status: "IN_PROGRESS"},
		{name: "flow_no_updated_at", id: "INT-001", status: "IN_PROGRESS"},
		{name: "block_no_updated_at", id: "INT-001", status: "IN_PROGRESS"},
		{name: "scope_flow_version_absent", id: "INT-001", scope: []string{"src/hooks/**", `odd "quoted" dir/**`}, version: 2},
		{name: "scope_block_version_present", id: "INT-001", scope: []string{"src/hooks/**", "it's/**", "docs/**"}, version: 4},
		{name: "scope_flow_multiline", id: "INT-001", scope: []string{"src/**", "**/*.go", "a, b/c"}, version: 2},
		{name: "crlf", id: "INT-001", scope: []string{"src/**", "test/**"}, version: 2},
		{name: "no_final_newline", id: "INT-001", scope: []string{"lib/**"}, version: 2},
		{name: "two_intents", id: "INT-002", status: "BLOCKED"},
		{name: "bom_unicode", id: "INT-002", status: "ARCHIVED"},
		{name: "bom_unicode", golden: "bom_unicode_flow", id: "INT-001", status: "ARCHIVED"},
		{name: "tagged_anchored", id: "INT-001", status: "IN_PROGRESS"},
		{name: "two_intents", id: "INT-404", status: "BLOCKED", wantErr: `intent "INT-404" not found`},
		{name: "not_catalog", id: "INT-001", status: "BLOCKED", wantErr: "not an intent catalog: the top level is not a mapping (line 1)"},
		{name: "no_intents_key", id: "INT-001", status: "BLOCKED", wantErr: "not an intent catalog: no active_intents key"},
		{name: "alias_used", id: "INT-001", status: "BLOCKED", wantErr: `intent "INT-001": status is anchored as &s and repeated by the alias on line 6; edit it by hand`},
		{name: "duplicate_id", id: "INT-001", status: "BLOCKED", wantErr: `intent "INT-001" is defined twice (lines 2 and 4)`},
		{name: "plain", golden: "plain_completed", id: "INT-001", times: []Stamp{{"completed_at", now}, {"updated_at", now}}},
		{name: "block_no_updated_at", golden: "block_fix_times", id: "INT-001", times: []Stamp{{"created_at", now}, {"updated_at", now}}},
		{name: "flow_no_updated_at", golden: "flow_fix_times", id: "INT-001", times: []Stamp{{"created_at", now}, {"updated_at", now}}},
		{name: "plain", id: "INT-001", times: []Stamp{{"status", now}}, wantErr: `cannot set "status": not a timestamp key, or given twice`},
		{name: "version_string", id: "INT-001", scope: []string{"b"}, wantErr: `intent "INT-001": version "2" is not an integer >= 1 (line 4)`},
	}
	for _, tt := range tests {
		golden := cmp.Or(tt.golden, tt.name)
		t.Run(golden, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", tt.name+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			var out []byte
			if tt.times != nil {
				out, err = SetTimes(in, tt.id, tt.times)
			} else if tt.scope != nil {
				out, err = SetScope(in, tt.id, tt.scope, now)
			} else {
				out, err = SetStatus(in, tt.id, tt.status, now)
			}
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", golden+".golden.yaml")
			if *update {
				if err := os.WriteFile(path, out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, want) {
				t.Errorf("result differs from %s:\n--- got\n%s\n--- want\n%s", path, out, want)
			}
			changed := map[string]any{keyUpdatedAt: stamp}
			if tt.times != nil {
				for _, st := range tt.times {
					changed[st.Key] = stamp
				}
			} else if tt.scope != nil {
				changed[keyScope] = tt.scope
				changed[keyVersion] = tt.version
			} else {
				changed[keyStatus] = tt.status
			}
			checkDecoded(t, in, out, tt.id, changed)
		})
	}
}

// checkDecoded decodes the catalog before and after into plain Go values and checks that the intent
// id has the changed values and that nothing else differs.
func checkDecoded(t *testing.T, before, after []byte, id string, changed map[string]any) {
	t.Helper()
	var a, b map[string]any
	if err := yaml.Unmarshal(before, &a); err != nil {
		t.Fatalf("decode input: %v", err)
	}
	if err := yaml.Unmarshal(after, &b); err != nil {
		t.Fatalf("decode result: %v", err)
	}
	intentOf := func(m map[string]any) map[string]any {
		for _, item := range m[keyIntents].([]any) {
			if in, ok := item.(map[string]any); ok && in[keyID] == id {
				return in
			}
		}
		t.Fatalf("intent %s not in decoded catalog", id)
		return nil
	}
	ia, ib := intentOf(a), intentOf(b)
	for key, want := range changed {
		got := ib[key]
		switch v := got.(type) {
		case time.Time:
			got = v.Format(time.RFC3339)
		case []any:
			var s []string
			for _, item := range v {
				s = append(s, fmt.Sprint(item))
			}
			got = s
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, want %#v", key, got, want)
		}
		delete(ia, key)
		delete(ib, key)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("more than the intended values changed:\nbefore %v\nafter  %v", a, b)
	}
}

// TestColumnsCountRunes pins the yaml.v3 behaviour this package depends on: columns count characters,
// so bytes and columns part ways after non-ASCII text on the same line.
func TestColumnsCountRunes(t *testing.T) {
	data := []byte("{name: \"Café\", status: PENDING}\n")
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	status := doc.Content[0].Content[3]
	if status.Column != 24 {
		t.Fatalf("yaml.v3 put status at column %d, want 24 (characters, not bytes)", status.Column)
	}
	off, err := newText(data).offset(status.Line, status.Column)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(data[off : off+7]); got != "PENDING" {
		t.Fatalf("offset %d holds %q, want PENDING", off, got)
	}
}

func TestQuote(t *testing.T) {
	tests := []struct {
		value string
		q     quoting
		flow  bool
		want  string
	}{
		{"IN_PROGRESS", plainQuoting, false, "IN_PROGRESS"},
		{"true", plainQuoting, false, `"true"`},
		{"null", plainQuoting, false, `"null"`},
		{"123", plainQuoting, false, `"123"`},
		{"a: b", plainQuoting, false, `"a: b"`},
		{"a #b", plainQuoting, false, `"a #b"`},
		{"a#b", plainQuoting, false, "a#b"},
		{"**/*.go", plainQuoting, false, `"**/*.go"`},
		{"src/**", plainQuoting, true, "src/**"},
		{"a,b", plainQuoting, false, "a,b"},
		{"a,b", plainQuoting, true, `"a,b"`},
		{"-x", plainQuoting, false, `"-x"`},
		{"", plainQuoting, false, `""`},
		{" lead", plainQuoting, false, `" lead"`},
		{"it's", singleQuoting, false, "'it''s'"},
		{"tab\there", singleQuoting, false, `"tab\there"`},
		{`say "hi" \ bye`, doubleQuoting, false, `"say \"hi\" \\ bye"`},
		{"line\nbreak\u2028\x01\u0085\ufeff", doubleQuoting, false, `"line\nbreak\L\x01\N\uFEFF"`},
		{"Café ☕", doubleQuoting, false, `"Café ☕"`},
	}
	for _, tt := range tests {
		got := quote(tt.value, tt.q, tt.flow, "!!str")
		if got != tt.want {
			t.Errorf("quote(%q, %v, flow=%v) = %s, want %s", tt.value, tt.q, tt.flow, got, tt.want)
			continue
		}
		var back string
		if err := yaml.Unmarshal([]byte("["+got+"]"), &[]*string{&back}); err != nil {
			t.Errorf("%s does not parse: %v", got, err)
		}
	}
}

func TestStatusRoundTripsAnyString(t *testing.T) {
	data := []byte("active_intents:\n  - id: X\n    status: PENDING # c\n    updated_at: 2026-01-01T00:00:00Z\n")
	for _, status := range []string{"true", "~", "a: b", "x # y", "'", `"`, "\\", "multi\nline", " ", "…", "-", "[a]", "{b}", "*c", "&d", "!e", "%f", "@g", "|", ">"} {
		out, err := SetStatus(data, "X", status, now)
		if err != nil {
			t.Errorf("SetStatus(%q): %v", status, err)
			continue
		}
		checkDecoded(t, data, out, "X", map[string]any{keyStatus: status, keyUpdatedAt: stamp})
		if !bytes.Contains(out, []byte(" # c\n")) {
			t.Errorf("SetStatus(%q) lost the line comment:\n%s", status, out)
		}
	}
}

func TestSetScopeRejectsEmpty(t *testing.T) {
	data := []byte("active_intents:\n  - id: X\n    status: PENDING\n    owned_scope: [a]\n")
	for _, scope := range [][]string{nil, {}, {"a", ""}, {"\xff"}} {
		if _, err := SetScope(data, "X", scope, now); err == nil {
			t.Errorf("SetScope(%q) succeeded, want an error", scope)
		}
	}
}

func TestErrorsAreSentinels(t *testing.T) {
	data := []byte("active_intents: []\n")
	if _, err := SetStatus(data, "X", "PENDING", now); !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
	for _, data := range []string{"", "[]", "active_intents: {}", "active_intents: 3", "a: b"} {
		if _, err := SetStatus([]byte(data), "X", "PENDING", now); !errors.Is(err, ErrNotCatalog) {
			t.Errorf("%q: err = %v, want ErrNotCatalog", data, err)
		}
	}
	if _, err := SetStatus([]byte("{"), "X", "PENDING", now); err == nil || !strings.HasPrefix(err.Error(), "parse catalog: ") {
		t.Errorf("err = %v, want a parse error", err)
	}
	for _, data := range []string{"\xFF\xFEa\x00:\x00", "active_intents: [{}]"} {
		if _, err := SetStatus([]byte(data), "", "PENDING", now); err == nil {
			t.Errorf("%q: SetStatus succeeded, want an error", data)
		}
	}
}

// TestEdgeLayouts covers layouts that are legal YAML but unusual in a catalog: each either splices
// correctly (checked by decoding) or is refused with an error, never a wrong file.
func TestEdgeLayouts(t *testing.T) {
	tests := []struct {
		name, data string
	}{
		{"multi-line plain status", "active_intents:\n  - id: X\n    status: IN\n      PROGRESS\n    updated_at: 2026-01-01T00:00:00Z\n"},
		{"block scalar status", "active_intents:\n  - id: X\n    status: |-\n      PENDING\n    owned_scope: [a]\n"},
		{"keep-chomped last value", "active_intents:\n  - id: X\n    status: PENDING\n    owned_scope: [a]\n    notes: |+\n      kept\n\n\nother: 1\n"},
		{"folded last value in sequence", "active_intents:\n- id: X\n  status: PENDING\n  owned_scope: [a]\n  acceptance_criteria:\n  - description: d\n    check: >\n      go test\n      ./...\n"},
		{"empty last value", "active_intents:\n  - id: X\n    status: PENDING\n    owned_scope: [a]\n    parent_intent:\n    # comment\nnext: 1\n"},
		{"empty status", "active_intents:\n  - id: X\n    status:\n    owned_scope: [a]\n"},
		{"tab separated", "active_intents:\n  - id: X\n    status:\tPENDING\t# c\n    owned_scope:\t[a]\n"},
		{"flow sequence of intents", "active_intents: [{id: X, status: PENDING, owned_scope: [a]}, {id: Y}]\n"},
		{"all on one line", "{active_intents: [{id: X, status: PENDING, owned_scope: [a], updated_at: 2026-01-01T00:00:00Z}]}"},
		{"second document", "active_intents:\n  - id: X\n    status: PENDING\n    owned_scope: [a]\n---\nother: doc\n"},
		{"document end marker", "active_intents:\n  - id: X\n    status: PENDING\n    owned_scope: [a]\n...\n"},
		{"quoted keys", "\"active_intents\":\n  - 'id': X\n    \"status\": PENDING\n    'owned_scope': [a]\n"},
		{"NEL and LS line breaks", "active_intents:\u0085  - id: X\u2028    status: PENDING\u2029    owned_scope: [a]\u0085"},
		{"lone CR line breaks", "active_intents:\r  - id: X\r    status: PENDING\r    owned_scope: [a]\r"},
		{"explicit key", "active_intents:\n  - id: X\n    ? status\n    : PENDING\n    owned_scope: [a]\n"},
		{"anchored scope", "active_intents:\n  - id: X\n    status: PENDING\n    owned_scope: &s\n      - a\n"},
		{"empty flow scope", "active_intents:\n  - id: X\n    status: PENDING\n    owned_scope: []\n"},
		{"block scope item on next line", "active_intents:\n  - id: X\n    status: PENDING\n    owned_scope:\n    -\n      a\n    - b # c\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.data)
			out, err := SetStatus(data, "X", "COMPLETE", now)
			if err != nil {
				t.Logf("SetStatus: %v", err)
				if errors.Is(err, errMismatch) {
					t.Errorf("SetStatus produced a wrong splice: %v", err)
				}
			} else {
				checkDecoded(t, data, out, "X", map[string]any{keyStatus: "COMPLETE", keyUpdatedAt: stamp})
			}
			out, err = SetScope(data, "X", []string{"x/**", "y"}, now)
			if err != nil {
				t.Logf("SetScope: %v", err)
				if errors.Is(err, errMismatch) {
					t.Errorf("SetScope produced a wrong splice: %v", err)
				}
			} else {
				t.Logf("SetScope:\n%s", out)
			}
		})
	}
}
