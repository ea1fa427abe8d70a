package shell

import (
	"reflect"
	"testing"
)

func TestReverts(t *testing.T) {
	tests := []struct {
		cmd  string
		want Revert
		ok   bool
	}{
		{"git checkout -- src/a.go", Revert{Checkout: []string{"src/a.go"}}, true},
		{"git checkout HEAD -- 'src/a b.go' src/c.go", Revert{Checkout: []string{"src/a b.go", "src/c.go"}}, true},
		{"git restore src/a.go", Revert{Checkout: []string{"src/a.go"}}, true},
		{"git restore --staged --worktree --source=HEAD -- src/a.go", Revert{Checkout: []string{"src/a.go"}}, true},
		{"git restore -s HEAD src/a.go", Revert{Checkout: []string{"src/a.go"}}, true},
		{"rm src/new.go", Revert{Remove: []string{"src/new.go"}}, true},
		{"rm -f -- -odd.go", Revert{Remove: []string{"-odd.go"}}, true},
		{"rm src/new.go 2>/dev/null", Revert{Remove: []string{"src/new.go"}}, true},

		{"git checkout src/a.go", Revert{}, false},                 // a branch or a file
		{"git checkout main -- src/a.go", Revert{}, false},         // another revision's content
		{"git restore --source=main src/a.go", Revert{}, false},    // another revision's content
		{"git restore -s main src/a.go", Revert{}, false},          // another revision's content
		{"git -c core.hooksPath=x checkout -- a", Revert{}, false}, // git options
		{"rm -rf src", Revert{}, false},
		{"rm a -r", Revert{}, false},
		{"rm $F", Revert{}, false},
		{"rm src/*.go", Revert{}, false},
		{"/tmp/rm src/a.go", Revert{}, false},
		{"sudo rm src/a.go", Revert{}, false},
		{"git checkout -- a && echo x > b", Revert{}, false},
		{"git checkout -- a > b", Revert{}, false},
		{"F=1 rm a", Revert{}, false},
		{"git checkout --", Revert{}, false},
		{"rm", Revert{}, false},
		{"git status", Revert{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			got, ok := Reverts(tt.cmd)
			if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Reverts(%q) = %+v, %v; want %+v, %v", tt.cmd, got, ok, tt.want, tt.ok)
			}
		})
	}
}
