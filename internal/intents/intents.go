// Package intents holds the intent catalog (.orchestration/active_intents.yaml):
// its types, loading with line numbers, validation, scope matching and the
// lifecycle state machine. It does not write the catalog; byte-preserving
// edits live in intents/splice.
package intents

import (
	"fmt"
	"io"
	"strings"

	"github.com/intenthook/intenthook/internal/safetext"
)

// Status is an intent's lifecycle state.
type Status string

// The lifecycle states of SPEC §2.
const (
	Pending    Status = "PENDING"
	InProgress Status = "IN_PROGRESS"
	Complete   Status = "COMPLETE"
	Blocked    Status = "BLOCKED"
	Archived   Status = "ARCHIVED"
	// InReview is an intent whose agent submitted it, its checks passing,
	// waiting for a person to approve or reject it.
	InReview Status = "IN_REVIEW"
)

// StatusNames lists the states, for messages.
const StatusNames = "PENDING, IN_PROGRESS, IN_REVIEW, COMPLETE, BLOCKED, ARCHIVED"

// Valid reports whether s is one of the six states.
func (s Status) Valid() bool {
	switch s {
	case Pending, InProgress, InReview, Complete, Blocked, Archived:
		return true
	}
	return false
}

// Review values: an intent's review: key, and config.yaml's review.default.
const (
	ReviewRequired = "required"
	ReviewNone     = "none"
)

// Criterion is one acceptance criterion: a sentence, optionally with a shell
// check that `intents verify` runs.
type Criterion struct {
	Description string `json:"description"`
	Check       string `json:"check,omitempty"`
}

// Spec is a related specification reference.
type Spec struct {
	Type string `json:"type"`
	Ref  string `json:"ref"`
	// URL names the spec in a record's related list (SpecURL), worked out
	// when the catalog is parsed.
	URL string `json:"-"`
}

// Budget is what an intent may spend before pre refuses its writes
// (budget_exceeded): tokens of every kind, money, and the tool calls post
// records. Zero is no limit of that kind.
type Budget struct {
	Tokens int64 `json:"tokens,omitempty"`
	// MicroUSD is the catalog's usd in millionths of a dollar, so that
	// sums stay exact.
	MicroUSD int64 `json:"usd_micros,omitempty"`
	Calls    int64 `json:"calls,omitempty"`
}

// Set reports whether b limits anything.
func (b Budget) Set() bool { return b.Tokens > 0 || b.MicroUSD > 0 || b.Calls > 0 }

// Intent is one entry of the catalog.
type Intent struct {
	ID                 string      `json:"id"`
	Name               string      `json:"name"`
	Status             Status      `json:"status"`
	Version            int         `json:"version"`
	OwnedScope         []string    `json:"owned_scope"`
	Constraints        []string    `json:"constraints"`
	AcceptanceCriteria []Criterion `json:"acceptance_criteria"`
	RelatedSpecs       []Spec      `json:"related_specs,omitempty"`
	ParentIntent       string      `json:"parent_intent,omitempty"`
	DependsOn          []string    `json:"depends_on,omitempty"`
	AllowedTools       []string    `json:"allowed_tools,omitempty"`
	RequiresApproval   bool        `json:"requires_approval"`
	// Review is the intent's review: key ("required", "none", or "" for
	// the workspace's review.default).
	Review    string   `json:"review,omitempty"`
	Tags      []string `json:"tags,omitempty"`
	CreatedAt string   `json:"created_at"`
	UpdatedAt string   `json:"updated_at"`
	// CompletedAt is when the intent became COMPLETE; an ARCHIVED intent
	// with it was finished, not abandoned.
	CompletedAt string `json:"completed_at,omitempty"`
	// Budget is what the intent may spend (budget: {tokens, usd, calls});
	// a kind it does not name is not limited.
	Budget Budget `json:"budget,omitzero"`

	// Line is where the intent's mapping starts in the catalog file.
	Line int `json:"line"`
	// lineStart is the offset of line Line's first byte in the catalog,
	// so that a cached intent is found in the catalog's text (agrees)
	// without counting the lines before it.
	lineStart int
	// Problems are the validation errors and warnings of this intent.
	Problems []Problem `json:"problems,omitempty"`

	scope []scopePattern
	// scopeLines is the catalog line of each owned_scope item, from a
	// parse (not from the cache), for validation messages.
	scopeLines []int
}

