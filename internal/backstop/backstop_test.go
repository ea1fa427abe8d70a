package backstop

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/codec"
	"github.com/intenthook/intenthook/internal/fill"
)

func TestPorcelainPath(t *testing.T) {
	for _, c := range []struct {
		entry     string
		path      string
		fresh, ok bool
	}{
		{"1 .M N... 100644 100644 100644 aaa bbb src/a.go", "src/a.go", false, true},
		{"1 A. N... 000000 100644 100644 000 bbb src/new.go", "src/new.go", true, true},
		{"1 .M N... 100644 100644 100644 aaa bbb with space.go", "with space.go", false, true},
		{"u UU N... 100644 100644 100644 100644 a b c src/conflict.go", "src/conflict.go", false, true},
		{"? untracked.txt", "untracked.txt", true, true},
		{"! ignored.txt", "", false, false},
		{"1 short", "", false, false},
		{"", "", false, false},
	} {
		path, fresh, ok := porcelainPath(c.entry)
		if path != c.path || fresh != c.fresh || ok != c.ok {
			t.Errorf("porcelainPath(%q) = %q, %v, %v; want %q, %v, %v", c.entry, path, fresh, ok, c.path, c.fresh, c.ok)
		}
	}
}

func TestExisted(t *testing.T) {
	for _, c := range []struct {
		after, before string
		want          bool
	}{
		{"e12:34", "", true},     // in HEAD now
		{"n12:34", "e", true},    // in HEAD before
		{"n12:34", "n5:6", true}, // dirty with content before
		{"n12:34", "n", false},   // listed before, but gone
		{"n12:34", "", false},    // new
	} {
		if got := existed(c.after, c.before); got != c.want {
			t.Errorf("existed(%q, %q) = %v, want %v", c.after, c.before, got, c.want)
		}
	}
}

// TestPictureCodec: a picture reads back as written, and no picture as
// none. The full picture has every field set by reflection: a field added
// to Picture and forgotten by Encode or Decode fails here.
func TestPictureCodec(t *testing.T) {
	var full Picture
	if n := len(fill.Distinct(&full)); n < 6 {
		t.Fatalf("the walk reached %d fields of a picture", n)
	}
	// Since is not encoded: the caller sets it from the time it stored
	// with the picture.
	full.Since = time.Time{}
	for _, p := range []*Picture{
		nil,
		&full,
		{Paths: map[string]string{"src/a.go": "e12:34", "gone": "e"}, Reflog: 4096, Head: "abc", Tips: []string{"abc", "def"}, TipsKnown: true},
	} {
		var e codec.Encoder
		Encode(&e, p)
		d := codec.Decoder{B: e.B}
		got := Decode(&d)
		if d.Err != nil || len(d.B) != 0 || !reflect.DeepEqual(got, p) {
			t.Errorf("Decode(Encode(%+v)) = %+v (err %v, %d bytes left)", p, got, d.Err, len(d.B))
		}
	}
}

func TestViolation(t *testing.T) {
	outside := []Change{
		{Rel: "lib/a.go", Existed: true},              // HEAD's, clean before
		{Rel: "lib/b.go"},                             // created by the command
		{Rel: "lib/c.go", Existed: true, Dirty: true}, // a person's edit before
		{Rel: "lib/it's.go", Existed: true},
		{Rel: "-x"},
		{Rel: "lib/a\nb", Existed: true},
	}
	d := Violation("INT-001", "src/**", outside, 1000)
	want := "intenthook: violation [out_of_scope_change] 6 file(s) changed outside INT-001's scope\nfiles:\n  lib/a.go\n  lib/b.go\n  lib/c.go\n  lib/it's.go\n  -x\n  \"lib/a\\nb\"\n" +
		"why: the command changed files that intent does not own (it owns src/**)\n" +
		"instead: put those files back now, then change only files in scope; ask the user if the change is needed\n" +
		"put back with (allowed for this session):\n  git checkout -- lib/a.go\n  rm -- lib/b.go\n  git checkout -- 'lib/it'\\''s.go'\n  rm -- '-x'\n" +
		"put back by hand (a name one command line cannot carry):\n  \"lib/a\\nb\"\n" +
		"leave to the user (they held uncommitted changes before the command, which a checkout would destroy):\n  lib/c.go"
	if !d.Violation || d.Code != CodeOutOfScopeChange || d.Message != want {
		t.Errorf("Violation = %+v\nwant message %q", d, want)
	}
	if d := Violation("", "", []Change{{Rel: "x"}}, 1000); !strings.HasPrefix(d.Message, "intenthook: violation [out_of_scope_change] 1 file(s) changed with no intent selected\n") {
		t.Errorf("no intent: %q", d.Message)
	}
}
