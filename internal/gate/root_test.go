package gate

import (
	"reflect"
	"testing"

	"github.com/intenthook/intenthook/internal/hook"
)

// TestUnanchoredTargets: what names the root of a call nothing anchors is
// what the call may change: a write's paths, a shell command's analysed
// targets; never a read's.
func TestUnanchoredTargets(t *testing.T) {
	tests := []struct {
		name string
		call hook.Call
		want []string
	}{
		{"a write", hook.Call{Class: hook.ClassWrite, Paths: []string{"/r/a.go"}}, []string{"/r/a.go"}},
		{"a delete", hook.Call{Class: hook.ClassDelete, Paths: []string{"b.go"}}, []string{"b.go"}},
		{"a shell redirection", hook.Call{Class: hook.ClassShell, Command: "echo x > /r/a.go"}, []string{"/r/a.go"}},
		{"a shell mkdir and rm", hook.Call{Class: hook.ClassShell, Command: "mkdir -p /r/d && rm /r/old.go"}, []string{"/r/d", "/r/d", "/r/old.go"}},
		{"a read-only command", hook.Call{Class: hook.ClassShell, Command: "cat /r/a.go"}, nil},
		{"no command", hook.Call{Class: hook.ClassShell}, nil},
		{"a read", hook.Call{Class: hook.ClassRead, Paths: []string{"/r/a.go"}}, nil},
		{"exempt", hook.Call{Class: hook.ClassExempt, Paths: []string{"/r/a.go"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unanchoredTargets(&tt.call); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("unanchoredTargets = %q, want %q", got, tt.want)
			}
		})
	}
}
