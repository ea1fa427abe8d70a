package gate

import (
	"errors"
	"io/fs"
	"strconv"

	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
)

// pluginsDir holds one empty file per session an agent plugin announced it
// decides (hook.PluginStart).
const pluginsDir = "plugins"

// pluginMarker is the file of the plugin announced under key by agent.
func (g *Gate) pluginMarker(agent, key string) string {
	return state.Path(g.Root, pluginsDir, state.Key(agent+"-"+key))
}

// announcePlugin records that the call's plugin decides its session's
// before-tool calls from now on.
func (g *Gate) announcePlugin() (hook.Decision, error) {
	switch {
	case g.call.Plugin == "":
		return hook.Decision{}, errors.New("a plugin announced itself under no session")
	case g.call.PluginProcess <= 0:
		return hook.Decision{}, errors.New("a plugin announced itself with no process id")
	}
	if err := state.Ensure(g.Root, pluginsDir); err != nil {
		return hook.Decision{}, err
	}
	pid := []byte(strconv.Itoa(g.call.PluginProcess))
	if err := state.WriteFile(g.pluginMarker(g.call.Agent, g.call.Plugin), pid, 0o644, false); err != nil {
		return hook.Decision{}, err
	}
	g.explain.step("plugin", "announced", g.call.Agent+" decides session "+g.call.Plugin)
	return hook.Decision{}, nil
}

// leftToPlugin reports whether a hook file's before-tool call is its
// session plugin's to decide: the plugin announced itself, its process
// still runs, and it will be asked about the same call next. A plugin
// whose process is gone leaves the call to the hook file again.
func (g *Gate) leftToPlugin() bool {
	if g.call.Plugin == "" {
		return false
	}
	data, err := osfile.ReadFile(g.pluginMarker(g.call.Agent, g.call.Plugin))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			g.note(err)
		}
		return false
	}
	pid, err := strconv.Atoi(string(data))
	return err == nil && pid > 0 && processAlive(pid)
}
