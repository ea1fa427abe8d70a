// Package ledger holds .orchestration/agent_trace.jsonl, the append-only,
// hash-chained record of what agents did: one Agent Trace 0.1.0 record per
// line with intenthook's fields under metadata."dev.intenthook". It appends
// (under the ledger lock, spooling what cannot wait), repairs a torn tail, and
// reads: tail, query, blame and verify. It does not decide what a record
// says; the hook pipelines build records and hand them over.
package ledger

import (
	"bytes"
	"encoding/json"

	"github.com/intenthook/intenthook/internal/money"
)

// File names, relative to the workspace root.
const (
	FileName = ".orchestration/agent_trace.jsonl"
	headName = "ledger.head" // under state/; per branch: ledger@<branch>.head
	spoolDir = "spool"       // under state/
)

// SpecVersion is the Agent Trace version every record is written in.
const SpecVersion = "0.1.0"

// MetaKey is the reverse-DNS vendor key of intenthook's metadata.
const MetaKey = "dev.intenthook"

// Events a record can stand for (metadata.event).
const (
	EventPreToolUse         = "PreToolUse" // denials
	EventPostToolUse        = "PostToolUse"
	EventPostToolUseFailure = "PostToolUseFailure"
	EventViolation          = "violation" // shell backstop
	EventSelect             = "select"
	EventTransition         = "transition"
	EventVerify             = "verify"
	EventAmend              = "amend" // scope change
	EventRepair             = "repair"
	EventAnchor             = "anchor"   // a decision that must survive compaction (Reason holds it)
	EventDelegate           = "delegate" // an intent handed to a subagent
	// Review (an intent with review: required): an agent's submission
	// (IN_PROGRESS -> IN_REVIEW when its checks pass; Success false and the
	// failing checks in Reason otherwise), a person's approval (-> COMPLETE)
	// and rejection (-> IN_PROGRESS, the reason in Reason).
	// EventSessionSummary is what a session did, from its counters, at its
	// end (or, for agents without a session end, at a turn's end: the
	// newest summary of a session holds everything).
	EventSessionSummary = "session_summary"
	EventSubmit         = "submit"
	EventApprove        = "approve"
	EventReject         = "reject"
	// EventAskAnswer is a person's answer to a pending ask (ask.via:
	// wait): the call asked about (session, tool, tool_use_id), the
	// verdict in Decision, the person's reason in Reason, who answered and
	// how long the ask waited in Answer.
	EventAskAnswer = "ask_answer"
	// EventBudget is a person's raise of an intent's budget (intenthook
	// budget): the command in Command, the raise, who and the spend
	// against the new limits in Reason.
	EventBudget = "budget"
)

// Record is one ledger line: an Agent Trace record. Field order is the order
// of the line's keys.
type Record struct {
	Version   string   `json:"version"`
	ID        string   `json:"id"`
	Timestamp string   `json:"timestamp"`
	VCS       *VCS     `json:"vcs,omitempty"` // nil outside git
	Tool      *Tool    `json:"tool,omitempty"`
	Files     []File   `json:"files"` // written as [] when empty
	Metadata  Metadata `json:"metadata"`
}

// VCS names the revision a record's line numbers refer to.
type VCS struct {
	Type     string `json:"type"` // git, jj, hg, svn
	Revision string `json:"revision"`
}

// Tool names the program that wrote a record.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// File is one changed file and who changed which of its lines.
type File struct {
	Path          string         `json:"path"` // root-relative, "/" separators
	Conversations []Conversation `json:"conversations"`
}

// Conversation attributes ranges of a file to one agent conversation.
type Conversation struct {
	URL         string       `json:"url,omitempty"` // a URI: see FileURL
	Contributor *Contributor `json:"contributor,omitempty"`
	Ranges      []Range      `json:"ranges"` // written as [] when empty
	Related     []Related    `json:"related,omitempty"`
}

// Contributor says who wrote the ranges.
type Contributor struct {
	Type    string `json:"type"` // human, ai, mixed, unknown
	ModelID string `json:"model_id,omitempty"`
}

// Range is a span of lines, 1-based and inclusive, at the record's revision.
type Range struct {
	StartLine   int    `json:"start_line"`
	EndLine     int    `json:"end_line"`
	ContentHash string `json:"content_hash,omitempty"`
}

// Related links a conversation to an intent or a specification.
type Related struct {
	Type string `json:"type"`
	URL  string `json:"url"` // a URI: see IntentURL, SpecURL
}

// Metadata holds the vendor sections of a record; intenthook writes only its own.
type Metadata struct {
	Intenthook Meta `json:"dev.intenthook"`
}

