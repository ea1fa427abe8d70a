package precommit

import (
	"fmt"
	"testing"
)

// A segment that passed is remembered with its path and both blobs: only
// the same three pass again without a read.
func TestSegmentPairs(t *testing.T) {
	root := t.TempDir()
	const seg = ".orchestration/ledger/0123456789abcdef/2026-11/000001.jsonl"
	const other = ".orchestration/ledger/0123456789abcdef/2026-11/000002.jsonl"
	loadSegmentPairs(root).remember(root, []string{seg}, []string{"h1", "s1"})
	c := loadSegmentPairs(root)
	for _, tt := range []struct {
		name      string
		rels, ids []string
		want      bool
	}{
		{"the same path and blobs", []string{seg}, []string{"h1", "s1"}, true},
		{"another staged blob", []string{seg}, []string{"h1", "s2"}, false},
		{"another HEAD blob", []string{seg}, []string{"h2", "s1"}, false},
		{"the same blobs at another path", []string{other}, []string{"h1", "s1"}, false},
		{"one of two known", []string{seg, other}, []string{"h1", "s1", "", "s3"}, false},
		{"deleted (no staged blob)", []string{seg}, []string{"h1", ""}, false},
		{"nothing staged", nil, nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.passed(tt.rels, tt.ids); got != tt.want {
				t.Errorf("passed = %v, want %v", got, tt.want)
			}
		})
	}
	// A deleted segment is never remembered; the cache keeps the newest.
	c.remember(root, []string{other}, []string{"h9", ""})
	for i := range keepPairs {
		c.remember(root, []string{seg}, []string{"h", fmt.Sprint(i)})
	}
	c = loadSegmentPairs(root)
	if len(c.Passed) != keepPairs || c.passed([]string{seg}, []string{"h1", "s1"}) || !c.passed([]string{seg}, []string{"h", fmt.Sprint(keepPairs - 1)}) {
		t.Errorf("after %d more: %d kept, oldest still known: %v", keepPairs, len(c.Passed), c.passed([]string{seg}, []string{"h1", "s1"}))
	}
}
