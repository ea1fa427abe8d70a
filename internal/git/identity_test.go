package git

import (
	"context"
	"testing"
)

func TestIdentity(t *testing.T) {
	tests := []struct {
		name   string
		config [][2]string
		want   string
	}{
		{"name and email", [][2]string{{"user.name", "P Q"}, {"user.email", "p@example.com"}}, "P Q <p@example.com>"},
		{"email only", [][2]string{{"user.email", "p@example.com"}}, "<p@example.com>"},
		{"name only", [][2]string{{"user.name", "P Q"}}, "P Q"},
		{"neither", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			git(t, dir, "init", "-q")
			for _, kv := range tt.config {
				git(t, dir, "config", kv[0], kv[1])
			}
			// Only the repository's own configuration counts here.
			env := []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir}
			if got := Identity(context.Background(), dir, env); got != tt.want {
				t.Errorf("Identity = %q, want %q", got, tt.want)
			}
		})
	}
}
