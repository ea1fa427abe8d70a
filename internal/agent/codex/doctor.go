package codex

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/intenthook/intenthook/internal/agent/protocol"
)

// checkDoubleHooks warns when the project layer holds hooks twice: Codex
// merges .codex/hooks.json with inline hook tables of .codex/config.toml
// (with a warning at startup only), so intenthook's hooks, or a person's,
// would run twice or beside a copy doctor does not read.
func checkDoubleHooks(root string) (protocol.Check, bool) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ConfigFile)))
	if err != nil {
		return protocol.Check{}, false
	}
	table, ok := inlineHooks(string(data))
	if !ok {
		return protocol.Check{}, false
	}
	return protocol.Check{Status: protocol.Warn, Name: Name + " hooks twice",
		Detail: ConfigFile + " has inline hooks (" + table + ") beside " + HooksFile + ": Codex merges both, so a hook in each runs twice, and doctor checks " + HooksFile + " only",
		Hint:   "keep the hooks in one place: move the " + ConfigFile + " hook tables into " + HooksFile + " (intenthook init wires that file)"}, true
}

// inlineHooks finds the first hook table of a Codex TOML text: a
// [hooks…] or [[hooks.…]] table, or a top-level hooks key.
func inlineHooks(text string) (string, bool) {
	sc := bufio.NewScanner(strings.NewReader(text))
	inTable := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			inTable = true
			if isHooksKey(strings.TrimLeft(line, "[ \t")) {
				return line, true
			}
			continue
		}
		if k, _, ok := strings.Cut(line, "="); ok && !inTable && isHooksKey(k) {
			return strings.TrimSpace(k), true
		}
	}
	return "", false
}

// checkPatchDeny says, on Windows, that a deny of apply_patch is not known
// to stop the patch there (reported applied after the hook denied it,
// openai/codex#27833): the grade is after the fact until a run there shows
// otherwise. goos is the system judged.
func checkPatchDeny(goos string) (protocol.Check, bool) {
	if goos == "" {
		goos = runtime.GOOS
	}
	if goos != "windows" {
		return protocol.Check{}, false
	}
	return protocol.Check{Status: protocol.Warn, Name: protocol.DenyHeldCheck(Name),
		Detail: "on Windows Codex is reported to apply a patch its PreToolUse hook denied (openai/codex#27833), and no run here has shown otherwise: a denied apply_patch may still be written",
		Hint:   "run Codex under WSL, or rely on intenthook's pre-commit hook and intenthook audit in CI for what it writes"}, true
}

// isHooksKey reports whether a TOML key (or what follows a table's
// brackets) starts with the key hooks: hooks, hooks.X, "hooks".X.
func isHooksKey(s string) bool {
	s = strings.TrimSpace(s)
	for _, name := range []string{"hooks", `"hooks"`, "'hooks'"} {
		if rest, ok := strings.CutPrefix(s, name); ok {
			rest = strings.TrimLeft(rest, " \t")
			return rest == "" || rest[0] == '.' || rest[0] == ']'
		}
	}
	return false
}
