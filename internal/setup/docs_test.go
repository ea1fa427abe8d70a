package setup

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/intents"
)

// TestCatalogSamplesComplete keeps the catalog people are shown in step
// with what the parser reads: the sample in docs/workspace.md names every
// field of an intent and every status, and the example init writes names
// every status and every field intenthook itself changes.
func TestCatalogSamplesComplete(t *testing.T) {
	data, err := os.ReadFile("../../docs/workspace.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)### The intent catalog\n\n```yaml\n(.*?)```").FindSubmatch(data)
	if m == nil {
		t.Fatal("docs/workspace.md: no yaml block under ### The intent catalog")
	}
	sample := string(m[1])
	typ := reflect.TypeFor[intents.Intent]()
	for i := range typ.NumField() {
		key, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if key == "" || key == "-" || key == "line" || key == "problems" {
			continue // not a catalog key
		}
		if !regexp.MustCompile(`(?m)^\s+(- )?` + key + `:`).MatchString(sample) {
			t.Errorf("docs/workspace.md's catalog sample lacks %s:", key)
		}
	}
	example := string(ExampleCatalog(time.Now()))
	for _, st := range []intents.Status{intents.Pending, intents.InProgress, intents.InReview, intents.Complete, intents.Blocked, intents.Archived} {
		if !strings.Contains(sample, string(st)) {
			t.Errorf("docs/workspace.md's catalog sample does not name status %s", st)
		}
		if !strings.Contains(example, string(st)) {
			t.Errorf("init's example catalog does not name status %s", st)
		}
	}
	for _, changed := range []string{"status", "updated_at", "completed_at", "version", "owned_scope"} {
		if !strings.Contains(example[:strings.Index(example, "active_intents:")], changed) {
			t.Errorf("init's example catalog's header does not say intenthook changes %s", changed)
		}
	}
}
