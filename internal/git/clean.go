package git

import (
	"bytes"

	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/osfile"
)

// AllowedGlobal are the keys of the user's global git config a hook's git
// reads: what makes git find, see and trust the files as the user does.
// Nothing that runs a program (filters, textconv, an external diff,
// fsmonitor, aliases, hooksPath) and no includes.
var AllowedGlobal = []string{
	"safe.directory", "core.excludesfile", "core.autocrlf", "core.eol",
	"core.ignorecase", "core.precomposeunicode", "core.quotepath", "core.longpaths",
}

// CleanEnv is the environment of every git process a hook starts: no
// system config; no global config file — the allow-listed keys of the
// user's are passed through GIT_CONFIG_COUNT and GIT_CONFIG_KEY_n /
// GIT_CONFIG_VALUE_n (git 2.31; GIT_CONFIG_GLOBAL, which an older git
// ignores, is 2.32's), so that no file under state/ holds the hooks' git
// configuration for a program to add to; no replacement objects; no
// optional locks; no variables that set config, an external diff or
// replace refs. A repository's own risky keys are the guard's: put back
// after the command that set them.
func CleanEnv() []string {
	env := make([]string, 0, len(os.Environ())+8)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "GIT_CONFIG"), k == "GIT_EXTERNAL_DIFF", k == "GIT_REPLACE_REF_BASE",
			k == "GIT_NO_REPLACE_OBJECTS", k == "GIT_OPTIONAL_LOCKS", k == "GIT_DIFF_OPTS", k == "GIT_ATTR_SOURCE":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_NO_REPLACE_OBJECTS=1", "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	var kvs []Setting
	for _, p := range userGlobals() {
		if data, err := osfile.ReadFile(p); err == nil {
			kvs = append(kvs, AllowedSettings(data)...)
		}
	}
	return append(env, ConfigEnv(kvs)...)
}

// ConfigEnv is settings as git reads them from its environment.
func ConfigEnv(kvs []Setting) []string {
	out := []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(len(kvs))}
	for i, kv := range kvs {
		n := strconv.Itoa(i)
		out = append(out, "GIT_CONFIG_KEY_"+n+"="+kv.Key, "GIT_CONFIG_VALUE_"+n+"="+kv.Value)
	}
	return out
}

// userGlobals are the files git reads as the user's global config.
func userGlobals() []string {
	var out []string
	if p := os.Getenv("GIT_CONFIG_GLOBAL"); p != "" {
		return []string{p}
	}
	xdg := os.Getenv("XDG_CONFIG_HOME")
	home := os.Getenv("HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if xdg != "" {
		out = append(out, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		out = append(out, filepath.Join(home, ".gitconfig"))
	}
	return out
}

// Setting is one git config entry: section.key and its value.
type Setting struct{ Key, Value string }

// AllowedSettings returns the allow-listed entries of a git config file, in
// its order: a key without a value is true; a value's quotes and escapes
// are read as git reads them, and one that holds a line break or a NUL is
// left out.
func AllowedSettings(config []byte) []Setting {
	var out []Setting
	section, sub := "", ""
	for _, line := range bytes.Split(config, []byte("\n")) {
		l := strings.TrimSpace(string(line))
		if l == "" || l[0] == '#' || l[0] == ';' {
			continue
		}
		if l[0] == '[' {
			end := strings.IndexByte(l, ']')
			if end < 0 {
				section = ""
				continue
			}
			head := l[1:end]
			name, s, hasSub := strings.Cut(head, " ")
			section, sub = strings.ToLower(name), ""
			if hasSub {
				sub = s
			}
			l = strings.TrimSpace(l[end+1:])
			if l == "" {
				continue
			}
		}
		if sub != "" || strings.ContainsRune(section, '.') {
			continue // no allow-listed key lives in a subsection
		}
		k, v, hasValue := strings.Cut(l, "=")
		key := strings.ToLower(strings.TrimSpace(k))
		if !slices.Contains(AllowedGlobal, section+"."+key) || strings.ContainsAny(key, " \t\"") {
			continue
		}
		value, ok := "true", true
		if hasValue {
			value, ok = configValue(strings.TrimSpace(v))
		}
		if ok {
			out = append(out, Setting{section + "." + key, value})
		}
	}
	return out
}

// configValue reads a value as git does: double quotes kept text
// together, a backslash escapes the next character (\n, \t, \b for their
// controls), an unquoted # or ; starts a comment. ok is false for what
// cannot be passed on one line.
func configValue(v string) (string, bool) {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				return "", false
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			default:
				b.WriteByte(v[i])
			}
		case !quoted && (c == '#' || c == ';'):
			return strings.TrimRight(b.String(), " \t"), true
		case c == 0:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), !quoted
}
