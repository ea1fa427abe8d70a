package linediff

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name    string
		a, b    string
		context int
		want    []string
	}{
		{name: "equal", a: "x\ny\n", b: "x\ny\n", context: 3},
		{name: "both empty", context: 3},
		{name: "one line changed", a: "a\nb\nc\n", b: "a\nB\nc\n", context: 3,
			want: []string{"@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"}},
		{name: "no context", a: "a\nb\nc\n", b: "a\nB\nc\n", context: 0,
			want: []string{"@@ -2 +2 @@", "-b", "+B"}},
		{name: "line added at the start", a: "b\nc\n", b: "a\nb\nc\n", context: 1,
			want: []string{"@@ -1 +1,2 @@", "+a", " b"}},
		{name: "line removed at the end", a: "a\nb\nc\n", b: "a\nb\n", context: 1,
			want: []string{"@@ -2,2 +2 @@", " b", "-c"}},
		{name: "from nothing", a: "", b: "a\nb\n", context: 3,
			want: []string{"@@ -0,0 +1,2 @@", "+a", "+b"}},
		{name: "to nothing", a: "a\n", b: "", context: 3,
			want: []string{"@@ -1 +0,0 @@", "-a"}},
		{name: "newline added at the end", a: "a\nb", b: "a\nb\n", context: 3,
			want: []string{"@@ -1,2 +1,2 @@", " a", "-b", NoNewline, "+b"}},
		{name: "last line without newline changed", a: "a\nb", b: "a\nc", context: 3,
			want: []string{"@@ -1,2 +1,2 @@", " a", "-b", NoNewline, "+c", NoNewline}},
		{name: "close changes share a hunk", a: "1\n2\n3\n4\n5\n", b: "1\nX\n3\n4\nY\n", context: 1,
			want: []string{"@@ -1,5 +1,5 @@", " 1", "-2", "+X", " 3", " 4", "-5", "+Y"}},
		{name: "far changes get two hunks", a: "1\n2\n3\n4\n5\n6\n7\n", b: "X\n2\n3\n4\n5\n6\nY\n", context: 1,
			want: []string{"@@ -1,2 +1,2 @@", "-1", "+X", " 2", "@@ -6,2 +6,2 @@", " 6", "-7", "+Y"}},
		{name: "a shortest edit, not a replacement", a: "a\nb\nc\nd\n", b: "b\nc\nd\ne\n", context: 0,
			want: []string{"@@ -1 +0,0 @@", "-a", "@@ -4,0 +4 @@", "+e"}},
		{name: "carriage returns are the line's", a: "a\r\nb\n", b: "a\nb\n", context: 0,
			want: []string{"@@ -1 +1 @@", "-a\r", "+a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Unified(tt.a, tt.b, tt.context)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("Unified(%q, %q, %d):\n%s\nwant:\n%s", tt.a, tt.b, tt.context, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestUnifiedPastMaxEdits: texts further apart than MaxEdits get their
// middle replaced whole, still a diff that turns a into b.
func TestUnifiedPastMaxEdits(t *testing.T) {
	var a, b strings.Builder
	a.WriteString("head\n")
	b.WriteString("head\n")
	for i := range MaxEdits {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	a.WriteString("tail\n")
	b.WriteString("tail\n")
	got := Unified(a.String(), b.String(), 1)
	want := fmt.Sprintf("@@ -1,%d +1,%d @@", MaxEdits+2, MaxEdits+2)
	if got[0] != want || got[1] != " head" || got[2] != "-a0" || got[MaxEdits+2] != "+b0" || got[len(got)-1] != " tail" {
		t.Fatalf("head %q, lines %q … %q", got[0], got[1:3], got[len(got)-1])
	}
	if out, err := apply(a.String(), got); err != nil || out != b.String() {
		t.Fatalf("the diff does not turn a into b: %v", err)
	}
}

// TestUnifiedApplies: for random texts, the diff turns a into b with as
// few inserted and deleted lines as a longest common subsequence allows.
func TestUnifiedApplies(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(strconv.Itoa(r.IntN(4)))
			b.WriteByte('\n')
		}
		if r.IntN(4) == 0 {
			b.WriteString("end")
		}
		return b.String()
	}
	for i := range 2000 {
		a, b := text(), text()
		for _, context := range []int{0, 1, 3} {
			d := Unified(a, b, context)
			out, err := apply(a, d)
			if err != nil || out != b {
				t.Fatalf("case %d context %d: %q to %q: got %q, %v\n%s", i, context, a, b, out, err, strings.Join(d, "\n"))
			}
			changed := 0
			for _, l := range d {
				if l[0] == '+' || l[0] == '-' {
					changed++
				}
			}
			if want := len(split(a)) + len(split(b)) - 2*lcs(split(a), split(b)); changed != want {
				t.Fatalf("case %d: %q to %q: %d lines changed, a shortest edit changes %d", i, a, b, changed, want)
			}
		}
	}
}

// apply applies a unified diff's hunks to a, checking its context lines and
// counts as patch would.
func apply(a string, diff []string) (string, error) {
	src := split(a)
	var out []string
	pos := 0 // next line of src to copy
	for i := 0; i < len(diff); {
		la, na, _, nb := header(diff[i])
		i++
		first := la - 1
		if na == 0 {
			first = la
		}
		if first < pos {
			return "", fmt.Errorf("hunk %q overlaps", diff[i-1])
		}
		out = append(out, src[pos:first]...)
		pos = first
		seenA, seenB := 0, 0
		for i < len(diff) && !strings.HasPrefix(diff[i], "@@") {
			l := diff[i]
			i++
			nl := "\n"
			if i < len(diff) && diff[i] == NoNewline {
				nl = ""
				i++
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(src) || src[pos] != l[1:]+nl {
					return "", fmt.Errorf("line %q does not match %q", l, src[min(pos, len(src)-1)])
				}
				if l[0] == ' ' {
					out = append(out, src[pos])
					seenB++
				}
				pos++
				seenA++
			case '+':
				out = append(out, l[1:]+nl)
				seenB++
			default:
				return "", fmt.Errorf("bad line %q", l)
			}
		}
		if seenA != na || seenB != nb {
			return "", fmt.Errorf("hunk counts %d,%d; lines %d,%d", na, nb, seenA, seenB)
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, ""), nil
}

// header reads "@@ -l[,n] +l[,n] @@", where a count left out is 1.
func header(h string) (la, na, lb, nb int) {
	f := strings.Fields(h)
	side := func(s string) (int, int) {
		l, n, ok := strings.Cut(s[1:], ",")
		first, _ := strconv.Atoi(l)
		if !ok {
			return first, 1
		}
		count, _ := strconv.Atoi(n)
		return first, count
	}
	la, na = side(f[1])
	lb, nb = side(f[2])
	return
}

// lcs is the length of a longest common subsequence of a and b.
func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	for i := range a {
		cur := make([]int, len(b)+1)
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev = cur
	}
	return prev[len(b)]
}
