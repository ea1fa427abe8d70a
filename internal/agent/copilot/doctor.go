package copilot

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/safetext"
)

// PromptModeVar lets Copilot CLI's prompt mode (copilot -p, a headless
// run) run a repository's hooks; unset, such a run skips .github/hooks/
// (akasecurity/ai-tc#411, 2026-09). Folder trust is needed as well.
const PromptModeVar = "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS"

// checkPromptMode warns when the variable that lets prompt mode run the
// repository's hooks is unset or off in doctor's environment.
func checkPromptMode(getenv func(string) string) protocol.Check {
	const name = "copilot prompt mode"
	v := ""
	if getenv != nil {
		v = strings.TrimSpace(getenv(PromptModeVar))
	}
	switch strings.ToLower(v) {
	case "", "0", "false", "no", "off":
		return protocol.Check{Status: protocol.Warn, Name: name,
			Detail: PromptModeVar + " is not set here: a headless run (copilot -p) skips the repository's hooks in .github/hooks/, so nothing it does is governed",
			Hint:   "in CI and scripts export " + PromptModeVar + "=1 and run in a trusted folder (--trust-folder or COPILOT_ALLOW_ALL=true); an interactive session needs neither"}
	}
	return protocol.Check{Status: protocol.Pass, Name: name, Detail: PromptModeVar + "=" + v + ": a headless run (copilot -p) runs the repository's hooks, in a trusted folder"}
}

// pluginHooks lists the hook files of Copilot plugins that run intenthook:
// plugins in the workspace (a plugin.json beside hooks.json or
// hooks/hooks.json) and those installed under the user's Copilot home.
// Copilot CLI does not run a plugin's hooks (github/copilot-cli#2540, still
// on 1.0.60): such a file governs nothing. Bounded globs, doctor only.
func pluginHooks(root string, getenv func(string) string) []string {
	var patterns []string
	for _, dir := range []string{"", ".github/plugin", ".plugin", ".github/plugins/*", "plugins/*"} {
		base := filepath.Join(root, filepath.FromSlash(dir))
		patterns = append(patterns, filepath.Join(base, "hooks.json"), filepath.Join(base, "hooks", "hooks.json"))
	}
	if home := copilotHome(getenv); home != "" {
		for _, depth := range []string{"*", "*/*"} {
			base := filepath.Join(home, "installed-plugins", filepath.FromSlash(depth))
			patterns = append(patterns, filepath.Join(base, "hooks.json"), filepath.Join(base, "hooks", "hooks.json"))
		}
	}
	var out []string
	for _, p := range patterns {
		matches, _ := filepath.Glob(p)
		for _, m := range matches {
			dir := filepath.Dir(m)
			if filepath.Base(dir) == "hooks" {
				dir = filepath.Dir(dir)
			}
			if _, err := os.Stat(filepath.Join(dir, "plugin.json")); err != nil {
				continue // not a plugin's
			}
			if data, err := os.ReadFile(m); err == nil && bytes.Contains(data, []byte("intenthook")) {
				out = append(out, m)
			}
		}
	}
	sort.Strings(out)
	return out
}

// copilotHome is $COPILOT_HOME, else ~/.copilot; "" when neither is known.
func copilotHome(getenv func(string) string) string {
	if getenv == nil {
		return ""
	}
	if h := getenv("COPILOT_HOME"); h != "" {
		return h
	}
	for _, v := range []string{"HOME", "USERPROFILE"} {
		if h := getenv(v); h != "" {
			return filepath.Join(h, ".copilot")
		}
	}
	return ""
}

// checkPlugins says that a Copilot plugin's intenthook hooks do not run:
// a warning beside the repository's wiring, a failure without it.
func checkPlugins(root string, getenv func(string) string, wired bool) (protocol.Check, bool) {
	files := pluginHooks(root, getenv)
	if len(files) == 0 {
		return protocol.Check{}, false
	}
	shown := make([]string, len(files))
	for i, f := range files {
		if rel, err := filepath.Rel(root, f); err == nil && !strings.HasPrefix(rel, "..") {
			f = filepath.ToSlash(rel)
		}
		shown[i] = safetext.Quote(f)
	}
	c := protocol.Check{Status: protocol.Warn, Name: "copilot plugin hooks",
		Detail: "a Copilot plugin's hooks run intenthook (" + strings.Join(shown, ", ") + "), and Copilot CLI runs no plugin's hooks (github/copilot-cli#2540): only " + HooksFile + " governs",
		Hint:   "remove intenthook from the plugin's hooks; intenthook init --agent copilot wires " + HooksFile}
	if !wired {
		c.Status, c.Name = protocol.Fail, protocol.HooksRunCheck(Name)
		c.Detail = "intenthook's Copilot hooks are only in a plugin (" + strings.Join(shown, ", ") + "), and Copilot CLI runs no plugin's hooks (github/copilot-cli#2540): nothing is governed"
		c.Hint = "run intenthook init --agent copilot: it wires " + HooksFile
	}
	return c, true
}
