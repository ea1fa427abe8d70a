package hugeheap

import "testing"

func TestAllowed(t *testing.T) {
	for _, tc := range []struct {
		enabled []byte
		want    bool
	}{
		{[]byte("always [madvise] never\n"), true},
		{[]byte("[always] madvise never\n"), true},
		{[]byte("always madvise [never]\n"), false},
		{[]byte("[never]"), false},
		{[]byte("always madvise never"), true},
		{[]byte(""), true},
		{nil, false},
	} {
		if got := allowed(tc.enabled); got != tc.want {
			t.Errorf("allowed(%q) = %v, want %v", tc.enabled, got, tc.want)
		}
	}
}
