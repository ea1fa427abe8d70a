package ledger

import (
	"os"
	"path/filepath"
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
	got := CheckpointOf(rep)
	if !ok || !rep.OK() || seen != 3 || rep.Lines != 8 || rep.Head != Verify(l.Root).Head || len(got.Segments) != 1 || got.Segments[0].Size != int64(len(ledgerBytes(t, l.Root))) {
		t.Fatalf("incremental: ok=%v rep=%+v seen=%d", ok, rep, seen)
	}
	if rep.Digest != Verify(l.Root).Digest {
		t.Errorf("digest %s, want the full verify's", rep.Digest)
	}

	t.Run("a checkpoint line that changed", func(t *testing.T) {
		bad := cp
		bad.Segments = []SegmentCheckpoint{cp.Segments[0]}
		bad.Segments[0].Hash = "sha256:" + string(make([]byte, 64))
		if _, ok := VerifyFrom(l.Root, bad, nil); ok {
			t.Error("accepted")
		}
	})
	t.Run("a verified segment gone", func(t *testing.T) {
		path := filepath.Join(l.Root, filepath.FromSlash(cp.Segments[0].File))
		data, _ := os.ReadFile(path)
		os.Remove(path)
		defer os.WriteFile(path, data, 0o644)
		if _, ok := VerifyFrom(l.Root, cp, nil); ok {
			t.Error("accepted a ledger without a segment it verified")
		}
	})
}

func TestVerifyFromLegacy(t *testing.T) {
	l := newLedger(t)
	for range 5 {
		mustAppend(t, l, writeRecord("s1", "src/a.go"))
	}
	toLegacy(t, l.Root)
	full := Verify(l.Root)
	cp := CheckpointOf(full)
	if !full.OK() || cp.Size != int64(len(ledgerBytes(t, l.Root))) || len(cp.Segments) != 0 {
		t.Fatalf("full: %+v, checkpoint %+v", full, cp)
	}
	for range 3 {
		mustAppend(t, l, writeRecord("s1", "src/b.go"))
	}
	rep, ok := VerifyFrom(l.Root, cp, nil)
	if !ok || !rep.OK() || rep.Records != 8 || rep.Head != Verify(l.Root).Head {
		t.Fatalf("incremental: ok=%v rep=%+v", ok, rep)
	}
	t.Run("a legacy file written after its head", func(t *testing.T) {
		data, _ := os.ReadFile(ledgerPath(l.Root))
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
