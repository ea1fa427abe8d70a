package scopereq

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStore(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	s := Store{Root: t.TempDir(), Timeout: time.Second}
	adds := []struct {
		name    string
		req     Request
		wantN   int
		wantErr string
	}{
		{"first", Request{IntentID: "INT-001", Add: []string{"lib/**"}, Reason: "needs lib"}, 1, ""},
		{"no change", Request{IntentID: "INT-001", Reason: "x"}, 0, "add or remove"},
		{"no reason", Request{IntentID: "INT-001", Add: []string{"a"}}, 0, "needs a reason"},
		{"second, numbered on", Request{IntentID: "INT-002", Remove: []string{"src/**"}, Reason: "narrow"}, 2, ""},
		{"escape in the reason", Request{IntentID: "INT-001", Add: []string{"a"}, Reason: "\x1b[2K\r  1 INT-001 +src/x"}, 0, "control character"},
		{"bell in the reason", Request{IntentID: "INT-001", Add: []string{"a"}, Reason: "ok\a"}, 0, "control character"},
		{"escape in an added pattern", Request{IntentID: "INT-001", Add: []string{"a\x1b[2K"}, Reason: "x"}, 0, "control character"},
		{"line break in an added pattern", Request{IntentID: "INT-001", Add: []string{"a/**\n  9 INT-001 +b/**"}, Reason: "x"}, 0, "line break"},
		{"control in a removed pattern", Request{IntentID: "INT-001", Remove: []string{"src/**\a"}, Reason: "x"}, 0, "control character"},
		{"bidi override in a pattern", Request{IntentID: "INT-001", Add: []string{"lib/\u202e**"}, Reason: "x"}, 0, "control character"},
		{"reason on lines, folded", Request{IntentID: "INT-001", Add: []string{"docs/**"}, Reason: "two\nlines\r\nthree"}, 3, ""},
	}
	for _, tc := range adds {
		t.Run(tc.name, func(t *testing.T) {
			r, err := s.Add(ctx, tc.req, now)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || r.N != tc.wantN {
				t.Fatalf("got %d, %v; want %d", r.N, err, tc.wantN)
			}
		})
	}
	if got, _ := s.List("INT-001"); len(got) != 2 || got[1].Reason != "two lines three" {
		t.Errorf("List(INT-001) = %+v: the reason's line breaks must be spaces", got)
	}
	if got, _ := s.List("INT-002"); len(got) != 1 || got[0].N != 2 {
		t.Errorf("List(INT-002) = %+v", got)
	}
	takes := []struct {
		name, intent string
		n            int
		wantErr      string
	}{
		{"wrong intent", "INT-002", 1, "is for INT-001"},
		{"unknown", "INT-001", 9, "no pending scope request 9"},
		{"taken", "INT-001", 1, ""},
		{"taken twice", "INT-001", 1, "no pending scope request 1"},
	}
	for _, tc := range takes {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Take(ctx, tc.intent, tc.n, func(Request) error { return nil })
			if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}
	// A number is never reused after a take.
	if r, _ := s.Add(ctx, Request{IntentID: "INT-001", Add: []string{"x"}, Reason: "r"}, now); r.N != 4 {
		t.Errorf("next number %d, want 4", r.N)
	}
}

// TestWorkTreesShareRequests: in a git repository the requests are one
// file under the common git directory, so a request filed in a linked work
// tree is listed and decided from the main one.
func TestWorkTreesShareRequests(t *testing.T) {
	main := t.TempDir()
	wt := filepath.Join(t.TempDir(), "wt2")
	for _, args := range [][]string{
		{"-C", main, "init", "-q"},
		{"-C", main, "-c", "user.email=p@example.com", "-c", "user.name=P", "commit", "-q", "--allow-empty", "-m", "base"},
		{"-C", main, "worktree", "add", "-q", "-b", "feat", wt},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ctx, now := context.Background(), time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	r, err := For(wt, time.Second).Add(ctx, Request{IntentID: "INT-001", Add: []string{"lib/**"}, Reason: "the client"}, now)
	if err != nil {
		t.Fatal(err)
	}
	there := For(main, time.Second)
	if got, err := there.List(""); err != nil || len(got) != 1 || got[0].N != r.N {
		t.Fatalf("the main work tree lists %+v, %v; want request %d", got, err, r.N)
	}
	if err := there.Take(ctx, "INT-001", r.N, func(Request) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if got, _ := For(wt, time.Second).List(""); len(got) != 0 {
		t.Errorf("still pending in the linked work tree: %+v", got)
	}
	if _, err := os.Stat(filepath.Join(main, ".git", filepath.FromSlash(CommonFile))); err != nil {
		t.Errorf("the requests are not under the common git directory: %v", err)
	}
}
