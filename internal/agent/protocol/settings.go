package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/hookconfig"
	"github.com/intenthook/intenthook/internal/state"
)

// Change actions.
const (
	Created = "created"
	Updated = "updated"
	Kept    = "kept"
)

// WireJSON merges hooks into the Claude-shaped JSON settings file rel
// (`{"hooks": {"<Event>": [{"matcher": …, "hooks": [{"type": "command", …}]}]}}`)
// under root, keeping every key, hook and the order of keys. The file is
// rewritten only when a hook was added or an older npm wiring rewritten, so
// a second run leaves it byte for byte as it was. An event that already
// runs the hook's subcommand (by any path, with any matcher) is left as it
// is, but for a command that runs npm's link: it is made to run the
// package's own binary (hookconfig.MigrateNPM).
func WireJSON(root, rel string, hooks []hookconfig.Hook, example string) (Change, error) {
	path := filepath.Join(root, filepath.FromSlash(rel))
	data, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Change{}, err
	}
	settings, err := hookconfig.Decode(data)
	if err != nil {
		return Change{}, &Conflict{Path: rel, Reason: "not valid JSON: " + err.Error(),
			Hint: "fix " + rel + " (or move it aside) and run intenthook init again"}
	}
	migrated := hookconfig.MigrateNPM(settings)
	added, err := hookconfig.Merge(settings, hooks)
	if err != nil {
		return Change{}, &Conflict{Path: rel, Reason: err.Error(), Hint: "see " + example + " for the shape the agent expects"}
	}
	if len(added) == 0 && len(migrated) == 0 {
		return Change{Action: Kept, Path: rel, Detail: "the hooks are wired"}, nil
	}
	out, err := hookconfig.Encode(settings)
	if err != nil {
		return Change{}, err
	}
	if err := WriteFile(path, out); err != nil {
		return Change{}, err
	}
	action := Created
	if existed {
		action = Updated
	}
	return Change{Action: action, Path: rel, Detail: joinDetails(describeAdded(added), describeMigrated(migrated))}, nil
}

func describeAdded(hooks []hookconfig.Hook) string {
	if len(hooks) == 0 {
		return ""
	}
	return "added " + describe(hooks)
}

// describeMigrated says what an older npm wiring was rewritten to.
func describeMigrated(commands []string) string {
	if len(commands) == 0 {
		return ""
	}
	return fmt.Sprintf("rewrote %d hook command(s) from npm's link %s to the package's binary %s", len(commands), hookconfig.NPMLink, hookconfig.NPMBinary)
}

func joinDetails(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}

// WriteFile writes a settings file durably, keeping an existing file's mode.
func WriteFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	return state.WriteFile(path, data, mode, true)
}

func describe(hooks []hookconfig.Hook) string {
	parts := make([]string, len(hooks))
	for i, h := range hooks {
		parts[i] = fmt.Sprintf("%s: %s", h.Event, h.Command())
	}
	return strings.Join(parts, ", ")
}

// Requirement is what one event must run for governance to hold: the
// subcommand, for each of the names (tools, or session sources) its
// matchers must select.
type Requirement struct {
	Event, Subcommand string
	Names             []string // nil: the event has no matcher
}

// SettingsDoc is one settings file that exists and parses.
type SettingsDoc struct {
	Name string // as shown: .claude/settings.json, ~/.claude/settings.json
	Doc  *hookconfig.Object
}

// LoadSettings reads the files (shown name, path) that exist; a file that
// does not parse becomes a failed check named check.
func LoadSettings(check string, files [][2]string) ([]SettingsDoc, []Check) {
	var docs []SettingsDoc
	var bad []Check
	for _, f := range files {
		data, err := os.ReadFile(f[1])
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil {
			var doc *hookconfig.Object
			if doc, err = hookconfig.Decode(data); err == nil {
				docs = append(docs, SettingsDoc{f[0], doc})
				continue
			}
		}
		bad = append(bad, Check{Fail, check, f[0] + ": " + err.Error(), "fix the JSON: the agent ignores a settings file it cannot parse"})
	}
	return docs, bad
}

