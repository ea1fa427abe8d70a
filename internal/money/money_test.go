package money

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"12", 12_000_000, true},
		{"12.5", 12_500_000, true},
		{"$3.25", 3_250_000, true},
		{"0.000125", 125, true},
		{".5", 500_000, true},
		{"1000000000", 1_000_000_000 * Micro, true},
		{"1000000001", 0, false},
		{"0.0000001", 0, false},
		{"-1", 0, false},
		{"1e3", 0, false},
		{"", 0, false},
		{".", 0, false},
		{"1.2.3", 0, false},
		{"ten", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := Parse(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Parse(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{0, "$0.00"},
		{12_500_000, "$12.50"},
		{10_000, "$0.01"},
		{4_200, "$0.0042"},
		{125, "$0.000125"},
		{1_999_999, "$2.00"},
		{-2_500_000, "-$2.50"},
	}
	for _, tt := range tests {
		if got := Format(tt.in); got != tt.want {
			t.Errorf("Format(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
