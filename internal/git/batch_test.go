package git

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadReplies(t *testing.T) {
	stream := "0123abcd blob 5\nhello\n:0:gone missing\n4567 blob 0\n\n89ab blob 3\nxyz\n"
	type got struct {
		kind, body string
		missing    bool
	}
	var out []got
	err := readReplies(bufio.NewReader(strings.NewReader(stream)), 4, func(i int, obj *Object) error {
		if obj == nil {
			out = append(out, got{missing: true})
			return nil
		}
		if i == 3 {
			// Leave the body unread: readReplies must skip it.
			out = append(out, got{kind: obj.Type})
			return nil
		}
		b, err := io.ReadAll(obj.Body)
		out = append(out, got{kind: obj.Type, body: string(b)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []got{{"blob", "hello", false}, {missing: true}, {"blob", "", false}, {"blob", "", false}}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("replies %v, want %v", out, want)
	}
}

func TestReadRepliesErrors(t *testing.T) {
	for _, stream := range []string{
		"",                     // git died
		"abcd blob x\n",        // bad size
		"abcd blob 5\nhel",     // short body
		"abcd blob 2\nhiX",     // no newline after the body
		"what is this reply\n", // not a header
	} {
		err := readReplies(bufio.NewReader(strings.NewReader(stream)), 1, func(int, *Object) error { return nil })
		if err == nil {
			t.Errorf("readReplies(%q): no error", stream)
		}
	}
}

func TestRepoPaths(t *testing.T) {
	tests := []struct {
		rp        Paths
		git, root string
		toRootOK  bool
		backToGit string
		toGitOK   bool
	}{
		{Paths{}, "src/a.go", "src/a.go", true, "src/a.go", true},
		{Paths{prefix: "sub/"}, "sub/src/a.go", "src/a.go", true, "sub/src/a.go", true},
		{Paths{prefix: "sub/"}, "other/a.go", "", false, "", false},
		{Paths{above: "repo/"}, "src/a.go", "repo/src/a.go", true, "src/a.go", true},
	}
	for _, tt := range tests {
		rel, ok := tt.rp.ToRoot(tt.git)
		if ok != tt.toRootOK || (ok && rel != tt.root) {
			t.Errorf("%+v.ToRoot(%q) = %q %v, want %q %v", tt.rp, tt.git, rel, ok, tt.root, tt.toRootOK)
		}
		if !ok {
			continue
		}
		back, ok := tt.rp.ToGit(rel)
		if ok != tt.toGitOK || back != tt.backToGit {
			t.Errorf("%+v.ToGit(%q) = %q %v", tt.rp, rel, back, ok)
		}
	}
	if _, ok := (Paths{above: "repo/"}).ToGit(".orchestration/active_intents.yaml"); ok {
		t.Error("a catalog above the work tree is not in its index")
	}
}

func TestGitEnvMakesHookPathsAbsolute(t *testing.T) {
	wd, _ := os.Getwd()
	got := HookEnv([]string{"GIT_INDEX_FILE=.git/next-index.lock", "GIT_DIR=/abs/.git", "HOME=rel", "GIT_WORK_TREE="})
	want := []string{"GIT_INDEX_FILE=" + filepath.Join(wd, ".git/next-index.lock"), "GIT_DIR=/abs/.git", "HOME=rel", "GIT_WORK_TREE="}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("HookEnv = %v, want %v", got, want)
	}
}
