package described

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// wiring is one hook init writes: the agent's event, its matcher, the
// subcommand.
type wiring struct {
	role, event, matcher, sub string
}

// wirings lists the hooks the agent needs, in role order.
func (d *Description) wirings() []wiring {
	var out []wiring
	for _, r := range roleEvent {
		name := d.Events[r.role]
		if name == "" {
			continue
		}
		w := wiring{role: r.role, event: name, sub: r.sub}
		if r.role == RolePre || r.role == RolePost || r.role == RolePostFailure {
			w.matcher = d.matcher(r.role)
		}
		out = append(out, w)
	}
	return out
}

// args are the hook command's arguments after the subcommand.
func (d *Description) args() string {
	a := "--agent " + d.Name
	if d.Settings.Root {
		a += ` --root "$` + d.ProjectDirEnv[0] + `"`
	}
	return a
}

func (d *Description) command(sub string) string {
	return hookconfig.Hook{Subcommand: sub, Args: d.args()}.Command()
}

// container returns the object holding the event lists of doc (doc itself
// for the events shape), adding an empty "hooks" object where there is
// none.
func (d *Description) container(doc *hookconfig.Object, add bool) (*hookconfig.Object, error) {
	if d.Settings.Shape == ShapeEvents {
		return doc, nil
	}
	v, ok := doc.Get("hooks")
	if !ok || v == nil {
		if !add {
			return nil, nil
		}
		o := &hookconfig.Object{}
		doc.Set("hooks", o)
		return o, nil
	}
	o, ok := v.(*hookconfig.Object)
	if !ok {
		return nil, errors.New(`"hooks" is not an object`)
	}
	return o, nil
}

// runs returns the handlers of the agent's event in the container that
// run intenthook's subcommand sub.
func (d *Description) runs(hooks *hookconfig.Object, event, sub string, getenv func(string) string) []hookconfig.Handler {
	if hooks == nil {
		return nil
	}
	v, _ := hooks.Get(event)
	list, _ := v.([]any)
	if d.Settings.Shape == ShapeFlat {
		hs := protocol.FlatRuns(list, sub, getenv)
		for i := range hs {
			hs[i].Event = event
			if o, ok := flatEntry(list, hs[i].Command); ok {
				m, _ := o.Get("matcher")
				hs[i].Matcher, _ = m.(string)
			}
		}
		return hs
	}
	wrapper := &hookconfig.Object{}
	wrapper.Set("hooks", hooks)
	return hookconfig.Runs(wrapper, event, sub, getenv)
}

func flatEntry(list []any, command string) (*hookconfig.Object, bool) {
	for _, item := range list {
		if o, ok := item.(*hookconfig.Object); ok {
			if c, _ := o.Get("command"); c == command {
				return o, true
			}
		}
	}
	return nil, false
}

// entry is the JSON init adds for w: a matcher group holding one command
// handler, or a flat entry.
func (d *Description) entry(w wiring) *hookconfig.Object {
	handler := &hookconfig.Object{}
	if d.Settings.Shape != ShapeFlat {
		handler.Set("type", "command")
	}
	handler.Set("command", d.command(w.sub))
	if d.Settings.Timeout > 0 {
		handler.Set(d.Settings.TimeoutKey, json.Number(fmt.Sprint(d.Settings.Timeout)))
	}
	for _, f := range d.Settings.Handler {
		handler.Set(f.Key, f.Value)
	}
	if d.Settings.Shape == ShapeFlat {
		if w.matcher != "" {
			handler.Set("matcher", w.matcher)
		}
		return handler
	}
	g := &hookconfig.Object{}
	if w.matcher != "" {
		g.Set("matcher", w.matcher)
	}
	g.Set("hooks", []any{handler})
	return g
}

// PerUser reports whether the agent reads its hooks only from the user's
// JSON file (Junie's ~/.junie/config.json): init --user writes it, and
// nothing in the repository wires the agent.
func (d *Description) PerUser() bool {
	return d.Settings.Project == "" && d.Settings.User != "" && d.Settings.Shape != ShapeUserTOML
}

// userPath is the user's settings file under home.
func (d *Description) userPath(home string) string {
	return filepath.Join(home, filepath.FromSlash(strings.TrimPrefix(d.Settings.User, "~/")))
}

// Wire merges the agent's hooks into its project settings file under root,
// keeping every other key and hook; an event that already runs the
// subcommand is left as it is. An agent configured per user only gets no
// file: the change's notes say what the person does.
func (d *Description) Wire(root string) (protocol.Change, error) {
	if d.Settings.Shape == ShapeUserTOML {
		return protocol.Change{Action: protocol.Kept, Path: d.Settings.User, Detail: "configured per user only: nothing written in the repository",
			Notes: append([]string{"add to " + d.Settings.User + ":\n" + d.TOMLSnippet()}, d.Notes...)}, nil
	}
	if d.PerUser() {
		return protocol.Change{Action: protocol.Kept, Path: d.Settings.User, Detail: "configured per user only: nothing written in the repository",
			Notes: append([]string{d.Title + " reads hooks only from the user's " + d.Settings.User + ": run intenthook init --agent " + d.Name + " --user to wire them there"}, d.Notes...)}, nil
	}
	rel := d.Settings.Project
	return d.wireFile(filepath.Join(root, filepath.FromSlash(rel)), rel)
}

