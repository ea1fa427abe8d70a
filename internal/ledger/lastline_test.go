package ledger

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestLastLine reads the last line back at every length around the first
// read's 4 KiB, with and without a line before it.
func TestLastLine(t *testing.T) {
	for _, before := range []string{"", "{\"seq\":1}\n", strings.Repeat("p", 5000) + "\n"} {
		for _, n := range []int{0, 1, 4094, 4095, 4096, 4097, 8191, 8192, 8193, 20000} {
			line := bytes.Repeat([]byte("x"), n)
			data := append([]byte(before), line...)
			data = append(data, '\n')
			got, err := lastLine(bytes.NewReader(data), int64(len(data)-1))
			if err != nil || !bytes.Equal(got, line) {
				t.Errorf("before %d bytes, line of %d: got %d bytes, %v", len(before), n, len(got), err)
			}
		}
	}
}

// TestHeadLineMatchesJSON: state/ledger.head's line is the one
// encoding/json writes for headFile (without HTML escaping, as the ledger's
// lines: a head is read back as JSON either way).
func TestHeadLineMatchesJSON(t *testing.T) {
	for _, hf := range []headFile{
		{Head{1, "sha256:ab"}, "", "", ""},
		{Head{1 << 40, "sha256:" + strings.Repeat("f", 64)}, "0123456789abcdef0123456789abcdef01234567", ".orchestration/ledger/0123456789abcdef/2026-11/000001.jsonl", "0123456789abcdef0123456789abcdef01234567"},
		{Head{0, ""}, "<\"\\\u2028\x00é>", "", ""},
		{Head{-1, "\xff"}, "x", "s", "t"},
	} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(hf); err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		if got := headLine(hf); !bytes.Equal(got, want) {
			t.Errorf("headLine(%+v) = %s, want %s", hf, got, want)
		}
	}
}
