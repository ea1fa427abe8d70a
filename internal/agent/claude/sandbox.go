package claude

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// Sandbox turns on Claude Code's sandbox for its shell tool (bubblewrap on
// Linux, Seatbelt on macOS) in .claude/settings.json and adds the
// governance files to sandbox.filesystem.denyWrite, keeping every entry and
// setting there: sandboxed commands then write only in the workspace and
// temp, and never the rules. Keys checked against Claude Code 2.1.330's own
// settings schema: sandbox.enabled, sandbox.filesystem.denyWrite (paths
// relative to the project root in project settings). A sandbox someone set
// to false is left off and reported.
func Sandbox(root string, governance []string) (protocol.Change, error) {
	path := filepath.Join(root, filepath.FromSlash(SettingsFile))
	data, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return protocol.Change{}, err
	}
	settings, err := hookconfig.Decode(data)
	if err != nil {
		return protocol.Change{}, &protocol.Conflict{Path: SettingsFile, Reason: "not valid JSON: " + err.Error(), Hint: "fix it and run intenthook init --sandbox again"}
	}
	sandbox, err := object(settings, "sandbox")
	if err != nil {
		return protocol.Change{}, &protocol.Conflict{Path: SettingsFile, Reason: err.Error(), Hint: "fix the sandbox block"}
	}
	var did, notes []string
	switch v, ok := sandbox.Get("enabled"); {
	case !ok:
		sandbox.Set("enabled", true)
		did = append(did, "sandbox.enabled")
	case v == false:
		notes = append(notes, "sandbox.enabled is false in "+SettingsFile+": left as it is; shell commands are not sandboxed until a person turns it on")
	}
	// Without it the model may mark any command dangerouslyDisableSandbox
	// and, under the sandbox's auto-allow, run it outside unprompted.
	switch v, ok := sandbox.Get(allowUnsandboxed); {
	case !ok:
		sandbox.Set(allowUnsandboxed, false)
		did = append(did, "sandbox."+allowUnsandboxed+" = false")
	case v != false:
		notes = append(notes, "sandbox."+allowUnsandboxed+" is not false in "+SettingsFile+": left as it is; a command the model marks dangerouslyDisableSandbox runs outside the sandbox (intenthook asks a person about each one that may write)")
	}
	fsObj, err := object(sandbox, "filesystem")
	if err != nil {
		return protocol.Change{}, &protocol.Conflict{Path: SettingsFile, Reason: "sandbox." + err.Error(), Hint: "fix the sandbox block"}
	}
	have, _ := fsObj.Get("denyWrite")
	list, isList := have.([]any)
	if have != nil && !isList {
		return protocol.Change{}, &protocol.Conflict{Path: SettingsFile, Reason: "sandbox.filesystem.denyWrite is not a list", Hint: "fix the sandbox block"}
	}
	var added []string
	for _, g := range governance {
		if !slices.ContainsFunc(list, func(v any) bool { return v == g }) {
			list = append(list, g)
			added = append(added, g)
		}
	}
	if len(added) > 0 {
		fsObj.Set("denyWrite", list)
		did = append(did, "sandbox.filesystem.denyWrite: "+strings.Join(added, ", "))
	}
	if len(did) == 0 {
		return protocol.Change{Action: protocol.Kept, Path: SettingsFile, Detail: "the sandbox settings are in place", Notes: notes}, nil
	}
	out, err := hookconfig.Encode(settings)
	if err != nil {
		return protocol.Change{}, err
	}
	if err := protocol.WriteFile(path, out); err != nil {
		return protocol.Change{}, err
	}
	action := protocol.Updated
	if !existed {
		action = protocol.Created
	}
	notes = append(notes, "Claude Code's sandbox needs bubblewrap and socat on Linux (apt install bubblewrap socat); without them it warns and runs commands unsandboxed")
	return protocol.Change{Action: action, Path: SettingsFile, Detail: "added " + strings.Join(did, "; "), Notes: notes}, nil
}

// allowUnsandboxed is the sandbox key that lets a command the model marks
// dangerouslyDisableSandbox run outside the sandbox (true when absent).
const allowUnsandboxed = "allowUnsandboxedCommands"

// object returns o's object member key, adding an empty one.
func object(o *hookconfig.Object, key string) (*hookconfig.Object, error) {
	v, ok := o.Get(key)
	if !ok || v == nil {
		n := &hookconfig.Object{}
		o.Set(key, n)
		return n, nil
	}
	n, ok := v.(*hookconfig.Object)
	if !ok {
		return nil, errors.New(key + " is not an object")
	}
	return n, nil
}

