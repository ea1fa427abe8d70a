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
		{11_600, "$0.0116"},
		{1_234_567, "$1.23"},
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

func TestDecimalAmount(t *testing.T) {
	for _, n := range []int64{0, 3_000_000, 12_500_000, 125, 1, 999_999_999_999} {
		d := Decimal(n)
		back, ok := Parse(d)
		if !ok || back != n {
			t.Errorf("Parse(Decimal(%d) = %q) = %d, %v", n, d, back, ok)
		}
		var a Amount
		j, _ := Amount(n).MarshalJSON()
		if err := a.UnmarshalJSON(j); err != nil || int64(a) != n {
			t.Errorf("JSON round trip of %d: %s -> %d, %v", n, j, a, err)
		}
	}
	var a Amount
	if err := a.UnmarshalText([]byte("three")); err != nil || a != Invalid {
		t.Errorf("UnmarshalText(three) = %d, %v", a, err)
	}
	if err := a.UnmarshalJSON([]byte("-1")); err != nil || a != Invalid {
		t.Errorf("UnmarshalJSON(-1) = %d, %v", a, err)
	}
}
