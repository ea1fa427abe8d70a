package ledger

import (
	"path"
	"strings"

	"github.com/intenthook/intenthook/internal/hook"
)

// Mutation classes (SPEC §7.3).
const (
	FileCreation    = "FILE_CREATION"
	FileDeletion    = "FILE_DELETION"
	Documentation   = "DOCUMENTATION"
	ASTRefactor     = "AST_REFACTOR"
	IntentEvolution = "INTENT_EVOLUTION"
	Configuration   = "CONFIGURATION"
	// Attributed: a change to a file a tool intenthook does not classify
	// (another MCP server's) named in its input. Recorded, never judged
	// (scope EXEMPT), and so no trace for precommit or audit.
	Attributed = "ATTRIBUTED"
	// Revert: a file put back as the session's last violation said (scope
	// EXEMPT): the command that did it was allowed only for that.
	Revert = "REVERT"
)

// Scope validation values of a record.
const (
	ScopePass    = "PASS"
	ScopeFail    = "FAIL"
	ScopeExempt  = "EXEMPT"
	ScopeIgnored = "IGNORED"
)

// Classify names a change (SPEC §7.3). pre and post are the file's digests
// before and after ("" when absent). declared is the agent's own
// mutation_class, which may refine a modification but never a creation or
// a deletion. A failed call is named for what it tried to do: its file
// missing afterwards is no deletion.
func Classify(wholeFile bool, rel, pre, post string, deleteTool, failed bool, declared string) string {
	switch {
	case deleteTool || (post == "" && !failed):
		return FileDeletion
	case pre == "" && !(failed && post != ""):
		// (A failed call on a file that exists created nothing, even when
		// its before is unknown.)
		return FileCreation
	}
	class := ASTRefactor
	switch {
	case isDocumentation(rel):
		class = Documentation
	case wholeFile:
		class = IntentEvolution
	}
	switch declared {
	case ASTRefactor, IntentEvolution, Documentation:
		return declared
	}
	return class
}

func isDocumentation(rel string) bool {
	switch strings.ToLower(path.Ext(rel)) {
	case ".md", ".rst", ".txt":
		return true
	}
	return strings.HasPrefix(rel, "docs/") || strings.Contains(rel, "/docs/")
}

// ForCall starts the record of an event of call c: rev is HEAD's commit
// ("" outside git), intentID the intent in force ("" for none).
func ForCall(rev, event, intentID string, c *hook.Call) *Record {
	return NewRecord(rev, Meta{
		Event:     event,
		IntentID:  NullString(intentID),
		SessionID: c.SessionID,
		AgentID:   NullString(c.AgentID),
		ToolName:  c.ToolName,
		ToolUseID: c.ToolUseID,
		Role:      c.AgentType,
	})
}

// Attribution says who wrote a file's ranges: the conversation's
// transcript, the model behind it ("" when unknown), the intent ("" for
// none) and the intent's related specifications.
type Attribution struct {
	Transcript, Model, IntentID string
	Specs                       []string
}

// NewFile attributes ranges of rel as a says.
func NewFile(rel string, rs []Range, a Attribution) File {
	conv := Conversation{URL: FileURL(a.Transcript), Ranges: rs, Contributor: &Contributor{Type: "ai"}}
	if a.Model != "" {
		conv.Contributor.ModelID = ModelID(a.Model)
	}
	if a.IntentID != "" {
		conv.Related = append(conv.Related, Related{Type: "intent", URL: IntentURL(a.IntentID)})
		for _, s := range a.Specs {
			conv.Related = append(conv.Related, Related{Type: "specification", URL: s})
		}
	}
	return File{Path: rel, Conversations: []Conversation{conv}}
}

// ModelID names a model as Agent Trace wants it: provider/model.
func ModelID(m string) string {
	switch {
	case m == "" || strings.Contains(m, "/"):
		return m
	case strings.HasPrefix(m, "claude"):
		return "anthropic/" + m
	case strings.HasPrefix(m, "gpt-"), strings.HasPrefix(m, "o1"), strings.HasPrefix(m, "o3"), strings.HasPrefix(m, "o4"):
		return "openai/" + m
	case strings.HasPrefix(m, "gemini"):
		return "google/" + m
	}
	return m
}
