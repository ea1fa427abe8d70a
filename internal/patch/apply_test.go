package patch

import (
	"errors"
	"testing"
)

func TestApply(t *testing.T) {
	tests := []struct {
		name, patch, old, want string
		err                    error
	}{
		{"an update with an anchor (VS Code 1.119.0's capture)",
			"*** Begin Patch\n*** Update File: /w/jokes-cli.ts\n@@ rl.question(\"Which joke?\", (answer) => {\n-      console.warn(\"oops\");\n+      console.warn(\"oopsies\");\n*** End Patch",
			"const x = 1;\nrl.question(\"Which joke?\", (answer) => {\n      console.warn(\"oops\");\n});\n",
			"const x = 1;\nrl.question(\"Which joke?\", (answer) => {\n      console.warn(\"oopsies\");\n});\n", nil},
		{"context lines and two hunks",
			"*** Begin Patch\n*** Update File: a.go\n@@\n a\n-b\n+B\n c\n@@\n-e\n+E\n+F\n*** End Patch",
			"a\nb\nc\nd\ne\n", "a\nB\nc\nd\nE\nF\n", nil},
		{"the second hunk is found after the first",
			"*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+1\n@@\n-x\n+2\n*** End Patch",
			"x\ny\nx\n", "1\ny\n2\n", nil},
		{"trailing white space is not a difference",
			"*** Begin Patch\n*** Update File: a.go\n@@\n-b\n+B\n*** End Patch",
			"a\nb  \nc\n", "a\nB\nc\n", nil},
		{"an addition at the end of the file",
			"*** Begin Patch\n*** Update File: a.go\n@@\n+z\n*** End Patch",
			"a\n", "a\nz\n", nil},
		{"a file without a final newline gets one",
			"*** Begin Patch\n*** Update File: a.go\n@@\n-a\n+b\n*** End Patch",
			"a", "b\n", nil},
		{"an added file",
			"*** Begin Patch\n*** Add File: n.go\n+package n\n+\n+var x = 1\n*** End Patch",
			"", "package n\n\nvar x = 1\n", nil},
		{"a hunk that is not in the file",
			"*** Begin Patch\n*** Update File: a.go\n@@\n-nothere\n+x\n*** End Patch",
			"a\n", "", ErrNoMatch},
		{"an anchor that is not in the file",
			"*** Begin Patch\n*** Update File: a.go\n@@ func missing() {\n-a\n+b\n*** End Patch",
			"a\n", "", ErrNoMatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss, err := Sections(tt.patch)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ss[0].Apply([]byte(tt.old))
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err == nil && string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSections(t *testing.T) {
	ss, err := Sections("*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n@@\n-a\n+b\n*** Delete File: c.go\n*** Add File: d.go\n+d\n*** End Patch\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 3 || ss[0].Op != Update || ss[0].Path != "a.go" || ss[0].MoveTo != "b.go" || len(ss[0].Lines) != 3 ||
		ss[1].Op != Delete || ss[1].Path != "c.go" || ss[2].Op != Add || ss[2].Path != "d.go" || len(ss[2].Lines) != 1 {
		t.Errorf("sections %+v", ss)
	}
	if d, err := ss[1].Apply([]byte("x\n")); err != nil || d != nil {
		t.Errorf("a delete gives %q, %v", d, err)
	}
}
