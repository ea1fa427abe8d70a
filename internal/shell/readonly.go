package shell

import "strings"

// readOnlyPrograms run nothing and write nothing, whatever their operands,
// unless an option of theirs listed in writingOptions says otherwise.
var readOnlyPrograms = map[string]bool{
	"ls": true, "cat": true, "head": true, "tail": true, "wc": true, "pwd": true, "echo": true,
	"printf": true, "which": true, "type": true, "stat": true, "file": true, "du": true, "df": true,
	"tree": true, "less": true, "more": true, "basename": true, "dirname": true, "realpath": true,
	"readlink": true, "date": true, "whoami": true, "id": true, "uname": true, "true": true,
	"false": true, "test": true, "[": true, "sort": true, "cut": true, "tr": true, "nl": true,
	"diff": true, "cmp": true, "md5sum": true, "sha1sum": true, "sha256sum": true, "jq": true,
	"grep": true, "egrep": true, "fgrep": true, "rg": true, "find": true, "git": true,
	"cd": true, "pushd": true, "popd": true,
}

// writingOptions turn a reader into a writer or an executor.
var writingOptions = map[string][]string{
	"sort": {"-o", "--output"},
	"rg":   {"--pre", "--pre-glob"},
	"find": {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"},
	"git":  {"-c", "--output", "--ext-diff", "--textconv", "--exec-path", "--config-env"},
}

// readOnlyGit are the git subcommands that only read (without a writing
// option).
var readOnlyGit = map[string]bool{
	"status": true, "log": true, "diff": true, "show": true, "blame": true, "rev-parse": true,
	"ls-files": true, "describe": true, "shortlog": true, "grep": true, "cat-file": true, "ls-tree": true,
}

// provesReadOnly reports whether one simple command is known to change
// nothing: a read-only program, none of its writing options, and (for git)
// a reading subcommand. Anything it does not know is not proven.
func provesReadOnly(name string, args []arg) bool {
	if !readOnlyPrograms[name] {
		return false
	}
	bad := writingOptions[name]
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
			return readOnlyGit[t]
		}
	}
	return false
}
