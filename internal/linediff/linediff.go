// Package linediff writes the unified diff of two texts, line by line: the
// hunks `diff -u` would print, without its two file header lines. It finds
// a shortest edit with Myers' algorithm up to a bounded number of edits;
// past that bound the part between the common start and end is shown
// replaced whole, so that the cost stays bounded by the texts' length. It
// does not read files, tell binary from text, cap or escape its output:
// its callers decide what is shown and how.
package linediff

import (
	"fmt"
	"slices"
	"strings"
)

// MaxEdits bounds the search for a shortest edit: texts that differ by more
// inserted and deleted lines than this get one replaced block between
// their common start and end.
const MaxEdits = 256

// NoNewline follows a line that ends its text without a newline.
const NoNewline = `\ No newline at end of file`

// kind is what one line of the edit does.
type kind byte

const (
	same kind = ' '
	del  kind = '-'
	ins  kind = '+'
)

// edit is one line of the edit script: from a (same, del) or b (ins).
type edit struct {
	kind kind
	line string // with its newline, if it has one
}

// Unified returns the lines of the unified diff from a to b (without line
// breaks), with context unchanged lines around each change: hunk headers
// ("@@ -1,3 +1,4 @@"), then lines marked ' ', '-' or '+', and NoNewline
// after a last line that has no newline. Equal texts give none.
func Unified(a, b string, context int) []string {
	if a == b {
		return nil
	}
	return hunks(script(split(a), split(b)), max(context, 0))
}

// split cuts s into lines, each with its newline; the last has none when s
// does not end in one.
func split(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// script is an edit from a to b: the common start and end as they are, and
// between them a shortest edit, or a replacement when none is found within
// MaxEdits.
func script(a, b []string) []edit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	out := make([]edit, 0, len(a)+len(b)-pre-suf)
	for _, l := range a[:pre] {
		out = append(out, edit{same, l})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if mid, ok := shortest(ma, mb, MaxEdits); ok {
		out = append(out, mid...)
	} else {
		for _, l := range ma {
			out = append(out, edit{del, l})
		}
		for _, l := range mb {
			out = append(out, edit{ins, l})
		}
	}
	for _, l := range a[len(a)-suf:] {
		out = append(out, edit{same, l})
	}
	return out
}

// shortest is Myers' greedy search for an edit from a to b of at most
// limit inserted and deleted lines; ok is false when there is none. v[k]
// is the furthest x reached on diagonal k = x-y; trace keeps v after each
// round, for the way back.
func shortest(a, b []string, limit int) ([]edit, bool) {
	n, m := len(a), len(b)
	limit = min(limit, n+m)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int
	for d := 0; d <= limit; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // down: a line of b inserted
			} else {
				x = v[off+k-1] + 1 // right: a line of a deleted
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return back(a, b, trace, d, k, off), true
			}
		}
		trace = append(trace, slices.Clone(v))
	}
	return nil, false
}

// back walks from the end (on diagonal k after round d) to the start and
// returns the edit in order.
func back(a, b []string, trace [][]int, d, k, off int) []edit {
	x, y := len(a), len(b)
	var rev []edit
	for ; d > 0; d-- {
		v := trace[d-1]
		var pk int
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[off+pk]
		py := px - pk
		// From (px, py) one step (down or right), then the snake to (x, y).
		sx, sy := px, py+1
		if pk == k-1 {
			sx, sy = px+1, py
		}
		for x > sx && y > sy {
			x, y = x-1, y-1
			rev = append(rev, edit{same, a[x]})
		}
		if pk == k-1 {
			rev = append(rev, edit{del, a[px]})
		} else {
			rev = append(rev, edit{ins, b[py]})
		}
		x, y, k = px, py, pk
	}
	for x > 0 {
		x--
		rev = append(rev, edit{same, a[x]})
	}
	slices.Reverse(rev)
	return rev
}

// hunks groups the edit's changes with context lines around them; changes
// closer than two contexts share a hunk.
func hunks(es []edit, context int) []string {
	var out []string
	for i := 0; i < len(es); {
		if es[i].kind == same {
			i++
			continue
		}
		start := max(0, i-context)
		end := i // one past the last change of the hunk
		for j := i; j < len(es); j++ {
			if es[j].kind == same {
				continue
			}
			if j-end > 2*context {
				break
			}
			end = j + 1
		}
		stop := min(len(es), end+context)
		out = append(out, hunk(es, start, stop)...)
		i = stop
	}
	return out
}

// hunk writes es[start:stop] as one hunk.
func hunk(es []edit, start, stop int) []string {
	// Line numbers before the hunk, on each side.
	la, lb := 0, 0
	for _, e := range es[:start] {
		if e.kind != ins {
			la++
		}
		if e.kind != del {
			lb++
		}
	}
	na, nb := 0, 0
	lines := make([]string, 0, stop-start+1)
	for _, e := range es[start:stop] {
		if e.kind != ins {
			na++
		}
		if e.kind != del {
			nb++
		}
		text, nl := strings.CutSuffix(e.line, "\n")
		lines = append(lines, string(e.kind)+text)
		if !nl {
			lines = append(lines, NoNewline)
		}
	}
	head := fmt.Sprintf("@@ -%s +%s @@", span(la, na), span(lb, nb))
	return append([]string{head}, lines...)
}

// span is one side of a hunk header: the first line and the count, the
// count left out when it is 1; an empty side names the line before it.
func span(before, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprintf("%d", before+1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}