// Valid reports whether the intent has no validation errors; an invalid
// intent cannot be selected or written under (catalog_invalid).
func (in *Intent) Valid() bool {
	for _, p := range in.Problems {
		if p.Severity == Error {
			return false
		}
	}
	return true
}

// Errors returns the intent's error messages, one per line.
func (in *Intent) Errors() []string {
	var out []string
	for _, p := range in.Problems {
		if p.Severity == Error {
			out = append(out, p.Message)
		}
	}
	return out
}

// AllowsTool reports whether tool may write under this intent.
func (in *Intent) AllowsTool(tool string) bool {
	if len(in.AllowedTools) == 0 {
		return true
	}
	for _, t := range in.AllowedTools {
		if t == tool {
			return true
		}
	}
	return false
}

// NeedsReview reports whether the intent completes only through a person's
// review, given the workspace's review.default.
func (in *Intent) NeedsReview(def string) bool {
	if in.Review != "" {
		return in.Review == ReviewRequired
	}
	return def == ReviewRequired
}

// ScopeSummary is the owned scope as one comma-separated line.
func (in *Intent) ScopeSummary() string { return strings.Join(in.OwnedScope, ", ") }

// Severity of a validation problem.
type Severity string

// Problem severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Problem is one validation finding, printed as FILE:LINE: ID: severity: message.
type Problem struct {
	Line     int      `json:"line"`
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

// Format renders the problem for file.
func (p Problem) Format(file string) string {
	id := p.ID
	if id == "" {
		id = "-"
	}
	return fmt.Sprintf("%s:%d: %s: %s: %s", file, p.Line, safetext.Quote(id), p.Severity, safetext.Quote(p.Message))
}

// Catalog is a parsed intent catalog.
type Catalog struct {
	// Problems holds every finding, of the catalog and of its intents, in line order.
	Problems []Problem

	list []*Intent
	byID map[string]*Intent
	// A catalog from the parse cache reads and decodes an intent only when
	// asked for: a hook needs one intent out of hundreds.
	file  io.ReaderAt
	count int    // intents in the index
	lines []byte // the index, as read; parsed by expand
	base  int64  // where the body starts in file
	ids   []string
	at    [][2]int64 // offset and length of each intent in file
	// source is the catalog's text, which a cached intent must agree with
	// (the cache is under state/, where a program could forge one).
	source    []byte
	cachePath string
}

// All returns every intent, in file order.
func (c *Catalog) All() []*Intent {
	if c == nil {
		return nil
	}
	c.expand()
	for i := range c.at {
		c.decode(i)
	}
	return c.list
}

// Find returns the intent with id, or nil. With duplicate ids, the first wins.
func (c *Catalog) Find(id string) *Intent {
	if c == nil {
		return nil
	}
	if in, ok := c.byID[id]; ok || c.file == nil {
		return in
	}
	if c.ids == nil {
		return c.findIndexed(id)
	}
	for i, x := range c.ids {
		if x == id {
			return c.decode(i)
		}
	}
	return nil
}

// index maps ids to intents; with duplicate ids, the first wins.
func (c *Catalog) index() {
	c.byID = make(map[string]*Intent, len(c.list))
	for _, in := range c.list {
		if in.ID != "" && c.byID[in.ID] == nil {
			c.byID[in.ID] = in
		}
	}
}

// HasErrors reports whether any problem is an error.
func (c *Catalog) HasErrors() bool {
	for _, p := range c.Problems {
		if p.Severity == Error {
			return true
		}
	}
	return false
}
