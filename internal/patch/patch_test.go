package patch

import (
	"errors"
	"reflect"
	"testing"
)

func TestFiles(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []File
		err  error
	}{
		{
			name: "codex capture: update, add, update with move",
			text: "*** Begin Patch\n*** Update File: hello.txt\n@@\n-hello\n+hello world\n*** Add File: sub/two.txt\n+two\n*** Update File: README.md\n*** Move to: docs/README.md\n@@\n-seed\n+seed moved\n*** End Patch",
			want: []File{{Update, "hello.txt"}, {Add, "sub/two.txt"}, {Update, "README.md"}, {Move, "docs/README.md"}},
		},
		{
			name: "copilot string with a final newline and CRLF",
			text: "*** Begin Patch\r\n*** Add File: hello.txt\r\n+hello\r\n*** End Patch\r\n",
			want: []File{{Add, "hello.txt"}},
		},
		{
			name: "delete and absolute paths, trailing spaces",
			text: "*** Begin Patch\n*** Delete File: /w/old.go   \n*** End Patch",
			want: []File{{Delete, "/w/old.go"}},
		},
		{
			name: "added lines that look like headers are content",
			text: "*** Begin Patch\n*** Add File: a.txt\n+*** Delete File: b.txt\n*** End Patch",
			want: []File{{Add, "a.txt"}},
		},
		{
			name: "nothing after End Patch counts",
			text: "*** Begin Patch\n*** Add File: a\n*** End Patch\n*** Delete File: b",
			want: []File{{Add, "a"}},
		},
		{name: "not a patch", text: "--- a/x\n+++ b/x\n", err: ErrNotPatch},
		{name: "empty patch", text: "*** Begin Patch\n*** End Patch\n", err: ErrNoFiles},
		{name: "header without a path", text: "*** Begin Patch\n*** Add File:   \n*** End Patch", err: ErrNoFiles},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Files(tt.text)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Files = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPathsOnce(t *testing.T) {
	got, err := Paths("*** Begin Patch\n*** Update File: a\n*** Update File: a\n*** Delete File: b\n*** End Patch")
	if err != nil || !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("Paths = %v, %v", got, err)
	}
}

func FuzzFiles(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: a\n+x\n*** End Patch")
	f.Fuzz(func(t *testing.T, text string) {
		files, err := Files(text)
		for _, fl := range files {
			if fl.Path == "" {
				t.Fatal("empty path")
			}
		}
		if err == nil && len(files) == 0 {
			t.Fatal("no files and no error")
		}
	})
}
