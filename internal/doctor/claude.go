package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/hookconfig"
)

// requirement is what one Claude Code event must run for governance to
// hold: the subcommand, for each of the names (tools, or SessionStart
// sources) its matchers must select.
type requirement struct {
	Event, Subcommand string
	Names             []string // nil: the event has no matcher
}

func requirements() []requirement {
	// The tools whose calls change files: a call the hooks do not see is a
	// change nobody checked.
	writeTools := []string{"Write", "Edit", "MultiEdit", "NotebookEdit", "Bash"}
	return []requirement{
		{"PreToolUse", "pre", writeTools},
		{"PostToolUse", "post", append(append([]string{}, writeTools...), "Read")},
		{"PostToolUseFailure", "post", append(append([]string{}, writeTools...), "Read")},
		{"SessionStart", "context", []string{"startup", "resume", "clear", "compact"}},
		{"UserPromptSubmit", "context", nil},
	}
}

// settingsFile is one Claude Code settings file that exists.
type settingsFile struct {
	Name string // as shown: .claude/settings.json, ~/.claude/settings.json
	Doc  *hookconfig.Object
}

// loadSettings reads the settings files Claude Code merges for this project
// (the shared and local project files, and the user's), skipping absent
// ones. Files that do not parse become failed checks.
func loadSettings(root, home string) ([]settingsFile, []Check) {
	paths := [][2]string{
		{hookconfig.SettingsFile, filepath.Join(root, ".claude", "settings.json")},
		{".claude/settings.local.json", filepath.Join(root, ".claude", "settings.local.json")},
	}
	if home != "" {
		paths = append(paths, [2]string{"~/.claude/settings.json", filepath.Join(home, ".claude", "settings.json")})
	}
	var files []settingsFile
	var bad []Check
	for _, p := range paths {
		data, err := os.ReadFile(p[1])
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil {
			var doc *hookconfig.Object
			if doc, err = hookconfig.Decode(data); err == nil {
				files = append(files, settingsFile{p[0], doc})
				continue
			}
		}
		bad = append(bad, Check{Fail, "claude settings", p[0] + ": " + err.Error(), "fix the JSON: Claude Code ignores a settings file it cannot parse"})
	}
	return files, bad
}

// checkClaude checks the hook wiring and that its command can run.
func checkClaude(root string, env Env) []Check {
	home := ""
	if env.Getenv != nil {
		home = env.Getenv("HOME")
	}
	files, checks := loadSettings(root, home)
	getenv := projectEnv(root, env.Getenv)
	var found []hookconfig.Handler
	for _, r := range requirements() {
		c, hs := checkRequirement(files, r, getenv)
		checks = append(checks, c)
		found = append(found, hs...)
	}
	checks = append(checks, checkCommands(found, env.LookPath))
	if c, off := checkDisabled(files, env.Getenv); off {
		checks = append(checks, c)
	}
	return checks
}

// checkDisabled fails when the hooks are wired but switched off: by
// "disableAllHooks" in a settings file, or by INTENTHOOK_DISABLE=1 in a
// settings file's env block or in this environment.
func checkDisabled(files []settingsFile, getenv func(string) string) (Check, bool) {
	const name = "hooks enabled"
	for _, f := range files {
		if v, ok := f.Doc.Get("disableAllHooks"); ok && v == true {
			return Check{Fail, name, f.Name + ` sets "disableAllHooks": true`, "remove it: Claude Code runs no hook at all while it is set"}, true
		}
		if e, ok := f.Doc.Get("env"); ok {
			if obj, ok := e.(*hookconfig.Object); ok {
				if v, ok := obj.Get("INTENTHOOK_DISABLE"); ok && v == "1" {
					return Check{Fail, name, f.Name + " sets INTENTHOOK_DISABLE=1 for every hook", "remove it from the env block: every intenthook hook is a silent no-op while it is set"}, true
				}
			}
		}
	}
	if getenv != nil && getenv("INTENTHOOK_DISABLE") == "1" {
		return Check{Fail, name, "INTENTHOOK_DISABLE=1 in this environment", "unset it: every intenthook hook is a silent no-op while it is set"}, true
	}
	return Check{}, false
}

