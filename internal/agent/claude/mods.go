package claude

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/safetext"
)

// DevModsDir is the folder, under Claude Code's configuration home
// ($CLAUDE_CONFIG_DIR, else ~/.claude), from which it loads the mods Claude
// writes: plugins whose hooks module (hooks/register.ts) runs in Claude
// Code's own process and sees tool.call before any settings hook
// (docs/agents.md, "Mods").
const DevModsDir = "dev-mods"

// ModsCheck names doctor's line listing the mods that would load.
var ModsCheck = protocol.ModsCheck(Name)

// ModsDirs are the dev-mods folders Claude Code may load from for this
// environment: under ~/.claude and under $CLAUDE_CONFIG_DIR when it is set
// elsewhere. Both are kept: the agent's next run may set either.
func ModsDirs(getenv func(string) string) []string {
	var dirs []string
	if home := cmp.Or(getenv("HOME"), getenv("USERPROFILE")); home != "" {
		dirs = append(dirs, filepath.Join(home, ".claude", DevModsDir))
	}
	if cfg := getenv("CLAUDE_CONFIG_DIR"); cfg != "" && filepath.IsAbs(cfg) {
		d := filepath.Join(filepath.Clean(cfg), DevModsDir)
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// modsCheck lists the files under the dev-mods folders: a mod among them
// runs inside Claude Code before intenthook's hooks, so it warns, and the
// grade drops to guarded while one is present.
func modsCheck(getenv func(string) string) protocol.Check {
	c := protocol.Check{Status: protocol.Pass, Name: ModsCheck}
	if getenv == nil {
		c.Detail = "no environment to find the configuration home in"
		return c
	}
	dirs := ModsDirs(getenv)
	var found []string
	const most = 20
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			found = append(found, p)
			return nil
		})
	}
	if len(found) == 0 {
		c.Detail = "none in " + strings.Join(dirs, ", ")
		return c
	}
	sort.Strings(found)
	shown := found
	if len(shown) > most {
		shown = shown[:most]
	}
	quoted := make([]string, len(shown))
	for i, p := range shown {
		quoted[i] = safetext.Quote(p)
	}
	c.Status = protocol.Warn
	c.Detail = "a mod runs inside Claude Code and sees each tool call before intenthook's hooks: " + strings.Join(quoted, ", ")
	if len(found) > most {
		c.Detail += ", …"
	}
	c.Hint = "remove what you did not write yourself from " + strings.Join(dirs, ", ") + " (an agent's write there is refused)"
	return c
}
