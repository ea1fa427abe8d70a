package ledger

import (
	"os"
	"testing"
	"time"
)

func TestVerifyFrom(t *testing.T) {
	l := newLedger(t)
	for range 5 {
		mustAppend(t, l, writeRecord("s1", "src/a.go"))
	}
	full := Verify(l.Root)
	if !full.OK() {
		t.Fatalf("full: %+v", full)
	}
	cp := CheckpointOf(full)
	for range 3 {
		mustAppend(t, l, writeRecord("s1", "src/b.go"))
	}
	var seen int
	rep, ok := VerifyFrom(l.Root, cp, func([]byte) { seen++ })
	if !ok || !rep.OK() || seen != 3 || rep.Lines != 8 || rep.Head != Verify(l.Root).Head || rep.Size != int64(len(ledgerBytes(t, l.Root))) {
		t.Fatalf("incremental: ok=%v rep=%+v seen=%d", ok, rep, seen)
	}

	t.Run("a checkpoint line that changed", func(t *testing.T) {
		bad := cp
		bad.Hash = "sha256:" + string(make([]byte, 64))
		if _, ok := VerifyFrom(l.Root, bad, nil); ok {
			t.Error("accepted")
		}
	})
	t.Run("a ledger written after its head", func(t *testing.T) {
		data := ledgerBytes(t, l.Root)
		later := time.Now().Add(time.Minute)
		if err := os.WriteFile(ledgerPath(l.Root), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(ledgerPath(l.Root), later, later); err != nil {
			t.Fatal(err)
		}
		if _, ok := VerifyFrom(l.Root, cp, nil); ok {
			t.Error("accepted a ledger some other writer touched")
		}
	})
}
