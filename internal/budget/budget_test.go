package budget

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/intents"
)

func TestExceededAndNear(t *testing.T) {
	tests := []struct {
		name     string
		b        intents.Budget
		s        Spent
		exceeded Kind
		near     Kind
	}{
		{"no budget", intents.Budget{}, Spent{Calls: 1000}, "", ""},
		{"calls under", intents.Budget{Calls: 10}, Spent{Calls: 7}, "", ""},
		{"calls near", intents.Budget{Calls: 10}, Spent{Calls: 8}, "", Calls},
		{"calls reached", intents.Budget{Calls: 2}, Spent{Calls: 2}, Calls, Calls},
		{"calls raised", intents.Budget{Calls: 2}, Spent{Calls: 2, Raised: intents.Budget{Calls: 3}}, "", ""},
		{"tokens past", intents.Budget{Tokens: 1000, Calls: 50}, Spent{Calls: 3, Tokens: 1500}, Tokens, Tokens},
		{"usd reached", intents.Budget{MicroUSD: 5_000_000}, Spent{MicroUSD: 5_000_000}, USD, USD},
		{"a raise of another kind", intents.Budget{MicroUSD: 1}, Spent{MicroUSD: 1, Raised: intents.Budget{Tokens: 9}}, USD, USD},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, ok := Exceeded(tt.b, tt.s)
			if ok != (tt.exceeded != "") || u.Kind != tt.exceeded {
				t.Errorf("Exceeded = %+v, %v; want %q", u, ok, tt.exceeded)
			}
			n, ok := Near(tt.b, tt.s)
			if ok != (tt.near != "") || n.Kind != tt.near {
				t.Errorf("Near = %+v, %v; want %q", n, ok, tt.near)
			}
		})
	}
}

func TestUseString(t *testing.T) {
	if got := (Use{Calls, 2, 2}).String(); got != "2/2 calls" {
		t.Errorf("calls: %q", got)
	}
	if got := (Use{USD, 1_200_000, 5_000_000}).String(); got != "$1.20/$5.00 usd" {
		t.Errorf("usd: %q", got)
	}
}

// TestAddRead: the counters add up through the log's copy, read from its
// tail; a log changed beside its copy is not what is read; a planted log
// without a copy counts nothing.
func TestAddRead(t *testing.T) {
	root := t.TempDir()
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	for range 100 {
		if _, err := Add(ctx, root, "INT-001", Spent{Calls: 1, Tokens: 10, MicroUSD: 3}, now, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Add(ctx, root, "INT-001", Spent{Raised: intents.Budget{Calls: 5}}, now, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	want := Spent{Calls: 100, Tokens: 1000, MicroUSD: 300, Raised: intents.Budget{Calls: 5}}
	if got != want {
		t.Fatalf("Add = %+v, want %+v", got, want)
	}
	if r, err := Read(root, "INT-001"); err != nil || r != want {
		t.Fatalf("Read = %+v, %v", r, err)
	}
	// A program lowers the log: the copy is what is read.
	log := filepath.Join(root, filepath.FromSlash(Dir), "INT-001.log")
	if err := os.WriteFile(log, []byte("1 0 0 0 0 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, _ := Read(root, "INT-001"); r != want {
		t.Errorf("Read after the log was lowered = %+v", r)
	}
	// A log planted for another intent, without a copy: nothing spent.
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(Dir), "INT-002.log"), []byte("1 9 9 9 9 9 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := Read(root, "INT-002"); err != nil || r != (Spent{}) {
		t.Errorf("Read of a planted log = %+v, %v", r, err)
	}
	// A copy whose last line is not counters cannot be read.
	cp := filepath.Join(guard.MirrorDir(root, Dir), "INT-001.log")
	f, _ := os.OpenFile(cp, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("garbage\n")
	f.Close()
	if _, err := Read(root, "INT-001"); err == nil {
		t.Error("Read of a damaged copy: no error")
	}
}

// TestAddCompacts: however many calls an intent records, its log and the
// guard's copy stay under CompactAt and a line, the same bytes, ending in
// the totals.
func TestAddCompacts(t *testing.T) {
	root := t.TempDir()
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	log := filepath.Join(root, filepath.FromSlash(Dir), "INT-001.log")
	cp := filepath.Join(guard.MirrorDir(root, Dir), "INT-001.log")
	largest := int64(0)
	const calls = 2000
	for range calls {
		if _, err := Add(ctx, root, "INT-001", Spent{Calls: 1, Tokens: 1_000_000, MicroUSD: 12_345}, now, time.Second); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(log)
		if err != nil {
			t.Fatal(err)
		}
		largest = max(largest, st.Size())
	}
	if largest > CompactAt+tail {
		t.Errorf("the log reached %d bytes, past %d", largest, CompactAt+tail)
	}
	a, _ := os.ReadFile(log)
	b, _ := os.ReadFile(cp)
	if string(a) != string(b) {
		t.Errorf("log and copy differ:\n%s\n--\n%s", a, b)
	}
	want := Spent{Calls: calls, Tokens: calls * 1_000_000, MicroUSD: calls * 12_345}
	if r, err := Read(root, "INT-001"); err != nil || r != want {
		t.Errorf("Read = %+v, %v; want %+v", r, err, want)
	}
	for _, d := range []string{filepath.Dir(log), filepath.Dir(cp), filepath.Dir(filepath.Dir(cp)), filepath.Dir(filepath.Dir(log))} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("%s left in %s", e.Name(), d)
			}
		}
	}
}
