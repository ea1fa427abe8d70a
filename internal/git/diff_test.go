package git

import "testing"

func TestFirstRemoved(t *testing.T) {
	tests := []struct {
		name, diff string
		line       int
		removed    bool
	}{
		{"no change", "", 0, false},
		{"appended at the end", "diff --git a/l b/l\n--- a/l\n+++ b/l\n@@ -3,0 +4,2 @@\n+{\"a\":1}\n+{\"b\":2}\n", 0, false},
		{"interleaved by a union merge", "--- a/l\n+++ b/l\n@@ -1,0 +2 @@\n+x\n@@ -2,0 +4 @@\n+y\n", 0, false},
		{"a line rewritten", "--- a/l\n+++ b/l\n@@ -2 +2 @@\n-{\"seq\":2}\n+{\"seq\":9}\n", 2, true},
		{"the tail removed", "--- a/l\n+++ b/l\n@@ -7,3 +6,0 @@\n-a\n-b\n-c\n", 7, true},
		{"added text like a header", "--- a/l\n+++ b/l\n@@ -1,0 +2 @@\n+--- x\n", 0, false},
		{"removed text like a header", "--- a/l\n+++ b/l\n@@ -4 +3,0 @@\n--- x\n", 4, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, removed := FirstRemoved([]byte(tt.diff))
			if line != tt.line || removed != tt.removed {
				t.Errorf("got %d, %v; want %d, %v", line, removed, tt.line, tt.removed)
			}
		})
	}
}