// WireUser merges the agent's hooks into the user's settings file under
// home, as Wire does into a project's: every other key and hook is kept.
func (d *Description) WireUser(home string) (protocol.Change, error) {
	if !d.PerUser() {
		return protocol.Change{}, fmt.Errorf("%s is wired in the repository, not per user", d.Title)
	}
	if home == "" {
		return protocol.Change{}, errors.New("no home directory (HOME is not set)")
	}
	return d.wireFile(d.userPath(home), d.Settings.User)
}

// wireFile merges the agent's hooks into the settings file at path (shown
// to people as shown).
func (d *Description) wireFile(path, shown string) (protocol.Change, error) {
	rel := shown
	data, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return protocol.Change{}, err
	}
	if !existed && len(d.Settings.New) > 0 {
		data = d.Settings.New
	}
	doc, err := hookconfig.Decode(data)
	if err != nil {
		return protocol.Change{}, &protocol.Conflict{Path: rel, Reason: "not valid JSON: " + err.Error(), Hint: "fix " + rel + " (or move it aside) and run intenthook init again"}
	}
	hooks, err := d.container(doc, true)
	if err != nil {
		return protocol.Change{}, &protocol.Conflict{Path: rel, Reason: err.Error(), Hint: "fix " + rel}
	}
	migrated := 0
	if d.Settings.Shape != ShapeEvents {
		migrated = len(hookconfig.MigrateNPM(doc))
	}
	var added []string
	for _, w := range d.wirings() {
		if len(d.runs(hooks, w.event, w.sub, nil)) > 0 {
			continue
		}
		v, _ := hooks.Get(w.event)
		list, isList := v.([]any)
		if v != nil && !isList {
			return protocol.Change{}, &protocol.Conflict{Path: rel, Reason: fmt.Sprintf("%q is not a list", w.event), Hint: "fix " + rel}
		}
		hooks.Set(w.event, append(list, d.entry(w)))
		added = append(added, w.event+": "+d.command(w.sub))
	}
	ch := protocol.Change{Action: protocol.Kept, Path: rel, Detail: "the hooks are wired", Notes: d.Notes}
	if len(added) == 0 && migrated == 0 {
		return ch, nil
	}
	out, err := hookconfig.Encode(doc)
	if err != nil {
		return protocol.Change{}, err
	}
	if err := protocol.WriteFile(path, out); err != nil {
		return protocol.Change{}, err
	}
	ch.Action = protocol.Updated
	if !existed {
		ch.Action = protocol.Created
	}
	var detail []string
	if len(added) > 0 {
		detail = append(detail, "added "+strings.Join(added, ", "))
	}
	if migrated > 0 {
		detail = append(detail, fmt.Sprintf("rewrote %d hook command(s) from npm's link to the package's binary", migrated))
	}
	ch.Detail = strings.Join(detail, "; ")
	return ch, nil
}

// TOMLSnippet is the [[hooks]] tables a person adds to a user_toml agent's
// file.
func (d *Description) TOMLSnippet() string {
	var b strings.Builder
	for _, w := range d.wirings() {
		b.WriteString("[[hooks]]\n")
		fmt.Fprintf(&b, "event = %q\n", w.event)
		if w.matcher != "" {
			fmt.Fprintf(&b, "matcher = %q\n", w.matcher)
		}
		fmt.Fprintf(&b, "command = %q\n", d.command(w.sub))
		if d.Settings.Timeout > 0 {
			fmt.Fprintf(&b, "%s = %d\n", d.Settings.TimeoutKey, d.Settings.Timeout)
		}
	}
	return b.String()
}

