package export

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/redact"
)

// Severity numbers of the OpenTelemetry log data model.
const (
	SeverityInfo  = 9
	SeverityWarn  = 13
	SeverityError = 17
)

// Entry is one log record to send, whatever the protocol: what every
// sender encodes through its library.
type Entry struct {
	UID          string // log.record.uid, also kept for the sent log
	Time         time.Time
	Severity     int
	SeverityText string
	Body         string
	Attrs        []Attr
}

// Repo is what is known of the repository, the same for every record.
type Repo struct {
	URL string // vcs.repository.url.full: the remote without userinfo
}

// Attribute keys, pinned in docs/otel.md: dashboards and tests agree on them.
const (
	KeyUID            = "log.record.uid"
	KeySession        = "session.id"
	KeyRepoURL        = "vcs.repository.url.full"
	KeyRevision       = "vcs.ref.head.revision"
	KeyModel          = "gen_ai.response.model"
	KeyFilePath       = "code.file.path"
	KeyEvent          = "intenthook.event"
	KeyIntent         = "intenthook.intent.id"
	KeyDecision       = "intenthook.decision"
	KeyCode           = "intenthook.code"
	KeyTool           = "intenthook.tool.name"
	KeyToolUse        = "intenthook.tool.use_id"
	KeyMutationClass  = "intenthook.mutation.class"
	KeyScope          = "intenthook.scope.validation"
	KeySuccess        = "intenthook.success"
	KeyAgent          = "intenthook.agent.id"
	KeyAgentType      = "intenthook.agent.type"
	KeyPaths          = "intenthook.file.paths"
	KeyCommand        = "intenthook.command"
	KeyError          = "intenthook.error"
	KeyReason         = "intenthook.reason"
	KeyStatusFrom     = "intenthook.status.from"
	KeyStatusTo       = "intenthook.status.to"
	KeySeq            = "intenthook.seq"
	KeyLedgerFile     = "intenthook.ledger.file"
	KeyRecordRedacted = "intenthook.redacted"

	// The usage of a record that carries one (docs/budgets.md), in the
	// GenAI conventions' names: input tokens count every kind of input,
	// cached ones included, as the conventions ask; the two cache kinds
	// are also given apart.
	KeyRequestModel        = "gen_ai.request.model"
	KeyInputTokens         = "gen_ai.usage.input_tokens"
	KeyOutputTokens        = "gen_ai.usage.output_tokens"
	KeyCacheReadTokens     = "gen_ai.usage.cache_read.input_tokens"
	KeyCacheCreationTokens = "gen_ai.usage.cache_creation.input_tokens"
)

// NewEntry turns one ledger record (from the ledger file file) into a log
// record. Every string goes through the ledger's redaction again: records
// written before redaction, or by hand, must not carry a token out.
func NewEntry(rec *ledger.Record, file string, repo Repo) Entry {
	m := &rec.Metadata.Intenthook
	e := Entry{UID: rec.ID}
	e.Time, _ = time.Parse(time.RFC3339Nano, rec.Timestamp)
	e.Severity, e.SeverityText = severity(m.Decision)
	redacted := false
	str := func(key, v string) {
		if v == "" {
			return
		}
		if s, ok := redact.Text(v); ok {
			v, redacted = s, true
		}
		e.Attrs = append(e.Attrs, Attr{key, v})
	}
	str(KeyUID, rec.ID)
	str(KeySession, m.SessionID)
	str(KeyRepoURL, repo.URL)
	if rec.VCS != nil {
		str(KeyRevision, rec.VCS.Revision)
	}
	str(KeyModel, model(rec))
	paths := recordPaths(rec)
	if len(paths) > 0 {
		str(KeyFilePath, paths[0])
	}
	str(KeyEvent, m.Event)
	str(KeyIntent, string(m.IntentID))
	str(KeyDecision, m.Decision)
	str(KeyCode, string(m.Code))
	str(KeyTool, m.ToolName)
	str(KeyToolUse, m.ToolUseID)
	str(KeyMutationClass, m.MutationClass)
	str(KeyScope, m.ScopeValidation)
	e.Attrs = append(e.Attrs, Attr{KeySuccess, m.Success})
	str(KeyAgent, string(m.AgentID))
	str(KeyAgentType, m.AgentType)
	if len(paths) > 1 {
		list := make([]string, len(paths))
		for i, p := range paths {
			if s, ok := redact.Text(p); ok {
				p, redacted = s, true
			}
			list[i] = p
		}
		e.Attrs = append(e.Attrs, Attr{KeyPaths, list})
	}
	str(KeyCommand, m.Command)
	str(KeyError, string(m.Error))
	str(KeyReason, m.Reason)
	str(KeyStatusFrom, m.From)
	str(KeyStatusTo, m.To)
	if m.Seq > 0 {
		e.Attrs = append(e.Attrs, Attr{KeySeq, m.Seq})
	}
	str(KeyLedgerFile, file)
	if u := m.Usage; u != nil {
		str(KeyRequestModel, u.Model)
		// A call that counted no tokens (an agent whose transcript has
		// none) carries none: absent sums the same as zero, and does not
		// claim a count nobody made.
		if u.Tokens() > 0 {
			e.Attrs = append(e.Attrs,
				Attr{KeyInputTokens, u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens},
				Attr{KeyOutputTokens, u.OutputTokens})
		}
		if u.CacheReadInputTokens > 0 {
			e.Attrs = append(e.Attrs, Attr{KeyCacheReadTokens, u.CacheReadInputTokens})
		}
		if u.CacheCreationInputTokens > 0 {
			e.Attrs = append(e.Attrs, Attr{KeyCacheCreationTokens, u.CacheCreationInputTokens})
		}
	}
	if redacted || len(m.Redacted) > 0 {
		e.Attrs = append(e.Attrs, Attr{KeyRecordRedacted, true})
	}
	body := Body(rec, paths)
	if s, ok := redact.Text(body); ok {
		body = s
	}
	e.Body = body
	return e
}

