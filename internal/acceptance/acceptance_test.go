package acceptance

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/intents"
)

func TestRun(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "marker"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		c       intents.Criterion
		confirm bool
		want    Outcome
		code    int
		output  string
	}{
		{"check passes from root", intents.Criterion{Description: "d", Check: "test -f marker && echo found"}, false, Passed, 0, "found\n"},
		{"check fails", intents.Criterion{Description: "d", Check: "echo broken >&2; exit 3"}, false, Failed, 3, "broken\n"},
		{"check times out", intents.Criterion{Description: "d", Check: "sleep 5"}, false, TimedOut, -1, ""},
		{"string needs confirmation", intents.Criterion{Description: "reviewed"}, false, Manual, 0, ""},
		{"string confirmed", intents.Criterion{Description: "reviewed"}, true, Confirmed, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := Run(context.Background(), root, []intents.Criterion{tt.c}, 300*time.Millisecond, tt.confirm)
			r := rs[0]
			if r.Outcome != tt.want || r.ExitCode != tt.code || r.Output != tt.output {
				t.Fatalf("got %+v", r)
			}
		})
	}
}

func TestAllOKAndTail(t *testing.T) {
	if AllOK([]Result{{Outcome: Passed}, {Outcome: Manual}}) || !AllOK([]Result{{Outcome: Passed}, {Outcome: Confirmed}}) {
		t.Error("AllOK")
	}
	long := strings.Repeat("a", maxOutput) + "END"
	if got := tail([]byte(long)); !strings.HasSuffix(got, "END") || len(got) > maxOutput+len("…") {
		t.Errorf("tail kept %d bytes", len(got))
	}
}
