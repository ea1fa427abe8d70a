package git

import (
	"context"
	"strings"
)

// Identity is git's user.name <user.email> in dir, with env (nil: the
// process's environment), read in one git process: who a person's answer
// or a claim names, as git would name them in a commit. "<email>" or the
// name alone when only one is set, "" when neither is.
func Identity(ctx context.Context, dir string, env []string) string {
	out, _ := Output(ctx, dir, env, "config", "--get-regexp", `^user\.(name|email)$`)
	var name, email string
	for _, line := range strings.Split(string(out), "\n") {
		k, v, _ := strings.Cut(line, " ")
		switch k {
		case "user.name":
			name = strings.TrimSpace(v)
		case "user.email":
			email = strings.TrimSpace(v)
		}
	}
	switch {
	case name != "" && email != "":
		return name + " <" + email + ">"
	case email != "":
		return "<" + email + ">"
	}
	return name
}
