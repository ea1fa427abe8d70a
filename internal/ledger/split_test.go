package ledger

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Split moves the legacy file's lines byte for byte into parts under the
// size, and the ledger reads and verifies as before; appends go on.
func TestSplit(t *testing.T) {
	l := newLedger(t)
	for i := range 9 {
		mustAppend(t, l, writeRecord(fmt.Sprint("s", i), "a.go"))
	}
	toLegacy(t, l.Root)
	orig := ledgerBytes(t, l.Root)
	before := mustVerify(t, l.Root)
	parts, err := Split(context.Background(), l.Root, 2500, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) < 3 {
		t.Fatalf("%d parts", len(parts))
	}
	var joined []byte
	for _, p := range parts {
		b, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 2500 || len(b) == 0 || b[len(b)-1] != '\n' {
			t.Errorf("%s: %d bytes", p, len(b))
		}
		joined = append(joined, b...)
	}
	if !bytes.Equal(joined, orig) {
		t.Fatal("the parts are not the legacy file's bytes")
	}
	if _, err := os.Stat(ledgerPath(l.Root)); !os.IsNotExist(err) {
		t.Errorf("the legacy file is still there: %v", err)
	}
	after := mustVerify(t, l.Root)
	if after.Records != before.Records || after.Head != before.Head {
		t.Errorf("verify after split: %+v, before %+v", after, before)
	}
	r := writeRecord("next", "a.go")
	mustAppend(t, l, r)
	if r.Metadata.Intenthook.Seq != 10 {
		t.Errorf("seq after split %d, want 10", r.Metadata.Intenthook.Seq)
	}
	recs, _ := Select(l.Root, Query{})
	if len(recs) != 10 || recs[9].Metadata.Intenthook.SessionID != "next" {
		t.Errorf("select: %d records", len(recs))
	}
	mustVerify(t, l.Root)
}