// Wired reports whether any of docs runs an intenthook hook.
func Wired(docs []SettingsDoc, events []string) bool {
	for _, d := range docs {
		for _, e := range events {
			for _, h := range hookconfig.Handlers(d.Doc, e, nil) {
				if h.Parsed && h.Invocation.Subcommand() != "" && isIntenthook(h.Invocation.Program) {
					return true
				}
			}
		}
	}
	return false
}

func isIntenthook(program string) bool {
	base := filepath.Base(strings.ReplaceAll(program, `\`, "/"))
	return strings.HasPrefix(base, Program)
}

// JSONCheck evaluates Claude-shaped wiring across settings documents.
type JSONCheck struct {
	Agent   string // check names are prefixed with it: "gemini hook BeforeTool"
	Fix     string // the hint for a missing handler
	Matches func(matcher, name string) bool
	Getenv  func(string) string // the environment hook commands expand in
	Ours    []hookconfig.Hook   // the wiring init writes, for hints
	// Source names where Ours can be seen, for hints ("hooks.example.json");
	// empty: intenthook init.
	Source string
}

// Requirements checks each requirement and returns the checks with the
// handlers found.
func (jc JSONCheck) Requirements(docs []SettingsDoc, reqs []Requirement) ([]Check, []hookconfig.Handler) {
	var checks []Check
	var found []hookconfig.Handler
	for _, r := range reqs {
		c, hs := jc.requirement(docs, r)
		checks = append(checks, c)
		found = append(found, hs...)
	}
	return checks, found
}

func (jc JSONCheck) name(event string) string {
	if jc.Agent == "" {
		return "hook " + event
	}
	return jc.Agent + " hook " + event
}

func (jc JSONCheck) requirement(docs []SettingsDoc, r Requirement) (Check, []hookconfig.Handler) {
	name := jc.name(r.Event)
	command := Program + " " + r.Subcommand
	var hs []hookconfig.Handler
	var where []string
	for _, d := range docs {
		found := hookconfig.Runs(d.Doc, r.Event, r.Subcommand, jc.Getenv)
		if len(found) > 0 {
			where = append(where, d.Name)
		}
		hs = append(hs, found...)
	}
	if len(hs) == 0 {
		return Check{Fail, name, "no handler runs " + command, jc.Fix}, nil
	}
	missing := jc.uncovered(hs, r.Names)
	if len(missing) > 0 {
		return Check{Fail, name, fmt.Sprintf("%s does not run for %s (matcher %s)", command, strings.Join(missing, ", "), matchers(hs)),
			fmt.Sprintf("use the matcher %q for %s, as %s", jc.ourMatcher(r.Event), command, jc.source())}, hs
	}
	detail := command + " in " + strings.Join(where, ", ")
	if len(r.Names) > 0 {
		detail = fmt.Sprintf("%s for %s, in %s", command, strings.Join(r.Names, ", "), strings.Join(where, ", "))
	}
	return Check{Status: Pass, Name: name, Detail: detail}, hs
}

// uncovered returns the names no handler's matcher selects.
func (jc JSONCheck) uncovered(hs []hookconfig.Handler, names []string) []string {
	var missing []string
	for _, n := range names {
		covered := false
		for _, h := range hs {
			covered = covered || jc.Matches(h.Matcher, n)
		}
		if !covered {
			missing = append(missing, n)
		}
	}
	return missing
}

func (jc JSONCheck) source() string {
	if jc.Source == "" {
		return "intenthook init writes it"
	}
	return jc.Source + " does"
}

func (jc JSONCheck) ourMatcher(event string) string {
	for _, h := range jc.Ours {
		if h.Event == event {
			return h.Matcher
		}
	}
	return ""
}

func matchers(hs []hookconfig.Handler) string {
	var ms []string
	for _, h := range hs {
		ms = append(ms, fmt.Sprintf("%q", h.Matcher))
	}
	return strings.Join(ms, ", ")
}

// CheckCommands checks that each program the handlers run resolves to an
// executable file, and says which: most agents let a tool call through when
// its hook cannot be run (governance silently off), and Copilot CLI blocks
// every tool. A relative path is the agent's working directory's, taken to
// be root; FromRoot's binary is root's, LegacySearchUp's link is looked for
// from root up, as their commands do. A program that is npm's link (the
// wiring of an older intenthook) is a warning: any package's install can
// repoint it.
func CheckCommands(name, title, root string, hs []hookconfig.Handler, lookPath func(string) (string, error)) Check {
	programs := map[string]hookconfig.Invocation{} // program → how it is found
	for _, h := range hs {
		inv := h.Invocation
		if prev, ok := programs[inv.Program]; ok {
			inv.SearchUp, inv.FromRoot = inv.SearchUp || prev.SearchUp, inv.FromRoot || prev.FromRoot
		}
		programs[inv.Program] = inv
	}
	if len(programs) == 0 {
		return Check{Status: Skip, Name: name, Detail: "no intenthook hook configured"}
	}
	var ok, bad, node, link []string
	for _, p := range sortedInvocations(programs) {
		inv := programs[p]
		var path string
		var err error
		switch {
		case inv.SearchUp:
			path, err = searchUp(root, lookPath)
		case inv.FromRoot:
			path, err = fromRoot(root, lookPath)
		default:
			path, err = resolve(p, root, lookPath)
		}
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		// Say which binary runs: a link (npm's .bin, a Homebrew prefix) is
		// followed to the file.
		shown := p
		if path != p {
			shown += " → " + path
		}
		if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
			shown += " → " + real
		}
		if nodeLauncher(path) {
			node = append(node, shown)
		}
		if inv.RunsNPMLink() {
			link = append(link, shown)
		}
		ok = append(ok, shown)
	}
	if len(bad) > 0 {
		return Check{Fail, name, strings.Join(bad, "; "),
			"install intenthook on the PATH " + title + " runs hooks with (see docs/install.md), or fix the path in the hook command"}
	}
	if len(link) > 0 {
		return Check{Warn, name, strings.Join(link, ", ") + ": the hooks run npm's link " + hookconfig.NPMLink + ", which any package's install (or a program that moves it) can point at another program",
			"run intenthook init (with --agent for each agent) again: it rewrites the wiring to run " + hookconfig.NPMBinary}
	}
	if len(node) > 0 {
		return Check{Warn, name, strings.Join(node, ", ") + ": a Node launcher, not the native binary: every hook call starts Node",
			"npm's install step puts the native binary in its place: run npm rebuild intenthook (install scripts were off)"}
	}
	return Check{Status: Pass, Name: name, Detail: strings.Join(ok, ", ")}
}

// resolve finds the executable a command's program word names: a path when
// it has a separator (a relative one from root), else a PATH lookup, as the
// shell does.
func resolve(program, root string, lookPath func(string) (string, error)) (string, error) {
	if !strings.ContainsAny(program, `/\`) {
		path, err := lookPath(program)
		if err != nil {
			return "", fmt.Errorf("%s is not on PATH", program)
		}
		return path, nil
	}
	path := program
	if !filepath.IsAbs(path) && root != "" {
		path = filepath.Join(root, filepath.FromSlash(path))
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return "", fmt.Errorf("%s does not exist", path)
	case !st.Mode().IsRegular() || runtime.GOOS != "windows" && st.Mode().Perm()&0o111 == 0:
		return "", fmt.Errorf("%s is not an executable file", path)
	}
	return path, nil
}

// searchUp finds what hookconfig.LegacySearchUp's command runs from root:
// the first node_modules/.bin/intenthook from root up, else Program on PATH.
func searchUp(root string, lookPath func(string) (string, error)) (string, error) {
	for dir := root; dir != ""; {
		if path, err := resolve(filepath.Join(dir, filepath.FromSlash(hookconfig.NPMLink)), "", lookPath); err == nil {
			return path, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	path, err := lookPath(Program)
	if err != nil {
		return "", fmt.Errorf("no %s in %s or a directory above it, and %s is not on PATH", hookconfig.NPMLink, root, Program)
	}
	return path, nil
}

// fromRoot finds what hookconfig.FromRoot's command runs from root: the
// workspace root's (the nearest directory from root up with a catalog)
// npm binary, else Program on PATH.
func fromRoot(root string, lookPath func(string) (string, error)) (string, error) {
	for dir := root; dir != ""; {
		if st, err := os.Stat(filepath.Join(dir, ".orchestration", "active_intents.yaml")); err == nil && st.Mode().IsRegular() {
			if path, err := resolve(filepath.Join(dir, filepath.FromSlash(hookconfig.NPMBinary)), "", lookPath); err == nil {
				return path, nil
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	path, err := lookPath(Program)
	if err != nil {
		return "", fmt.Errorf("no %s in the workspace root above %s, and %s is not on PATH", hookconfig.NPMBinary, root, Program)
	}
	return path, nil
}

func sortedInvocations(m map[string]hookconfig.Invocation) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ProjectEnv is the environment a hook command expands in: the agent sets
// each of vars to the project it started in.
func ProjectEnv(root string, vars []string, getenv func(string) string) func(string) string {
	return func(k string) string {
		for _, v := range vars {
			if k == v {
				return root
			}
		}
		if getenv == nil {
			return ""
		}
		return getenv(k)
	}
}

// SettingsPaths lists a project settings file (root-relative) and, when
// HOME is known, a user one ("~/…"), as LoadSettings takes them.
func SettingsPaths(root, project string, getenv func(string) string, user string) [][2]string {
	files := [][2]string{{project, filepath.Join(root, filepath.FromSlash(project))}}
	if getenv != nil && getenv("HOME") != "" && user != "" {
		files = append(files, [2]string{user, filepath.Join(getenv("HOME"), filepath.FromSlash(strings.TrimPrefix(user, "~/")))})
	}
	return files
}

// ClaudeShaped describes an agent's Claude-shaped settings for
// CheckClaudeShaped.
type ClaudeShaped struct {
	Agent         Agent
	Root          string
	Env           CheckEnv
	Project, User string // settings files: root-relative, and "~/…" or ""
	Hooks         []hookconfig.Hook
	Requirements  []Requirement
	// Matches applies the agent's matcher rules for an event.
	Matches func(matcher, name string) bool
}

// CheckClaudeShaped checks an agent's Claude-shaped wiring: configured is
// false when no settings file runs intenthook at all.
func CheckClaudeShaped(cs ClaudeShaped) (bool, []Check) {
	docs, checks := LoadSettings(cs.Agent.Name+" settings", SettingsPaths(cs.Root, cs.Project, cs.Env.Getenv, cs.User))
	var events []string
	for _, r := range cs.Requirements {
		events = append(events, r.Event)
	}
	if !Wired(docs, events) {
		return len(checks) > 0, checks
	}
	jc := JSONCheck{Agent: cs.Agent.Name, Fix: "run intenthook init --agent " + cs.Agent.Name, Matches: cs.Matches,
		Getenv: ProjectEnv(cs.Root, cs.Agent.ProjectDirVars, cs.Env.Getenv), Ours: cs.Hooks}
	reqs, found := jc.Requirements(docs, cs.Requirements)
	checks = append(checks, reqs...)
	return true, append(checks, CheckCommands(cs.Agent.Name+" hook command", cs.Agent.Title, cs.Root, found, cs.Env.LookPath))
}

// FlatHook is one entry of a flat hooks file (Cursor, Windsurf):
// `{"hooks": {"<event>": [{"command": "…", …}]}}`.
type FlatHook struct {
	Event      string
	Subcommand string
	Args       string
	Extra      []Field // more fields of the entry, in order
	// Program is the command's program word ("" for Program, found on
	// PATH).
	Program string
}

// Field is one key and value of a JSON object.
type Field struct {
	Key   string
	Value any // string, bool or json.Number
}

// Command is the entry's command line.
func (h FlatHook) Command() string {
	return hookconfig.Hook{Subcommand: h.Subcommand, Args: h.Args, Program: h.Program}.Command()
}

// WireFlat merges hooks into the flat hooks file rel, keeping everything
// there; an event that already runs the subcommand is left as it is. With
// version set, a new file starts with "version": 1.
func WireFlat(root, rel string, version bool, hooks []FlatHook) (Change, error) {
	path := filepath.Join(root, filepath.FromSlash(rel))
	data, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Change{}, err
	}
	doc, err := hookconfig.Decode(data)
	if err != nil {
		return Change{}, &Conflict{Path: rel, Reason: "not valid JSON: " + err.Error(), Hint: "fix " + rel + " (or move it aside) and run intenthook init again"}
	}
	if _, ok := doc.Get("version"); !ok && version && !existed {
		doc.Set("version", json.Number("1"))
	}
	hv, _ := doc.Get("hooks")
	hooksObj, ok := hv.(*hookconfig.Object)
	if hv == nil {
		hooksObj, ok = &hookconfig.Object{}, true
		doc.Set("hooks", hooksObj)
	}
	if !ok {
		return Change{}, &Conflict{Path: rel, Reason: `"hooks" is not an object`, Hint: "fix " + rel}
	}
	migrated := hookconfig.MigrateNPM(doc)
	var added []string
	for _, h := range hooks {
		v, _ := hooksObj.Get(h.Event)
		list, isList := v.([]any)
		if v != nil && !isList {
			return Change{}, &Conflict{Path: rel, Reason: fmt.Sprintf(`"hooks.%s" is not a list`, h.Event), Hint: "fix " + rel}
		}
		if runsFlat(list, h.Subcommand) {
			continue
		}
		entry := &hookconfig.Object{}
		entry.Set("command", h.Command())
		for _, f := range h.Extra {
			entry.Set(f.Key, f.Value)
		}
		hooksObj.Set(h.Event, append(list, entry))
		added = append(added, h.Event+": "+h.Command())
	}
	if len(added) == 0 && len(migrated) == 0 {
		return Change{Action: Kept, Path: rel, Detail: "the hooks are wired"}, nil
	}
	out, err := hookconfig.Encode(doc)
	if err != nil {
		return Change{}, err
	}
	if err := WriteFile(path, out); err != nil {
		return Change{}, err
	}
	action := Created
	if existed {
		action = Updated
	}
	var what string
	if len(added) > 0 {
		what = "added " + strings.Join(added, ", ")
	}
	return Change{Action: action, Path: rel, Detail: joinDetails(what, describeMigrated(migrated))}, nil
}

// FlatRuns returns the entries of a flat hooks file's event list that run
// intenthook's subcommand sub.
func FlatRuns(list []any, sub string, getenv func(string) string) []hookconfig.Handler {
	var out []hookconfig.Handler
	for _, item := range list {
		o, ok := item.(*hookconfig.Object)
		if !ok {
			continue
		}
		v, _ := o.Get("command")
		cmd, _ := v.(string)
		inv, parsed := hookconfig.ParseCommand(cmd, getenv)
		if parsed && inv.Subcommand() == sub && isIntenthook(inv.Program) {
			out = append(out, hookconfig.Handler{Command: cmd, Invocation: inv, Parsed: true})
		}
	}
	return out
}

func runsFlat(list []any, sub string) bool { return len(FlatRuns(list, sub, nil)) > 0 }

// CheckFlat checks a flat hooks file: each event of hooks runs its
// subcommand, and the command resolves to an executable.
func CheckFlat(ag Agent, root, rel string, hooks []FlatHook, env CheckEnv) (bool, []Check) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	name := ag.Name + " hooks"
	if err != nil {
		return true, []Check{{Status: Fail, Name: name, Detail: err.Error()}}
	}
	doc, err := hookconfig.Decode(data)
	if err != nil {
		return true, []Check{{Status: Fail, Name: name, Detail: rel + ": " + err.Error(), Hint: "fix the JSON: " + ag.Title + " ignores a hooks file it cannot parse"}}
	}
	hv, _ := doc.Get("hooks")
	hooksObj, _ := hv.(*hookconfig.Object)
	var checks []Check
	var found []hookconfig.Handler
	for _, h := range hooks {
		var list []any
		if hooksObj != nil {
			v, _ := hooksObj.Get(h.Event)
			list, _ = v.([]any)
		}
		hs := FlatRuns(list, h.Subcommand, ProjectEnv(root, ag.ProjectDirVars, env.Getenv))
		found = append(found, hs...)
		if len(hs) == 0 {
			checks = append(checks, Check{Status: Fail, Name: ag.Name + " hook " + h.Event, Detail: "no hook runs " + Program + " " + h.Subcommand, Hint: "run intenthook init --agent " + ag.Name})
			continue
		}
		checks = append(checks, Check{Status: Pass, Name: ag.Name + " hook " + h.Event, Detail: Program + " " + h.Subcommand + " in " + rel})
	}
	return true, append(checks, CheckCommands(ag.Name+" hook command", ag.Title, root, found, env.LookPath))
}
