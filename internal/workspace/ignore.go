package workspace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/osfile"
)

// IgnoreFile is the .intentignore path relative to the root.
const IgnoreFile = ".orchestration/.intentignore"

// RootIgnoreFile is an .intentignore at the root itself (where seed 004
// keeps it). Both files apply: the root file's patterns first, then
// IgnoreFile's, so that IgnoreFile's negations win.
const RootIgnoreFile = ".intentignore"

// IgnoreFiles are the ignore files, in the order their patterns apply.
var IgnoreFiles = []string{RootIgnoreFile, IgnoreFile}

// Ignore holds the .intentignore patterns: gitignore syntax (gitignore(5)),
// relative to the root.
//
// The matcher is this package's own rather than a library's: the one
// library that fits pulls in packages whose start-up costs every hook call a
// fifth of a millisecond, and the rules are few. Its answers are checked
// against `git check-ignore` in the tests.
type Ignore struct {
	patterns []ignorePattern
}

type ignorePattern struct {
	segments []string // the pattern split at "/", "**" standing for any depth
	negate   bool     // "!pattern": re-include
	dirOnly  bool     // "pattern/": directories only
	anchored bool     // contains a "/" before its end: relative to the root
}

// LoadIgnore reads root's ignore files (IgnoreFiles); a missing file
// ignores nothing. A file that cannot be read is reported, and the other
// still applies.
func LoadIgnore(root string) (*Ignore, error) {
	contents := make([][]byte, len(IgnoreFiles))
	var errs []error
	for i, f := range IgnoreFiles {
		var err error
		contents[i], err = ReadIgnoreFile(root, f)
		errs = append(errs, err)
	}
	return ParseIgnore(contents...), errors.Join(errs...)
}

// ReadIgnoreFile reads one of root's ignore files as the work tree has it:
// a missing one (or an OS sandbox's stand-in for one) is empty.
func ReadIgnoreFile(root, rel string) ([]byte, error) {
	data, err := osfile.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	return data, nil
}

// ParseIgnore parses the content of ignore files, in the order their
// patterns apply (IgnoreFiles').
func ParseIgnore(files ...[]byte) *Ignore {
	ig := &Ignore{}
	for _, data := range files {
		if len(data) == 0 {
			continue // a missing file: no scanner and its buffer
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			if p, ok := parseIgnoreLine(sc.Text()); ok {
				ig.patterns = append(ig.patterns, p)
			}
		}
	}
	return ig
}

// Patterns is the number of patterns the ignore files hold.
func (ig *Ignore) Patterns() int { return len(ig.patterns) }

func parseIgnoreLine(line string) (ignorePattern, bool) {
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpaces(line)
	if line == "" || line[0] == '#' {
		return ignorePattern{}, false
	}
	var p ignorePattern
	switch {
	case line[0] == '!':
		p.negate, line = true, line[1:]
	case strings.HasPrefix(line, `\!`), strings.HasPrefix(line, `\#`):
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if line == "" {
		return ignorePattern{}, false
	}
	p.anchored = strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	for _, seg := range strings.Split(line, "/") {
		if seg == "" {
			continue
		}
		// git spells a character class's negation "!"; path.Match, "^".
		seg = strings.ReplaceAll(seg, "[!", "[^")
		p.segments = append(p.segments, seg)
	}
	return p, len(p.segments) > 0
}

// trimTrailingSpaces drops trailing spaces that are not escaped with a
// backslash.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	return s
}

// Match reports whether rel (root-relative, / separated) is ignored. As in
// git, a path under an ignored directory is ignored, whatever later
// patterns say about the path itself.
func (ig *Ignore) Match(rel string, isDir bool) bool {
	if ig == nil || len(ig.patterns) == 0 {
		return false
	}
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		if ig.decide(parts[:i], true) {
			return true
		}
	}
	return ig.decide(parts, isDir)
}

// decide applies the patterns to one path: the last that matches wins.
func (ig *Ignore) decide(parts []string, isDir bool) bool {
	ignored := false
	for _, p := range ig.patterns {
		if p.matches(parts, isDir) {
			ignored = !p.negate
		}
	}
	return ignored
}

func (p ignorePattern) matches(parts []string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if !p.anchored {
		// A pattern without a slash matches a name at any depth.
		return matchSegment(p.segments[0], parts[len(parts)-1])
	}
	return matchSegments(p.segments, parts)
}

// matchSegments matches path segments against pattern segments, where "**"
// spans any number of segments (a trailing "**" at least one: "dir/**" is
// what is inside dir).
func matchSegments(pat, parts []string) bool {
	if len(pat) == 0 {
		return len(parts) == 0
	}
	if pat[0] == "**" {
		min := 0
		if len(pat) == 1 {
			min = 1
		}
		for i := min; i <= len(parts); i++ {
			if matchSegments(pat[1:], parts[i:]) {
				return true
			}
		}
		return false
	}
	return len(parts) > 0 && matchSegment(pat[0], parts[0]) && matchSegments(pat[1:], parts[1:])
}

func matchSegment(pattern, name string) bool {
	ok, err := path.Match(pattern, name)
	return err == nil && ok
}