// sandboxCheck reports whether the settings sandbox the shell tool, and
// what is unguarded when not; enabled is whether they turn it on at all.
func sandboxCheck(docs []protocol.SettingsDoc, governance []string) (c protocol.Check, enabled bool) {
	const name = "claude sandbox"
	// The escape is shut when a file sets it false and none sets it
	// otherwise (which file wins depends on Claude Code's precedence).
	shut, open, denied := false, false, map[string]bool{}
	for _, d := range docs {
		sv, _ := d.Doc.Get("sandbox")
		sb, _ := sv.(*hookconfig.Object)
		if sb == nil {
			continue
		}
		if v, ok := sb.Get("enabled"); ok && v == true {
			enabled = true
		}
		if v, ok := sb.Get(allowUnsandboxed); ok {
			shut, open = shut || v == false, open || v != false
		}
		fv, _ := sb.Get("filesystem")
		if fo, _ := fv.(*hookconfig.Object); fo != nil {
			dv, _ := fo.Get("denyWrite")
			list, _ := dv.([]any)
			for _, e := range list {
				if s, ok := e.(string); ok {
					denied[s] = true
				}
			}
		}
	}
	if !enabled {
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: "the shell tool is not sandboxed: a program the hooks cannot model (a Makefile, a script, awk) can write outside the workspace or to the rules, and only the backstop and precommit notice",
			Hint: "intenthook init --sandbox turns Claude Code's sandbox on with the governance files read-only"}, false
	}
	var writable []string
	for _, g := range governance {
		if !denied[g] {
			writable = append(writable, g)
		}
	}
	if len(writable) > 0 {
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: "sandboxed, but these are writable to sandboxed commands: " + strings.Join(writable, ", "), Hint: "intenthook init --sandbox adds them to sandbox.filesystem.denyWrite"}, true
	}
	if open || !shut {
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: "sandboxed, but a command the model marks dangerouslyDisableSandbox runs outside it (sandbox." + allowUnsandboxed + " is not false); intenthook asks a person about each one that may write",
			Hint: "intenthook init --sandbox sets sandbox." + allowUnsandboxed + " to false"}, true
	}
	return protocol.Check{Status: protocol.Pass, Name: name, Detail: "sandbox.enabled, sandbox." + allowUnsandboxed + " false, governance files in sandbox.filesystem.denyWrite"}, true
}

// sandboxHere reports whether Claude Code's sandbox can run on this
// machine: on Linux it needs bwrap (bubblewrap) and socat on PATH, and
// bwrap able to make its namespaces (a kernel or AppArmor policy may
// forbid unprivileged user namespaces); on macOS, sandbox-exec (Seatbelt).
// Where it cannot, Claude Code warns and runs commands unsandboxed. doctor
// alone runs it: one short bwrap process, never on a hook's path.
func sandboxHere(env protocol.CheckEnv) protocol.Check {
	const name = "claude sandbox here"
	goos := env.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	look := env.LookPath
	if look == nil {
		return protocol.Check{Status: protocol.Skip, Name: name, Detail: "PATH was not searched"}
	}
	switch goos {
	case "linux":
	case "darwin":
		if p, err := look("sandbox-exec"); err == nil {
			return protocol.Check{Status: protocol.Pass, Name: name, Detail: "sandbox-exec (Seatbelt) on PATH: " + p}
		}
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: "sandbox-exec (Seatbelt) is not on PATH: Claude Code runs commands unsandboxed", Hint: "put /usr/bin on the PATH Claude Code runs with"}
	default:
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: "Claude Code's sandbox runs on Linux and macOS only, not on " + goos + ": commands run unsandboxed", Hint: "run Claude Code in WSL 2 for its sandbox"}
	}
	var missing, found []string
	paths := map[string]string{}
	for _, prog := range []string{"bwrap", "socat"} {
		p, err := look(prog)
		if err != nil {
			missing = append(missing, prog+" is not on PATH")
			continue
		}
		paths[prog] = p
		found = append(found, prog+" "+p)
	}
	if len(missing) > 0 {
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: strings.Join(missing, ", ") + ": Claude Code cannot start its sandbox and runs commands unsandboxed",
			Hint: "install them (apt install bubblewrap socat, dnf install bubblewrap socat)"}
	}
	if env.Run == nil {
		return protocol.Check{Status: protocol.Skip, Name: name, Detail: strings.Join(found, ", ") + " on PATH; bwrap was not run"}
	}
	if err := env.Run(paths["bwrap"], "--ro-bind", "/", "/", "true"); err != nil {
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: "bwrap --ro-bind / / true fails here (" + oneLine(err.Error()) + "): Claude Code cannot start its sandbox and runs commands unsandboxed",
			Hint: "bwrap needs unprivileged user namespaces: check sysctl kernel.unprivileged_userns_clone and user.max_user_namespaces, and AppArmor's kernel.apparmor_restrict_unprivileged_userns (Ubuntu 24.04); in a container, run it with them allowed"}
	}
	return protocol.Check{Status: protocol.Pass, Name: name, Detail: strings.Join(found, ", ") + " on PATH; bwrap --ro-bind / / true runs"}
}

// oneLine keeps the first line of s.
func oneLine(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return first
}
