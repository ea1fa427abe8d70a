package antigravity

import (
	"fmt"
	"strconv"

	"github.com/intenthook/intenthook/internal/agent/protocol"
)

// Program is the Antigravity CLI's command.
const Program = "agy"

// version is a CLI version, major.minor.patch.
type version [3]int

func (v version) String() string { return fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2]) }

func (v version) less(w version) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

// parseVersion finds the first x.y.z in a --version line (by hand: a
// regular expression compiled at start-up would cost every hook call).
func parseVersion(s string) (version, bool) {
	for i := 0; i < len(s); i++ {
		if i > 0 && isDigit(s[i-1]) || !isDigit(s[i]) {
			continue
		}
		var v version
		j, ok := i, true
		for k := range v {
			start := j
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			n, err := strconv.Atoi(s[start:j])
			if err != nil {
				ok = false
				break
			}
			v[k] = n
			if k < 2 {
				if j >= len(s) || s[j] != '.' {
					ok = false
					break
				}
				j++
			}
		}
		if ok {
			return v, true
		}
	}
	return version{}, false
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// The version ranges the sources describe (docs/agents.md, "Antigravity
// CLI by version").
var (
	dropsToolEvents = version{1, 1, 26} // from: PreToolUse/PostToolUse dropped (claude-remember#553, #564)
	workspaceHooks  = version{1, 2, 0}  // from: .agents/hooks.json runs (antigravity-cli#562; uxnan#245 on 1.2.7)
)

// versionCheck grades the installed CLI's version: 1.1.26–1.1.27 drop the
// tool events, so nothing is governed (a failure, after the fact); from 1.2
// the workspace's hooks file runs; before 1.1.26 the sources disagree on
// whether a plugin is needed. Unknown (no agy, no version): what each range
// does, as a warning.
func versionCheck(env protocol.CheckEnv) protocol.Check {
	name := Name + " version"
	v, found := installed(env)
	switch {
	case !found:
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: "no " + Program + " --version here: whether the hooks fire depends on it (1.1.26–1.1.27 drop PreToolUse and PostToolUse; a 1.1.x CLI may run a project's hooks only from an installed plugin; 1.2 and later run " + HooksFile + ")",
			Hint: "run intenthook doctor where " + Program + " is on PATH; see the Antigravity CLI section of docs/agents.md"}
	case !v.less(workspaceHooks):
		return protocol.Check{Status: protocol.Pass, Name: name, Detail: Program + " " + v.String() + ": 1.2 and later run " + HooksFile + " (its /hooks listing may show it empty)"}
	case !v.less(dropsToolEvents) && v.less(version{1, 1, 28}):
		return protocol.Check{Status: protocol.Fail, Name: protocol.HooksRunCheck(Name), Detail: Program + " " + v.String() + " loads no PreToolUse or PostToolUse hook (1.1.26–1.1.27 drop them silently): no tool call is governed",
			Hint: "upgrade the Antigravity CLI to 1.2 or later (" + Program + " update), or rely on intenthook's pre-commit hook and audit"}
	case !v.less(dropsToolEvents):
		return protocol.Check{Status: protocol.Warn, Name: name, Detail: Program + " " + v.String() + ": no source describes how this version loads hooks (1.1.26–1.1.27 drop the tool events; 1.2 runs " + HooksFile + ")",
			Hint: "upgrade to 1.2 or later; check ~/.gemini/antigravity-cli/cli.log for the hooks it loaded"}
	}
	return protocol.Check{Status: protocol.Warn, Name: name, Detail: Program + " " + v.String() + ": the sources disagree whether a CLI before 1.1.26 runs " + HooksFile + " (captures on 1.1.21 and 1.1.22) or a project's hooks only from an installed plugin",
		Hint: notes[0]}
}

// installed asks agy for its version.
func installed(env protocol.CheckEnv) (version, bool) {
	if env.LookPath == nil || env.Output == nil {
		return version{}, false
	}
	path, err := env.LookPath(Program)
	if err != nil {
		return version{}, false
	}
	out, err := env.Output(path, "--version")
	if err != nil {
		return version{}, false
	}
	return parseVersion(out)
}