// Check inspects the wiring: each event runs its subcommand for the tools
// it must see, and the command resolves. It adds what governance rests on
// that no file shows: a tool call whose input lacks its path or command
// is denied (target_unknown) in both fail modes, an unreadable event
// follows the fail mode, and, for a per-user agent, that its wiring is
// outside the repository and unwatched.
func (d *Description) Check(root string, env protocol.CheckEnv) (bool, []protocol.Check) {
	if d.Settings.Shape == ShapeUserTOML {
		return d.checkUserTOML(env)
	}
	var files [][2]string
	if d.Settings.Project != "" {
		files = append(files, [2]string{d.Settings.Project, filepath.Join(root, filepath.FromSlash(d.Settings.Project))})
	}
	if d.Settings.User != "" && env.Getenv != nil && env.Getenv("HOME") != "" {
		files = append(files, [2]string{d.Settings.User, d.userPath(env.Getenv("HOME"))})
	}
	docs, checks := protocol.LoadSettings(d.Name+" settings", files)
	getenv := protocol.ProjectEnv(root, d.ProjectDirEnv, env.Getenv)
	var found []hookconfig.Handler
	wired := false
	type result struct {
		w     wiring
		hs    []hookconfig.Handler
		where []string
	}
	var results []result
	for _, w := range d.wirings() {
		r := result{w: w}
		for _, doc := range docs {
			hooks, _ := d.container(doc.Doc, false)
			hs := d.runs(hooks, w.event, w.sub, getenv)
			if len(hs) > 0 {
				r.where = append(r.where, doc.Name)
			}
			r.hs = append(r.hs, hs...)
		}
		wired = wired || len(r.hs) > 0
		found = append(found, r.hs...)
		results = append(results, r)
	}
	if !wired {
		return len(checks) > 0, checks
	}
	for _, r := range results {
		name := d.Name + " hook " + r.w.event
		command := protocol.Program + " " + r.w.sub
		if len(r.hs) == 0 {
			checks = append(checks, protocol.Check{Status: protocol.Fail, Name: name, Detail: "no handler runs " + command, Hint: "run intenthook init --agent " + d.Name})
			continue
		}
		var missing []string
		if r.w.matcher != "" && r.w.role != RolePostFailure {
			for _, t := range d.governedTools(r.w.role) {
				covered := false
				for _, h := range r.hs {
					covered = covered || h.Matcher == "" || h.Matcher == "*" || hookconfig.Matches(h.Matcher, t)
				}
				if !covered {
					missing = append(missing, t)
				}
			}
		}
		if len(missing) > 0 {
			checks = append(checks, protocol.Check{Status: protocol.Fail, Name: name, Detail: command + " does not run for " + strings.Join(missing, ", "),
				Hint: fmt.Sprintf("use the matcher %q, as intenthook init writes it", r.w.matcher)})
			continue
		}
		checks = append(checks, protocol.Check{Status: protocol.Pass, Name: name, Detail: command + " in " + strings.Join(r.where, ", ")})
	}
	checks = append(checks, protocol.CheckCommands(d.Name+" hook command", d.Title, root, found, env.LookPath))
	if d.PerUser() {
		checks = append(checks, d.userWiringCheck())
	}
	return true, append(checks, d.fieldsCheck())
}

// userWiringCheck says what a wiring in the user's file leaves open: no
// guard watches it, and its hooks run in every project the user opens.
func (d *Description) userWiringCheck() protocol.Check {
	return protocol.Check{Status: protocol.Warn, Name: d.Name + " wiring",
		Detail: d.Settings.User + " is the user's, outside the repository: no guard watches it, and a program that edits it turns governance off for " + d.Title + "; its hooks run in every project, and a project outside any governed tree is left alone",
		Hint:   "precommit and audit still judge every commit; keep " + d.Settings.User + " out of an agent's reach"}
}

// fieldsCheck says how the agent's events are read when a field is
// missing.
func (d *Description) fieldsCheck() protocol.Check {
	var keys []string
	for _, t := range d.Tools {
		switch t.Tool.Class {
		case hook.ClassWrite, hook.ClassDelete:
			k := strings.Join(t.Tool.Path, "/")
			if t.Tool.Patch != "" {
				k = t.Tool.Patch
			}
			if k != "" {
				keys = append(keys, t.Name+"."+k)
			}
		case hook.ClassShell:
			keys = append(keys, t.Name+"."+t.Tool.Command)
		}
	}
	return protocol.Check{Status: protocol.Pass, Name: d.Name + " event fields",
		Detail: "a call whose input lacks its field (" + strings.Join(keys, ", ") + ") is denied target_unknown in both fail modes; an event that is not one JSON object follows fail_mode"}
}

func (d *Description) checkUserTOML(env protocol.CheckEnv) (bool, []protocol.Check) {
	if env.Getenv == nil || env.Getenv("HOME") == "" {
		return false, nil
	}
	path := filepath.Join(env.Getenv("HOME"), filepath.FromSlash(strings.TrimPrefix(d.Settings.User, "~/")))
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), "--agent "+d.Name) {
		return false, nil
	}
	var checks []protocol.Check
	for _, w := range d.wirings() {
		name := d.Name + " hook " + w.event
		if strings.Contains(string(data), d.command(w.sub)) && strings.Contains(string(data), fmt.Sprintf("event = %q", w.event)) {
			checks = append(checks, protocol.Check{Status: protocol.Pass, Name: name, Detail: protocol.Program + " " + w.sub + " in " + d.Settings.User})
		} else {
			checks = append(checks, protocol.Check{Status: protocol.Fail, Name: name, Detail: "no [[hooks]] table runs " + protocol.Program + " " + w.sub,
				Hint: "add the tables intenthook init --agent " + d.Name + " prints to " + d.Settings.User})
		}
	}
	checks = append(checks, protocol.Check{Status: protocol.Warn, Name: d.Name + " wiring",
		Detail: d.Settings.User + " is the user's, outside the repository: no guard watches it, and a program that edits it turns governance off for " + d.Title,
		Hint:   "grade: guarded only while the user's file keeps the hooks; precommit and audit still judge every commit"})
	return true, append(checks, d.fieldsCheck())
}
