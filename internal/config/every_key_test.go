package config

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/fill"
	"go.yaml.in/yaml/v3"
)

// TestFastParseEveryKey writes settings whose every key is found by
// reflection on Config (yaml.v3 writes them, in block style), and holds
// the hook binary's subset to yaml.v3 on them: it must read them, and read
// them as yaml.v3 does. A key added to Config but not to the subset fails
// here.
func TestFastParseEveryKey(t *testing.T) {
	values := []struct {
		s string
		n int64
		d time.Duration
	}{
		{"deny", 3, 300 * time.Millisecond},
		{"allow", 1, 10 * time.Minute},
		{"src/**", 70, 2 * time.Second},
		{"weird value", 0, 0},
	}
	paths := fill.Paths(&Config{})
	if len(paths) < 20 {
		t.Fatalf("the walk reached %d settings: %q", len(paths), paths)
	}
	check := func(name string, c *Config) {
		t.Helper()
		text, err := yaml.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if !agrees(t, string(text)) {
			t.Errorf("%s: the subset does not read\n%s", name, text)
		}
	}
	for _, v := range values {
		var c Config
		fill.Walk(&c, func(l fill.Leaf) { setSetting(l, v.s, v.n, v.d) })
		check("every key = "+v.s, &c)
	}
	for _, p := range paths {
		var c Config
		fill.Walk(&c, func(l fill.Leaf) {
			if l.Path == p {
				setSetting(l, "deny", 5, time.Second)
			}
		})
		check(p+" alone", &c)
	}
}

func setSetting(l fill.Leaf, s string, n int64, d time.Duration) {
	switch v := l.Value; {
	case v.Type() == reflect.TypeOf(time.Duration(0)):
		v.SetInt(int64(d))
	case v.Kind() == reflect.String:
		v.SetString(s)
	case v.Kind() == reflect.Bool:
		v.SetBool(!strings.Contains(s, " "))
	case v.CanInt():
		v.SetInt(n)
	}
}
