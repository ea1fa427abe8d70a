package setup

import (
	"strings"
	"time"
)

// ExampleCatalog is the catalog init writes: one PENDING intent that
// validates, and comments that teach the format where people will read them.
func ExampleCatalog(now time.Time) []byte {
	ts := now.UTC().Format(time.RFC3339)
	return []byte(strings.ReplaceAll(exampleCatalog, "<now>", ts))
}

const exampleCatalog = `# Intent catalog: the pieces of work agents may do here, and the files each
# may change. An agent selects one with the shell command
#     intenthook select <ID>
# and from then on its writes must stay inside that intent's owned_scope.
#
# People write this file. intenthook changes only status, updated_at,
# completed_at, version and (through "intenthook intents scope") owned_scope,
# keeping every other byte. Check it with "intenthook intents validate".
#
# Lifecycle: PENDING -> IN_PROGRESS (when selected) -> COMPLETE (through
# "intenthook intents verify <ID>"), or, with review: required, IN_PROGRESS ->
# IN_REVIEW ("intenthook submit <ID>") -> COMPLETE (a person's approve);
# BLOCKED and ARCHIVED by hand.
active_intents:
  - id: "INT-001"                 # ^[A-Z]+-\d{3,}$, unique
    name: "Example intent"        # 3..200 characters
    status: "PENDING"             # PENDING | IN_PROGRESS | IN_REVIEW | COMPLETE | BLOCKED | ARCHIVED
    owned_scope:                  # globs relative to this directory; ** spans directories
      - "src/example/**"
    constraints:                  # rules the agent is told to keep (may be empty)
      - "Do not change public interfaces"
    acceptance_criteria:          # what done means (may be empty)
      - "Describe the finished behaviour here"
      # - description: "tests pass"
      #   check: "make test"      # run by "intenthook intents verify INT-001"
    # depends_on: ["INT-000"]     # cannot start until these are COMPLETE
    # allowed_tools: ["Edit"]     # only these tools may write
    # requires_approval: true     # every write asks the human first
    created_at: "<now>"
    updated_at: "<now>"
`

// exampleIgnoreText exempts the files init itself touches, so that later
// commits of them need no intent (the set-up commit adopts the rules).
const exampleIgnoreText = `# Paths exempt from intent enforcement, in .gitignore syntax, relative to the
# workspace root: agents may change them without an intent, and
# "intenthook precommit" does not ask for them to be in an intent's scope.
# Everything listed here is ungoverned: keep the list short.
.gitignore
.gitattributes
.claude/
.mcp.json
`
