package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/e2e/harness"
	"github.com/intenthook/intenthook/internal/e2e/mockmodel"
)

// TestPlans: every plan runs under clients the harness knows, and every
// known client has rows.
func TestPlans(t *testing.T) {
	for _, p := range plans() {
		for _, a := range p.agents {
			if _, ok := harness.Lookup(a); !ok {
				t.Errorf("plan %s names unknown client %s", p.name, a)
			}
		}
	}
	for _, c := range harness.Clients() {
		if len(plansFor(c.Name)) == 0 {
			t.Errorf("client %s has no plan", c.Name)
		}
	}
}

func TestWriteKeepingTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "src", "a.txt")
	if err := writeKeepingTime(path, "one\n"); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if err := writeKeepingTime(path, "two\n"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	st, _ := os.Stat(path)
	if string(b) != "two\n" || !st.ModTime().Equal(old) {
		t.Errorf("content %q, mtime %v; want two and %v", b, st.ModTime(), old)
	}
}

func TestDenials(t *testing.T) {
	tests := []struct {
		name   string
		bodies []string
		want   string
	}{
		{"none", []string{"{}"}, "model saw denials: "},
		{"in order of the list, once each", []string{`deny [scope_violation] x`, `deny [intent_required] y deny [scope_violation]`},
			"model saw denials: intent_required, scope_violation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var reqs []mockmodel.Request
			for _, b := range tt.bodies {
				reqs = append(reqs, mockmodel.Request{Body: b})
			}
			if got := denials(reqs); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
