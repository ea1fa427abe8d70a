package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestHoldsReport: a held number exceeded fails the run on a quiet
// machine only; a busy one, or one whose load cannot be read, says the
// figures are no verdict; the report names each check and the load.
func TestHoldsReport(t *testing.T) {
	met := check{"Write pre / the floor", 1.42, heldPre, 0}
	over := check{"Write post / the floor", 1.80, heldPost, 0}
	tests := []struct {
		name          string
		checks        []check
		before, after float64
		fail          bool
		says          string
	}{
		{"all met", []check{met}, 0.1, 1.1, false, "every held number met"},
		{"exceeded, quiet", []check{met, over}, 0.2, 1.2, true, "1 held number(s) exceeded on a quiet machine"},
		{"exceeded, busy at the start", []check{over}, 1.5, 1.2, false, "exceeded on a busy machine"},
		{"exceeded, busy at the end", []check{over}, 0.2, 2.5, false, "exceeded on a busy machine"},
		{"exceeded, load unknown", []check{over}, -1, -1, false, "exceeded on a busy machine"},
		{"nothing held", nil, 0, 0, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := holds{checks: tt.checks}
			var b bytes.Buffer
			if got := h.report(&b, tt.before, tt.after, 1); got != tt.fail {
				t.Errorf("fail = %v, want %v\n%s", got, tt.fail, b.String())
			}
			if !strings.Contains(b.String(), tt.says) {
				t.Errorf("report does not say %q:\n%s", tt.says, b.String())
			}
			for _, c := range tt.checks {
				if !strings.Contains(b.String(), c.name) {
					t.Errorf("report does not name %q:\n%s", c.name, b.String())
				}
			}
			if tt.checks != nil && !strings.Contains(b.String(), "load average") {
				t.Errorf("report does not give the load:\n%s", b.String())
			}
		})
	}
}

// TestTargetsReport: the performance issue's targets are printed beside the
// held numbers, met or missed, and a missed one never fails a run, not
// even on a quiet machine; a ratio with a target and no held number is
// never exceeded.
func TestTargetsReport(t *testing.T) {
	tests := []struct {
		name   string
		checks []check
		says   []string
		not    []string
	}{
		{"all met", []check{
			{"Write pre / the floor", 1.21, heldPre, targetPre},
			{"pre of intenthook select / the floor", 1.45, 0, targetSelect},
		}, []string{"target 1.25x  met", "target 1.50x  met", "every target met (2)", "every held number met"}, []string{"missed", "held 0.00x"}},
		{"one missed", []check{
			{"Write pre / the floor", 1.21, heldPre, targetPre},
			{"pre of intenthook select / the floor", 1.52, 0, targetSelect},
		}, []string{"target 1.50x  missed", "1 of 2 targets missed", "every held number met"}, []string{"EXCEEDED", "every target met"}},
		{"no targets", []check{
			{"post, 100 MB transcript / the floor", 1.40, heldPost, 0},
		}, []string{"every held number met"}, []string{"target 1", "every target met", "targets missed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := holds{checks: tt.checks}
			var b bytes.Buffer
			if h.report(&b, 0.1, 1.1, 1) {
				t.Errorf("the run fails:\n%s", b.String())
			}
			for _, s := range tt.says {
				if !strings.Contains(b.String(), s) {
					t.Errorf("report does not say %q:\n%s", s, b.String())
				}
			}
			for _, s := range tt.not {
				if strings.Contains(b.String(), s) {
					t.Errorf("report says %q:\n%s", s, b.String())
				}
			}
		})
	}
}
