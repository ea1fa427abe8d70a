package described

import "testing"

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"qoder": true, "a": true, "kilo-code_2": true, "a234567890123456789012345678901234567890"[:40]: true,
		"": false, "Qoder": false, "2qoder": false, "-x": false, "a/b": false, "a.json": false, "a b": false,
		"a2345678901234567890123456789012345678901": false, "qöder": false,
	} {
		if got := validName(name); got != want {
			t.Errorf("validName(%q) = %v, want %v", name, got, want)
		}
	}
}
