package git

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
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
// system config; for the global config, a file under dir holding only the
// allow-listed keys of the user's (regenerated when the user's files'
// fingerprints change: a stat each per call, a read only on a change); no
// replacement objects; no optional locks; no variables that set config,
// an external diff or replace refs. A repository's own risky keys are the
// guard's: put back after the command that set them.
func CleanEnv(dir string) []string {
	env := make([]string, 0, len(os.Environ())+5)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "GIT_CONFIG"), k == "GIT_EXTERNAL_DIFF", k == "GIT_REPLACE_REF_BASE",
			k == "GIT_NO_REPLACE_OBJECTS", k == "GIT_OPTIONAL_LOCKS", k == "GIT_DIFF_OPTS", k == "GIT_ATTR_SOURCE":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+globalFile(dir), "GIT_NO_REPLACE_OBJECTS=1", "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
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

// globalFile returns the allow-listed copy of the user's global config
// under dir, made when the user's files changed; os.DevNull when it
// cannot be made.
func globalFile(dir string) string {
	sources := userGlobals()
	h := sha256.New()
	for _, p := range sources {
		h.Write([]byte(p + "\x00"))
		if st, err := os.Stat(p); err == nil {
			h.Write([]byte(strconv.FormatInt(st.Size(), 10) + ":" + strconv.FormatInt(st.ModTime().UnixNano(), 10) + "\x00"))
		}
	}
	name := filepath.Join(dir, "global-"+hex.EncodeToString(h.Sum(nil))[:16]+".config")
	if _, err := os.Lstat(name); err == nil {
		return name
	}
	var b bytes.Buffer
	for _, p := range sources {
		if data, err := osfile.ReadFile(p); err == nil {
			b.Write(AllowedKeys(data))
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return os.DevNull
	}
	if old, _ := filepath.Glob(filepath.Join(dir, "global-*.config")); len(old) > 0 {
		for _, o := range old {
			_ = os.Remove(o)
		}
	}
	tmp, err := osfile.CreateTemp(dir, ".global-*")
	if err != nil {
		return os.DevNull
	}
	_, werr := tmp.Write(b.Bytes())
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), name) != nil {
		_ = os.Remove(tmp.Name())
		return os.DevNull
	}
	return name
}

// AllowedKeys returns the allow-listed entries of a git config file, as a
// config file: one section header per entry, the value as written.
func AllowedKeys(config []byte) []byte {
	var out bytes.Buffer
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
		allowed := false
		for _, a := range AllowedGlobal {
			if a == section+"."+key {
				allowed = true
			}
		}
		if !allowed || strings.ContainsAny(key, " \t\"") {
			continue
		}
		out.WriteString("[" + section + "]\n\t" + key)
		if hasValue {
			out.WriteString(" = " + strings.TrimSpace(v))
		}
		out.WriteString("\n")
	}
	return out.Bytes()
}
