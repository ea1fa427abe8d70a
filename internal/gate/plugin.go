package gate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/guard"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
)

// plugins is the gate's side of the agents' plugins (Cline's, OpenCode's):
// the marker a plugin leaves when it announces that it decides its
// session's calls, and what becomes of a call left to it.
type plugins struct{ *Gate }

// pluginsDir holds one empty file per session an agent plugin announced it
// decides (hook.PluginStart).
const pluginsDir = "plugins"

// pluginMarker is the file of the plugin announced under key by agent.
func (g plugins) pluginMarker(agent, key string) string {
	return state.Path(g.Root, pluginsDir, state.Key(agent+"-"+key))
}

// announcePlugin records that the call's plugin decides its session's
// before-tool calls from now on.
func (g plugins) announcePlugin() (hook.Decision, error) {
	switch {
	case g.call.Plugin == "":
		return hook.Decision{}, errors.New("a plugin announced itself under no session")
	case g.call.PluginProcess <= 0:
		return hook.Decision{}, errors.New("a plugin announced itself with no process id")
	}
	// The real plugin announces in its setup, before the session's first
	// tool call the hook file decided; anything later is a forgery (a
	// command's own tool call comes before it), and so is a second
	// announcement while the first plugin's process runs.
	if _, err := os.Lstat(g.pluginSeen(g.call.Agent, g.call.Plugin)); err == nil {
		return hook.Decision{}, fmt.Errorf("a plugin announced itself after the session's first tool call (session %s): refused; the hook file decides the session's calls", strconv.Quote(g.call.Plugin))
	}
	if err := state.Ensure(g.Root, pluginsDir); err != nil {
		return hook.Decision{}, err
	}
	marker := g.pluginMarker(g.call.Agent, g.call.Plugin)
	f, err := osfile.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) && g.pluginGone(marker) {
		// A resumed task (Cline 3: the same root session, a new process):
		// the first plugin's process is gone and the hook file has decided
		// none of the session's calls since, so the new plugin takes its
		// place. Two at once: one of them creates the marker.
		if err := os.Remove(marker); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return hook.Decision{}, err
		}
		f, err = osfile.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	}
	if errors.Is(err, fs.ErrExist) {
		return hook.Decision{}, fmt.Errorf("a plugin already announced itself for session %s: refused", strconv.Quote(g.call.Plugin))
	}
	if err != nil {
		return hook.Decision{}, err
	}
	pid := []byte(strconv.Itoa(g.call.PluginProcess))
	_, werr := f.Write(pid)
	if err := errors.Join(werr, f.Close()); err != nil {
		return hook.Decision{}, err
	}
	// Written by a hook process: the guard of a command running meanwhile
	// does not take it for the command's.
	guard.Journal(g.Root, relState(marker, g.Root), pid)
	g.explain.step("plugin", "announced", g.call.Agent+" decides session "+g.call.Plugin)
	return hook.Decision{}, nil
}

// pluginSeen is the file that says a hook file has seen a tool call of the
// session: a plugin announcing itself after it is refused.
func (g plugins) pluginSeen(agent, key string) string {
	return state.Path(g.Root, pluginsDir, "seen-"+state.Key(agent+"-"+key))
}

// relState names a path under the root root-relatively, as the guard does.
func relState(p, root string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}

// sawToolCall notes that the session's hook file has made a tool call:
// one file, created once.
func (g plugins) sawToolCall(agent, key string) {
	path := g.pluginSeen(agent, key)
	if _, err := os.Lstat(path); err == nil {
		return
	}
	if state.Ensure(g.Root, pluginsDir) != nil {
		return
	}
	if f, err := osfile.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644); err == nil {
		_ = f.Close()
		guard.Journal(g.Root, relState(path, g.Root), nil)
	}
}

// leftToPlugin reports whether a hook file's before-tool call is its
// session plugin's to decide: the plugin announced itself, its process
// still runs, and it will be asked about the same call next. A plugin
// whose process is gone leaves the call to the hook file again, and the
// call is seen: only an announcement before it takes the plugin's place.
func (g plugins) leftToPlugin() bool {
	if g.call.Plugin == "" {
		return false
	}
	pid, err := markerProcess(g.pluginMarker(g.call.Agent, g.call.Plugin))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		g.note(err)
	}
	if pid > 0 && processAlive(pid) {
		return true
	}
	// No plugin, or its process is gone: the hook file decides this call,
	// and an announcement after it is refused.
	g.sawToolCall(g.call.Agent, g.call.Plugin)
	return false
}

// pluginGone reports whether the plugin marker names a process that no
// longer runs.
func (g plugins) pluginGone(marker string) bool {
	pid, _ := markerProcess(marker)
	return pid > 0 && !processAlive(pid)
}

// markerProcess returns the process id a plugin marker names, 0 when it
// names none.
func markerProcess(marker string) (int, error) {
	data, err := osfile.ReadFile(marker)
	if err != nil {
		return 0, err
	}
	pid, _ := strconv.Atoi(string(data))
	return max(pid, 0), nil
}

// CodePluginAbsent is the violation of a call the hook file left to the
// session's plugin to deny, which ran: the plugin was never asked (a
// forged announcement), so the session's calls are the hook file's again.
const CodePluginAbsent = "plugin_absent"

// pluginAbsent takes the session's marker out and records the violation.
func (g plugins) pluginAbsent(ctx context.Context, intentID string) hook.Decision {
	// A call the plugin refused comes back failed, or with the deny as
	// its result: the plugin did its part.
	if g.call.Plugin == "" || g.call.Failed || strings.Contains(g.call.Error, "intenthook: deny [") ||
		(g.call.ResponseContent != nil && strings.Contains(*g.call.ResponseContent, "intenthook: deny [")) {
		return hook.Decision{}
	}
	marker := g.pluginMarker(g.call.Agent, g.call.Plugin)
	if err := os.Remove(marker); err != nil && !errors.Is(err, fs.ErrNotExist) {
		g.note(err)
	}
	g.explain.step("plugin", "absent", "a call left to the plugin to deny ran")
	r := g.record(ledger.EventViolation, intentID)
	m := &r.Metadata.Intenthook
	m.ScopeValidation, m.Decision, m.Code, m.Success = ledger.ScopeFail, "violation", CodePluginAbsent, false
	m.Command = g.call.Command
	g.note(g.appendRecords(ctx, r))
	msg := fmt.Sprintf("intenthook: violation [%s] %s ran though intenthook denied it: the session's plugin, which gives the denies, never asked\n", CodePluginAbsent, g.call.ToolName) +
		"why: the plugin's announcement for this session was not the plugin's; from now on the hook file decides the session's calls\n" +
		"instead: undo what the call changed, then retry it; the deny it gets now says why"
	return hook.Decision{Violation: true, Code: CodePluginAbsent, Message: msg}
}
