package precommit

import (
	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/workspace"
)

// CodeGovernanceLinked is a governance file of the work tree with more
// than one name: a hard link elsewhere, made outside any agent's command
// (the guard puts back one a command makes), through which a program could
// write the file with no row to protect it.
const CodeGovernanceLinked = "governance_linked"

// SecondNames warns about each governance file of the work tree at root
// that has another name.
func SecondNames(root string) []Finding {
	var out []Finding
	for _, rel := range workspace.SecondNames(root, workspace.Governance(append(agent.Governance(), agent.WorkspaceRows(root)))) {
		out = append(out, Finding{Warning, CodeGovernanceLinked, rel,
			"the file has another name (a hard link elsewhere), through which a program can write it unseen; find it with find . -samefile " + rel + " and remove it"})
	}
	return out
}
