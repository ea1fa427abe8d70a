package ledger

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScanFileAndLineBefore(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, filepath.FromSlash(FileName))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if files, err := Files(root); err != nil || len(files) != 0 {
		t.Fatalf("Files without a ledger = %v, %v", files, err)
	}
	content := "one\ntwo\nthree\ntorn"
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if files, _ := Files(root); len(files) != 1 || files[0] != FileName {
		t.Fatalf("Files = %v", files)
	}
	var got []string
	err := ScanFile(root, FileName, 4, func(line []byte, end int64, complete bool) error {
		got = append(got, strings.Join([]string{string(line), string(rune('0' + end%48)), map[bool]string{true: "c", false: "t"}[complete]}, "|"))
		if complete && content[end-1] != '\n' {
			t.Errorf("line %q ends at %d, not after a newline", line, end)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || !strings.HasPrefix(got[0], "two|") || !strings.HasSuffix(got[2], "|t") {
		t.Errorf("ScanFile from 4: %v", got)
	}
	for _, tt := range []struct {
		end  int64
		line string
		ok   bool
	}{
		{4, "one", true}, {8, "two", true}, {14, "three", true}, {5, "", false}, {0, "", false}, {100, "", false},
	} {
		line, ok, err := LineBefore(root, FileName, tt.end)
		if err != nil || ok != tt.ok || string(line) != tt.line {
			t.Errorf("LineBefore(%d) = %q, %v, %v; want %q, %v", tt.end, line, ok, err, tt.line, tt.ok)
		}
	}
}
