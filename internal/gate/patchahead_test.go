package gate

import (
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/digest"
)

// TestPatchAhead: a file that still holds what pre saw gets the content its
// section of the patch gives it; a move's destination, a file the patch
// does not name and text that is no patch leave the record to the disk,
// and a hunk that is not in the file says why.
func TestPatchAhead(t *testing.T) {
	relOf := func(p string) string { return strings.TrimPrefix(p, "/w/") }
	old := []byte("a\nb\n")
	tests := []struct {
		name, rel, text string
		ok, err         bool
		post            string
	}{
		{"an update", "src/a.go", "*** Begin Patch\n*** Update File: /w/src/a.go\n@@\n-b\n+B\n*** End Patch", true, false, digest.String("a\nB\n")},
		{"a deletion", "src/a.go", "*** Begin Patch\n*** Delete File: /w/src/a.go\n*** End Patch", true, false, ""},
		{"an addition", "src/n.go", "*** Begin Patch\n*** Add File: src/n.go\n+n\n*** End Patch", true, false, digest.String("n\n")},
		{"a move's destination", "src/b.go", "*** Begin Patch\n*** Update File: /w/src/a.go\n*** Move to: /w/src/b.go\n@@\n-b\n+B\n*** End Patch", false, false, "keep"},
		{"another file", "src/c.go", "*** Begin Patch\n*** Update File: /w/src/a.go\n@@\n-b\n+B\n*** End Patch", false, false, "keep"},
		{"no patch", "src/a.go", "just text", false, false, "keep"},
		{"a hunk not in the file", "src/a.go", "*** Begin Patch\n*** Update File: /w/src/a.go\n@@\n-zzz\n+B\n*** End Patch", false, true, "keep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := change{rel: tt.rel, post: "keep"}
			ok, err := patchAhead(&c, tt.text, old, relOf)
			if ok != tt.ok || (err != nil) != tt.err || c.post != tt.post {
				t.Errorf("ok=%v err=%v post=%q, want ok=%v err=%v post=%q", ok, err, c.post, tt.ok, tt.err, tt.post)
			}
		})
	}
}
