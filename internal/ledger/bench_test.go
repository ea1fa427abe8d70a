package ledger

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/intenthook/intenthook/internal/digest"
)

// BenchmarkAppend appends one record per call, as a hook does, to an empty
// ledger and to one of a million records: the cost must not grow with the
// ledger, since only its tail is read.
func BenchmarkAppend(b *testing.B) {
	// Sub-benchmarks run their function several times; the big ledger is
	// built once per run of this benchmark, and only grows by what is
	// appended. Its directory belongs to the parent, which outlives them.
	big, built := b.TempDir(), false
	const bigN = 1_000_000

	for _, bm := range []struct {
		name string
		root func(b *testing.B) string
	}{
		{"empty", func(b *testing.B) string { return b.TempDir() }},
		{"1M", func(b *testing.B) string {
			if !built {
				buildLedger(b, big, bigN)
				built = true
			}
			return big
		}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			l := &Ledger{Root: bm.root(b), ToolVersion: "bench"}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if err := l.Append(ctx, writeRecord("bench", "src/a.go")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The appends went to the end of the big ledger's chain.
	if h, err := ReadHead(big); built && (err != nil || h.Seq <= bigN) {
		b.Fatalf("big ledger head %+v, %v", h, err)
	}
}

// buildLedger writes n chained records straight to the file: one record
// encoded once, its seq and prev spliced in per line.
func buildLedger(b testing.TB, root string, n int) {
	b.Helper()
	tmpl := writeRecord("built", "src/a.go").MarshalLine()
	const hole = `"seq":0,"prev":null`
	before, after, ok := bytes.Cut(tmpl, []byte(hole))
	if !ok {
		b.Fatalf("template has no %s: %s", hole, tmpl)
	}
	path := ledgerPath(root)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	line := make([]byte, 0, len(tmpl)+100)
	prev := ""
	for seq := 1; seq <= n; seq++ {
		line = append(line[:0], before...)
		line = append(line, `"seq":`...)
		line = strconv.AppendInt(line, int64(seq), 10)
		if prev == "" {
			line = append(line, `,"prev":null`...)
		} else {
			line = append(line, `,"prev":"`...)
			line = append(line, prev...)
			line = append(line, '"')
		}
		line = append(line, after...)
		prev = digest.Bytes(line)
		w.Write(line)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// The benchmark's ledger builder makes a chain Verify accepts and Append
// continues.
func TestBuildLedger(t *testing.T) {
	root := t.TempDir()
	buildLedger(t, root, 1000)
	rep := mustVerify(t, root)
	if rep.Records != 1000 || rep.Head.Seq != 1000 {
		t.Fatalf("report %+v", rep)
	}
	r := writeRecord("after", "a.go")
	mustAppend(t, &Ledger{Root: root}, r)
	if r.Metadata.Intenthook.Seq != 1001 {
		t.Errorf("seq %d after a built ledger", r.Metadata.Intenthook.Seq)
	}
	mustVerify(t, root)
}