// severity maps a decision: a denial is a warning (the agent was stopped
// and told why), a violation an error (a change got past the hooks and
// was caught after), anything else information.
func severity(decision string) (int, string) {
	switch decision {
	case "deny":
		return SeverityWarn, "WARN"
	case "violation":
		return SeverityError, "ERROR"
	}
	return SeverityInfo, "INFO"
}

// model is the model of the record's first contributor that names one.
func model(rec *ledger.Record) string {
	for _, f := range rec.Files {
		for _, c := range f.Conversations {
			if c.Contributor != nil && c.Contributor.ModelID != "" {
				return c.Contributor.ModelID
			}
		}
	}
	return ""
}

// recordPaths are the files a record changed, then those it names.
func recordPaths(rec *ledger.Record) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range rec.Files {
		if !seen[f.Path] {
			seen[f.Path] = true
			out = append(out, f.Path)
		}
	}
	for _, p := range rec.Metadata.Intenthook.Paths {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// Body is the decision in words, one line.
func Body(rec *ledger.Record, paths []string) string {
	m := &rec.Metadata.Intenthook
	what := m.ToolName
	if len(paths) > 0 {
		what = strings.TrimSpace(what + " " + quoteList(paths))
	}
	under := ""
	if m.IntentID != "" {
		under = " under " + string(m.IntentID)
	}
	var s string
	switch {
	case m.Decision == "deny":
		s = fmt.Sprintf("denied %s%s", what, under)
		if m.Code != "" {
			s += ": " + string(m.Code)
		}
	case m.Decision == "violation":
		s = fmt.Sprintf("violation: %s changed%s outside the hooks' consent", what, under)
		if m.Code != "" {
			s += ": " + string(m.Code)
		}
	case m.Event == ledger.EventSelect:
		s = fmt.Sprintf("selected %s", m.IntentID)
	case m.Event == ledger.EventTransition:
		s = fmt.Sprintf("%s moved from %s to %s", m.IntentID, m.From, m.To)
	case m.Event == ledger.EventAmend:
		s = fmt.Sprintf("scope of %s amended", m.IntentID)
	case m.Event == ledger.EventVerify:
		s = fmt.Sprintf("acceptance of %s checked", m.IntentID)
	case m.Event == ledger.EventAnchor:
		s = fmt.Sprintf("decision anchored%s", under)
	case m.Event == ledger.EventDelegate:
		s = fmt.Sprintf("%s delegated to a %s subagent", m.IntentID, m.AgentType)
	case !m.Success:
		s = fmt.Sprintf("%s failed%s", what, under)
	default:
		s = fmt.Sprintf("allowed %s%s", what, under)
		if m.MutationClass != "" {
			s += " (" + m.MutationClass + ")"
		}
	}
	return strings.Join(strings.Fields(s), " ")
}

// quoteList names up to three paths, then how many more.
func quoteList(paths []string) string {
	const shown = 3
	var b strings.Builder
	for i, p := range paths {
		if i == shown {
			fmt.Fprintf(&b, " and %d more", len(paths)-shown)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p)
	}
	return b.String()
}

// RepoURL is a remote URL as vcs.repository.url.full: without userinfo
// (tokens live there), query or fragment; scp-like remotes
// (user@host:path) lose the user.
func RepoURL(remote string) string {
	remote = strings.TrimSpace(remote)
	if remote == "" {
		return ""
	}
	if u, err := url.Parse(remote); err == nil && u.Scheme != "" && u.Host != "" {
		u.User, u.RawQuery, u.Fragment, u.ForceQuery = nil, "", "", false
		return u.String()
	}
	if at := strings.Index(remote, "@"); at >= 0 && strings.Contains(remote[at:], ":") && !strings.Contains(remote[:at], "/") {
		return remote[at+1:]
	}
	if strings.Contains(remote, "@") {
		return "" // a shape not understood: better nothing than a token
	}
	return remote
}