// projectEnv is the environment a hook command expands in: Claude Code sets
// CLAUDE_PROJECT_DIR to the project it started in.
func projectEnv(root string, getenv func(string) string) func(string) string {
	return func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return root
		}
		if getenv == nil {
			return ""
		}
		return getenv(k)
	}
}

// checkRequirement evaluates one event across the settings files: which of
// the required names the matchers of intenthook's handlers select.
func checkRequirement(files []settingsFile, r requirement, getenv func(string) string) (Check, []hookconfig.Handler) {
	name := "hook " + r.Event
	command := hookconfig.Program + " " + r.Subcommand
	var hs []hookconfig.Handler
	var where []string
	for _, f := range files {
		found := hookconfig.Runs(f.Doc, r.Event, r.Subcommand, getenv)
		if len(found) > 0 {
			where = append(where, f.Name)
		}
		hs = append(hs, found...)
	}
	if len(hs) == 0 {
		return Check{Fail, name, "no handler runs " + command,
			"run intenthook init to merge the hooks into " + hookconfig.SettingsFile + " (or copy them from hooks.example.json)"}, nil
	}
	missing := uncovered(hs, r.Names)
	if len(missing) > 0 {
		return Check{Fail, name, fmt.Sprintf("%s does not run for %s (matcher %s)", command, strings.Join(missing, ", "), matchers(hs)),
			fmt.Sprintf("use the matcher %q for %s, as hooks.example.json does", ourMatcher(r.Event), command)}, hs
	}
	detail := command + " in " + strings.Join(where, ", ")
	if len(r.Names) > 0 {
		detail = fmt.Sprintf("%s for %s, in %s", command, strings.Join(r.Names, ", "), strings.Join(where, ", "))
	}
	return Check{Status: Pass, Name: name, Detail: detail}, hs
}

// uncovered returns the names no handler's matcher selects. Events without
// matcher support need only a handler.
func uncovered(hs []hookconfig.Handler, names []string) []string {
	var missing []string
	for _, n := range names {
		covered := false
		for _, h := range hs {
			covered = covered || hookconfig.Matches(h.Matcher, n)
		}
		if !covered {
			missing = append(missing, n)
		}
	}
	return missing
}

func matchers(hs []hookconfig.Handler) string {
	var ms []string
	for _, h := range hs {
		ms = append(ms, fmt.Sprintf("%q", h.Matcher))
	}
	return strings.Join(ms, ", ")
}

func ourMatcher(event string) string {
	for _, h := range hookconfig.Claude() {
		if h.Event == event {
			return h.Matcher
		}
	}
	return ""
}

// checkCommands checks that each program the handlers run resolves to an
// executable file: Claude Code lets a tool call through when its hook
// cannot be run, so a missing binary is governance silently off.
func checkCommands(hs []hookconfig.Handler, lookPath func(string) (string, error)) Check {
	const name = "hook command"
	programs := map[string]bool{}
	for _, h := range hs {
		programs[h.Invocation.Program] = true
	}
	if len(programs) == 0 {
		return Check{Status: Skip, Name: name, Detail: "no intenthook hook configured"}
	}
	var ok, bad []string
	for _, p := range sortedKeys(programs) {
		path, err := resolve(p, lookPath)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		ok = append(ok, p+" → "+path)
	}
	if len(bad) > 0 {
		return Check{Fail, name, strings.Join(bad, "; "),
			"install intenthook on the PATH Claude Code runs hooks with (make install, or go install github.com/intenthook/intenthook/cmd/intenthook@latest), or fix the path in the hook command"}
	}
	return Check{Status: Pass, Name: name, Detail: strings.Join(ok, ", ")}
}

// resolve finds the executable a command's program word names: a path when
// it has a separator, else a PATH lookup, as the shell does.
func resolve(program string, lookPath func(string) (string, error)) (string, error) {
	if !strings.ContainsAny(program, `/\`) {
		path, err := lookPath(program)
		if err != nil {
			return "", fmt.Errorf("%s is not on PATH", program)
		}
		return path, nil
	}
	st, err := os.Stat(program)
	switch {
	case err != nil:
		return "", fmt.Errorf("%s does not exist", program)
	case !st.Mode().IsRegular() || runtime.GOOS != "windows" && st.Mode().Perm()&0o111 == 0:
		return "", fmt.Errorf("%s is not an executable file", program)
	}
	return program, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
