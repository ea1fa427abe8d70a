//go:build !noyaml

package intents

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestServeParse: a catalog parsed for the hook binary (ServeParse, read
// back by fromCacheBytes) is the catalog parsed here: every intent and
// every problem, for each catalog of the testscripts and the tests here.
func TestServeParse(t *testing.T) {
	catalogs := []string{good, "active_intents: []\n", "active_intents:\n  - id: bad\n  - id: INT-001\n  - id: INT-001\n", "nope: 1\n", ""}
	// Hostile ids: the index of the cache names each id quoted, and the
	// hook binary must read back every one the full binary wrote.
	for _, id := range []string{`"INT 003"`, `"INT 0 0 3"`, `" "`, `""`, `"INT\"004"`, `"INT\\005"`, `"INT\t006"`, `"INT\n007"`, `"INT-008 12 34"`, `"é 9"`, `"\u00a0"`, `"INT-010\r"`, `'x y'`, `[1, 2]`, `{a: b}`, `~`, `12 34`} {
		catalogs = append(catalogs, "active_intents:\n  - id: INT-001\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n  - id: "+id+"\n    status: IN_PROGRESS\n    owned_scope: [\"**\"]\n  - id: INT-002\n    status: IN_PROGRESS\n    owned_scope: [\"docs/**\"]\n")
	}
	files, _ := filepath.Glob("../../testdata/script/*.txtar")
	for _, name := range files {
		a, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, "active_intents.yaml") {
				catalogs = append(catalogs, string(f.Data))
			}
		}
	}
	compared := 0
	for _, text := range catalogs {
		data := []byte(text)
		want, wantErr := Parse(data)
		out, err := ServeParse(data)
		if wantErr != nil {
			if err == nil || err.Error() != wantErr.Error() || !errors.Is(err, ErrNotYAML) {
				t.Errorf("ServeParse(%q) = %v, want %v", text, err, wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("ServeParse(%q): %v", text, err)
		}
		got, err := fromCacheBytes(out, digestOf(data))
		if err != nil {
			t.Fatalf("fromCacheBytes(%q): %v", text, err)
		}
		// As a cache hit reads it: the intents' fields and the problems.
		// (An empty catalog's list is nil from a parse, empty from a cache.)
		if g, w := jsonOf(t, got.All()), jsonOf(t, want.All()); g != w && len(got.All())+len(want.All()) > 0 || !reflect.DeepEqual(got.Problems, want.Problems) {
			t.Errorf("catalog %q:\n got %s %v\nwant %s %v", text, g, got.Problems, w, want.Problems)
		}
		for _, in := range want.All() {
			if in.ID != "" && jsonOf(t, got.Find(in.ID)) != jsonOf(t, want.Find(in.ID)) {
				t.Errorf("Find(%q) differs", in.ID)
			}
			// A spec's URL is not in the JSON.
			if in.ID != "" && !reflect.DeepEqual(got.Find(in.ID).RelatedSpecs, in.RelatedSpecs) {
				t.Errorf("%s: related specs %+v, want %+v", in.ID, got.Find(in.ID).RelatedSpecs, in.RelatedSpecs)
			}
		}
		compared++
	}
	if compared < 50 {
		t.Errorf("only %d catalogs compared", compared)
	}
	if _, err := fromCacheBytes([]byte("not a cache"), "k"); err == nil {
		t.Error("fromCacheBytes of garbage: no error")
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSpecURL(t *testing.T) {
	tests := []struct{ ref, want string }{
		{".specify/specs/hook.md", "spec:.specify/specs/hook.md"},
		{"docs/my spec.md", "spec:docs/my%20spec.md"},
		{"docs/a?b;c.md", "spec:docs/a%3Fb%3Bc.md"},
		{"https://example.com/spec#a", "https://example.com/spec#a"},
		{"c:/x.md", "spec:c:/x.md"}, // a one-letter scheme is a drive
	}
	for _, tt := range tests {
		if got := SpecURL(tt.ref); got != tt.want {
			t.Errorf("SpecURL(%q) = %q, want %q", tt.ref, got, tt.want)
		}
	}
	c, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Find("INT-001").RelatedSpecs[0].URL; got != "spec:.specify/specs/hooks.md" {
		t.Errorf("parsed spec URL = %q", got)
	}
}