// Meta is intenthook's part of a record. Seq and Prev chain the lines and are
// assigned by Append; the rest is filled by whoever builds the record.
type Meta struct {
	Seq             int64      `json:"seq"`
	Prev            NullString `json:"prev"`
	Event           string     `json:"event"`
	IntentID        NullString `json:"intent_id"`
	SessionID       string     `json:"session_id"`
	AgentID         NullString `json:"agent_id"`
	ToolName        string     `json:"tool_name"`
	ToolUseID       string     `json:"tool_use_id"`
	MutationClass   string     `json:"mutation_class"`
	PreHash         NullString `json:"pre_hash"`
	PostHash        NullString `json:"post_hash"`
	ScopeValidation string     `json:"scope_validation"`
	Decision        string     `json:"decision"`
	Code            NullString `json:"code"`
	Success         bool       `json:"success"`
	Error           NullString `json:"error"`

	// Format is the record format: 2 for records with exact ranges,
	// quiet shell records and redaction; absent (1) on older lines, which
	// every reader still reads.
	Format int `json:"format,omitempty"`

	// Written only when set.
	Command     string   `json:"command,omitempty"`      // shell records
	CommandHash string   `json:"command_hash,omitempty"` // digest of the command as given, when Command was cut or redacted
	ErrorHash   string   `json:"error_hash,omitempty"`   // digest of the error as given, when Error was cut or redacted
	Redacted    []string `json:"redacted,omitempty"`     // fields whose secrets were replaced
	Paths       []string `json:"paths,omitempty"`        // violation records
	Reason      string   `json:"reason,omitempty"`
	From        string   `json:"from,omitempty"`       // transition records: old status
	To          string   `json:"to,omitempty"`         // transition records: new status
	Fragment    string   `json:"fragment,omitempty"`   // repair records: where the torn bytes went
	Cut         []string `json:"cut,omitempty"`        // what was shortened to fit MaxLine
	AgentType   string   `json:"agent_type,omitempty"` // delegate records: the subagent's type
	// Role is the role name (config.yaml roles:) of the call's session:
	// the event's agent type. Absent for the top-level agent ("main") and
	// for a subagent whose type the event does not give, as on records
	// written before it: a replay judges the role's paths by it.
	Role string `json:"role,omitempty"`
	// Checks are the checks (config.yaml shell.checks) a shell record's
	// command ran; Success is their outcome.
	Checks []string `json:"checks,omitempty"`
	// Commits are the commits an agent's command made that changed the
	// rules (a governance_tampered record): HEAD descending from one is
	// refused by precommit until a person undoes it.
	Commits []string `json:"commits,omitempty"`
	// Summary is a session_summary record's counts, and Result what was
	// done under an intent, on the record of its submission or completion:
	// JSON objects (package summary's shape), capped by their writers.
	Summary json.RawMessage `json:"summary,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	// Answer is an ask_answer record's who, when and how long: a JSON
	// object (package asks' shape).
	Answer json.RawMessage `json:"answer,omitempty"`
	// Usage is what the call's agent spent since its session's previous
	// record, on the first record of each call post records: the call
	// itself, and the tokens its transcript records (none for an agent
	// whose transcript has no usage). UsageReset: the transcript shrank
	// or was rewritten since it was last read, and counting began again
	// at its end.
	Usage      *Usage `json:"usage,omitempty"`
	UsageReset bool   `json:"usage_reset,omitempty"`
	// Sealed is set on the first record of a segment that a writer began
	// when it sealed its newest one: that segment, and the last record it
	// held. Verify holds the sealed segment to it: a line after that
	// record was added once the segment was sealed.
	Sealed *Sealed `json:"sealed,omitempty"`
}

// Sealed names a segment its writer sealed and the record it ended in.
type Sealed struct {
	Segment  string `json:"segment"`   // root-relative
	LastSeq  int64  `json:"last_seq"`  // the seq of its last record
	LastHash string `json:"last_hash"` // sha256: of its last line's bytes
}

// Usage is what an agent spent: tool calls, and tokens by kind as Claude's
// usage names them (input_tokens excludes the cached kinds; a Codex input
// count is split into input and cache reads), with the model they were
// spent on. Token kinds the transcript did not record are absent.
type Usage struct {
	Model                    string `json:"model,omitempty"`
	Calls                    int64  `json:"calls"`
	InputTokens              int64  `json:"input_tokens,omitempty"`
	OutputTokens             int64  `json:"output_tokens,omitempty"`
	CacheCreationInputTokens int64  `json:"cache_creation_input_tokens,omitempty"`
	CacheReadInputTokens     int64  `json:"cache_read_input_tokens,omitempty"`
	// USD is what the tokens cost at config.yaml's price of the model,
	// absent when the model has none.
	USD money.Amount `json:"usd,omitempty"`
}

// Tokens is every kind of token u counts.
func (u *Usage) Tokens() int64 {
	return u.InputTokens + u.OutputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// NullString is a string written as JSON null when empty: the ledger's way of
// saying "none" for hashes, ids and codes that may be absent.
type NullString string

// MarshalJSON writes "" as null, anything else as a JSON string (without
// escaping <, > and &, which shell commands and errors are full of).
func (s NullString) MarshalJSON() ([]byte, error) {
	if s == "" {
		return []byte("null"), nil
	}
	return encodeJSON(string(s))
}

// Format is the record format new records are written in.
const Format = 2

// Intent returns the record's intent id, "" when it has none.
func (r *Record) Intent() string { return string(r.Metadata.Intenthook.IntentID) }

// Touches reports whether the record changed or names the root-relative path.
func (r *Record) Touches(path string) bool {
	for _, f := range r.Files {
		if f.Path == path {
			return true
		}
	}
	for _, p := range r.Metadata.Intenthook.Paths {
		if p == path {
			return true
		}
	}
	return false
}

// MarshalLine encodes the record as one ledger line, without the newline and
// without fitting it to MaxLine (Append does that).
func (r *Record) MarshalLine() []byte {
	return r.appendLine(make([]byte, 0, 1024))
}

// encodeJSON is json.Marshal without HTML escaping and without the newline.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// PlainJSON is v as JSON with <, > and & as they are, for a record's raw
// fields: an identity's <email> stays as git writes it. Nil when v cannot
// be encoded.
func PlainJSON(v any) json.RawMessage {
	b, err := encodeJSON(v)
	if err != nil {
		return nil
	}
	return b
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// NewRecord starts a record with its intenthook metadata m, naming the git
// commit rev when there is one. Success is set: a failure says so itself.
func NewRecord(rev string, m Meta) *Record {
	r := &Record{}
	if rev != "" {
		r.VCS = &VCS{Type: "git", Revision: rev}
	}
	m.Success = true
	r.Metadata.Intenthook = m
	return r
}
