package described

import (
	"os"
	"strconv"
	"strings"
)

// maxAncestors bounds the walk up the process tree.
const maxAncestors = 16

// Session names the session of an agent whose events carry no session id:
// the agent's process, the nearest ancestor of the hook (past the sh -c the
// agent runs hooks through) whose name is process's or starts with it, as
// "<process>-<pid>-<start time>" (the start time tells a reused pid
// apart). "" when no ancestor matches, or where intenthook cannot read the
// process tree (Windows): every call of the agent then shares one
// sessionless state.
func Session(process string) string {
	pid := os.Getppid()
	for i := 0; i < maxAncestors && pid > 1; i++ {
		name, parent, start, ok := processInfo(pid)
		if !ok {
			return ""
		}
		if matchesProcess(name, process) {
			return process + "-" + strconv.Itoa(pid) + "-" + start
		}
		pid = parent
	}
	return ""
}

// matchesProcess reports whether a process named name (as the system
// keeps it, cut to 15 bytes on Linux) is the agent's process.
func matchesProcess(name, process string) bool {
	return name == process || strings.HasPrefix(name, process) || (len(name) == 15 && strings.HasPrefix(process, name))
}
