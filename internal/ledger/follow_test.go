package ledger

import (
	"os"
	"slices"
	"testing"
)

// TestFollow: a follower reads only what was appended after it started,
// across the sealing of a segment, and a line still being written only
// once it ends.
func TestFollow(t *testing.T) {
	l := newLedger(t)
	mustAppend(t, l, writeRecord("before", "a.go"))
	f := Follow(l.Root)
	if recs, err := f.Next(); err != nil || len(recs) != 0 {
		t.Fatalf("nothing appended: got %d records, %v", len(recs), err)
	}
	mustAppend(t, l, writeRecord("s1", "b.go"), writeRecord("s2", "c.go"))
	recs, err := f.Next()
	if err != nil || len(recs) != 2 || recs[0].Metadata.Intenthook.SessionID != "s1" || recs[1].Metadata.Intenthook.SessionID != "s2" {
		t.Fatalf("got %+v, %v; want the two records appended", recs, err)
	}
	if recs, _ := f.Next(); len(recs) != 0 {
		t.Fatalf("read again: %d records", len(recs))
	}

	// A torn line is held until it ends.
	seg := activeSegment(l.Root)
	path := f.path(seg)
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	line := append(writeRecord("torn", "d.go").MarshalLine(), '\n')
	fh.Write(line[:10])
	if recs, _ := f.Next(); len(recs) != 0 {
		t.Fatalf("a line not ended: %d records", len(recs))
	}
	fh.Write(line[10:])
	fh.Close()
	if recs, _ := f.Next(); len(recs) != 1 || recs[0].Metadata.Intenthook.SessionID != "torn" {
		t.Fatalf("the line once ended: %+v", recs)
	}

	// Sealed: the rest of the old segment, then the new one from its start.
	l.SegmentBytes = 1
	mustAppend(t, l, writeRecord("s3", "e.go"))
	mustAppend(t, l, writeRecord("s4", "f.go"))
	recs, _ = f.Next()
	var sessions []string
	for _, r := range recs {
		sessions = append(sessions, r.Metadata.Intenthook.SessionID)
	}
	if activeSegment(l.Root) == seg || !slices.Contains(sessions, "s3") || sessions[len(sessions)-1] != "s4" {
		t.Fatalf("across a seal: sessions %v (segment %s -> %s)", sessions, seg, activeSegment(l.Root))
	}
}
