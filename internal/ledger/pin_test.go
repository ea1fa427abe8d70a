package ledger

import (
	"strings"
	"testing"
)

func TestParsePin(t *testing.T) {
	hash := "sha256:" + strings.Repeat("ab", 32)
	tests := []struct {
		name string
		in   string
		want Pin
		bad  bool
	}{
		{name: "ok", in: "42:" + hash, want: Pin{Seq: 42, Hash: hash}},
		{name: "zero", in: "0:" + hash, want: Pin{Seq: 0, Hash: hash}},
		{name: "no seq", in: hash, bad: true},
		{name: "negative", in: "-1:" + hash, bad: true},
		{name: "short hash", in: "1:sha256:abcd", bad: true},
		{name: "upper hex", in: "1:sha256:" + strings.Repeat("AB", 32), bad: true},
		{name: "no prefix", in: "1:" + strings.Repeat("ab", 32), bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePin(tt.in)
			if (err != nil) != tt.bad {
				t.Fatalf("ParsePin(%q) error = %v, want bad %v", tt.in, err, tt.bad)
			}
			if got != tt.want {
				t.Fatalf("ParsePin(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}
