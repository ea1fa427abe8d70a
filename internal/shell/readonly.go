package shell

import "strings"

// readOnlyProgram reports whether a program runs nothing and writes
// nothing, whatever its operands, unless one of writingOptions(name) says
// otherwise. (Switches, not maps: nothing to build at every start.)
func readOnlyProgram(name string) bool {
	switch name {
	case "ls", "cat", "head", "tail", "wc", "pwd", "echo", "printf", "which", "type", "stat", "file",
		"du", "df", "tree", "less", "more", "basename", "dirname", "realpath", "readlink", "date",
		"whoami", "id", "uname", "true", "false", "test", "[", "sort", "cut", "tr", "nl", "diff", "cmp",
		"md5sum", "sha1sum", "sha256sum", "jq", "grep", "egrep", "fgrep", "rg", "find", "git",
		"cd", "pushd", "popd":
		return true
	}
	return false
}

// writingOptions turn a reader into a writer or an executor.
func writingOptions(name string) []string {
	switch name {
	case "sort":
		return []string{"-o", "--output"}
	case "rg":
		return []string{"--pre", "--pre-glob"}
	case "find":
		return []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}
	case "git":
		return []string{"-c", "--output", "--ext-diff", "--textconv", "--exec-path", "--config-env"}
	}
	return nil
}

// readOnlyGit reports whether a git subcommand only reads (without a
// writing option).
func readOnlyGit(sub string) bool {
	switch sub {
	case "status", "log", "diff", "show", "blame", "rev-parse", "ls-files", "describe", "shortlog",
		"grep", "cat-file", "ls-tree":
		return true
	}
	return false
}

// provesReadOnly reports whether one simple command is known to change
// nothing: a read-only program, none of its writing options, and (for git)
// a reading subcommand. Anything it does not know is not proven.
func provesReadOnly(name string, args []arg) bool {
	if !readOnlyProgram(name) {
		return false
	}
	bad := writingOptions(name)
	for _, a := range args {
		if !a.literal {
			return false
		}
		for _, o := range bad {
			if a.text == o || strings.HasPrefix(a.text, o+"=") || (len(o) == 2 && strings.HasPrefix(a.text, o) && o != "-c") {
				return false
			}
		}
	}
	if name != "git" {
		return true
	}
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "-C" || t == "--git-dir" || t == "--work-tree":
			i++ // their value
		case strings.HasPrefix(t, "-"):
		default:
			return readOnlyGit(t)
		}
	}
	return false
}

// listsWrites reports whether the walk lists every file a program writes
// (or makes the command opaque where it cannot): the file utilities, the
// shells whose inline script it walks, sed and awk, whose scripts it
// reads. intenthook's own calls are judged as such. Any other program may
// write files no word of the command names.
func listsWrites(name string) bool {
	switch name {
	case "cd", "pushd", "popd", "rm", "rmdir", "unlink", "shred", "cp", "mv", "install", "ln", "link",
		"touch", "truncate", "mkdir", "tee", "chmod", "chown", "chgrp", "kill", "sort", "uniq", "rename",
		"dd", "sed", "awk", "gawk", "mawk", "nawk", "bash", "sh", "zsh", "dash", "ksh", "ash", "mksh",
		"eval", "source", ".":
		return true
	}
	return selfName(name)
}
