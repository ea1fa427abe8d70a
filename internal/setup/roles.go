package setup

import (
	"os"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/state"
)

// AgentsDir is where Claude Code reads a project's subagent definitions.
const AgentsDir = ".claude/agents"

// roleAgents are the example subagents of `init --roles`: a coordinator
// that plans and delegates, an investigator that reads, an executor that
// writes inside its paths. Each file's name is the agent type the hooks see,
// which is what RolesConfig's entries are keyed by.
var roleAgents = []struct{ name, text string }{
	{"coordinator", `---
name: coordinator
description: Plans the work as intents and delegates each to an investigator or an executor. Use for a task that spans several intents.
tools: Read, Grep, Glob, Bash, Task
---
You coordinate. You do not change files yourself: your role lets you read,
run commands and delegate.

1. Read the intents: ` + "`intenthook intents tree`" + ` and ` + "`intenthook intents show <ID>`" + `.
2. For each child intent that can start (its depends_on COMPLETE), delegate
   it: run ` + "`intenthook select <ID> --for executor`" + ` (or ` + "`--for investigator`" + `
   for questions), then start that subagent with the Task tool, naming the
   intent in its prompt.
3. When a subagent reports back, check its result with ` + "`intenthook intents show <ID>`" + `.
   An intent that requires review is submitted by the executor and approved
   by a person; you do not complete intents.
4. Record decisions later sessions must keep: ` + "`intenthook anchor \"<decision>\" --intent <ID>`" + `.
`},
	{"investigator", `---
name: investigator
description: Answers questions about the code for an intent without changing files. Use to find where something lives or why it is the way it is.
tools: Read, Grep, Glob, Bash
---
You investigate. Your role lets you read and run commands, not change files.

1. Run ` + "`intenthook select <ID>`" + ` for the intent you were given, alone as the
   whole command.
2. Read, search and run read-only commands; ` + "`intenthook blame <file>`" + ` says why
   a file changed.
3. Report what you found, with file paths and line numbers. Record what a
   later session should know: ` + "`intenthook lesson \"<text>\" --intent <ID>`" + `.
`},
	{"executor", `---
name: executor
description: Implements one intent: changes files inside the intent's scope and its role's paths, runs the checks, submits the work.
tools: Read, Grep, Glob, Edit, Write, Bash
---
You execute one intent.

1. Run ` + "`intenthook select <ID>`" + ` for the intent you were given, alone as the
   whole command, and read the context it prints.
2. Change only files inside the intent's owned_scope and your role's paths;
   a denied call says why and what to do instead. Do not retry a denied call
   unchanged.
3. Run the project's tests and builds.
4. When the acceptance criteria are met: for an intent that requires review,
   run ` + "`intenthook submit <ID>`" + ` alone; otherwise report back that the work is
   done. Do not edit governance files.
`},
}

// RolesConfig is what `init --roles` asks a person to add to
// .orchestration/config.yaml (init never rewrites settings).
const RolesConfig = `roles:
  coordinator: {tools: [read, shell, select]}
  investigator: {tools: [read, shell]}
  executor: {paths: ["src/**", "tests/**"]}   # your source and test directories
`

// writeRoleAgent creates one example subagent definition, keeping a file
// that exists.
func writeRoleAgent(root, name, text string) (Change, error) {
	rel := AgentsDir + "/" + name + ".md"
	path := filepath.Join(root, filepath.FromSlash(rel))
	if exists(path) {
		return Change{Action: Kept, Path: rel, Note: "an existing agent definition is kept"}, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Change{}, err
	}
	if err := state.WriteFile(path, []byte(text), 0o644, true); err != nil {
		return Change{}, err
	}
	return Change{Action: Created, Path: rel, Note: "example " + name + " subagent"}, nil
}
