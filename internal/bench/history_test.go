package bench

import (
	"context"
	"os/exec"
	"testing"

	"github.com/intenthook/intenthook/internal/audit"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
)

// The generated history is a ledger intenthook accepts: segments of
// SegmentRecords, one more per commit, verified, and audited clean.
func TestHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ws := t.TempDir()
	const records, commits = 2*SegmentRecords + 10, 3
	if err := History(ws, records, commits); err != nil {
		t.Fatal(err)
	}
	rep := ledger.Verify(ws)
	if !rep.OK() || rep.Records != records+commits || len(rep.Segments) != 3+commits {
		t.Fatalf("verify: %d records in %d segments, errors %v", rep.Records, len(rep.Segments), rep.Errors)
	}
	res, err := audit.Run(context.Background(), git.Open(ws), "HEAD~3..HEAD", true)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed() || len(res.Findings) != 0 {
		t.Errorf("audit: %v", res.Findings)
	}
	// The work tree's writer goes on in a segment of its own.
	l := &ledger.Ledger{Root: ws}
	if err := l.Append(context.Background(), &ledger.Record{Files: []ledger.File{}}); err != nil {
		t.Fatal(err)
	}
	if rep := ledger.Verify(ws); !rep.OK() || rep.Records != records+commits+1 {
		t.Errorf("after an append: %d records, errors %v", rep.Records, rep.Errors)
	}
}
