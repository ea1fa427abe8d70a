package ledger

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/intenthook/intenthook/internal/jsontext"
	"github.com/intenthook/intenthook/internal/money"
)

// appendLine appends r as encoding/json would (HTML left unescaped), field
// by field: a hook process that marshals a Record through reflection pays
// more for the encoder's first use than for the rest of its append.
// TestAppendLineMatchesJSON holds the two to the same bytes; a field added to
// Record must be added here.
func (r *Record) appendLine(b []byte) []byte {
	b = append(b, `{"version":`...)
	b = appendString(b, r.Version)
	b = append(b, `,"id":`...)
	b = appendString(b, r.ID)
	b = append(b, `,"timestamp":`...)
	b = appendString(b, r.Timestamp)
	if v := r.VCS; v != nil {
		b = append(b, `,"vcs":{"type":`...)
		b = appendString(b, v.Type)
		b = append(b, `,"revision":`...)
		b = appendString(b, v.Revision)
		b = append(b, '}')
	}
	if t := r.Tool; t != nil {
		b = append(b, `,"tool":{"name":`...)
		b = appendString(b, t.Name)
		b = append(b, `,"version":`...)
		b = appendString(b, t.Version)
		b = append(b, '}')
	}
	b = append(b, `,"files":[`...) // never null
	for i, f := range r.Files {
		if i > 0 {
			b = append(b, ',')
		}
		b = f.appendJSON(b)
	}
	b = append(b, `],"metadata":{"dev.intenthook":`...)
	b = r.Metadata.Intenthook.appendJSON(b)
	return append(b, "}}"...)
}

func (f *File) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, f.Path)
	b = append(b, `,"conversations":[`...)
	for i, c := range f.Conversations {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		// ranges is always there, last of these: each optional field
		// before it ends in a comma.
		if c.URL != "" {
			b = append(b, `"url":`...)
			b = append(appendString(b, c.URL), ',')
		}
		if p := c.Contributor; p != nil {
			b = append(b, `"contributor":{"type":`...)
			b = appendString(b, p.Type)
			if p.ModelID != "" {
				b = append(b, `,"model_id":`...)
				b = appendString(b, p.ModelID)
			}
			b = append(b, "},"...)
		}
		b = append(b, `"ranges":[`...)
		for j, rg := range c.Ranges {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"start_line":`...)
			b = strconv.AppendInt(b, int64(rg.StartLine), 10)
			b = append(b, `,"end_line":`...)
			b = strconv.AppendInt(b, int64(rg.EndLine), 10)
			if rg.ContentHash != "" {
				b = append(b, `,"content_hash":`...)
				b = appendString(b, rg.ContentHash)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
		if len(c.Related) > 0 {
			b = append(b, `,"related":[`...)
			for j, rel := range c.Related {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"type":`...)
				b = appendString(b, rel.Type)
				b = append(b, `,"url":`...)
				b = appendString(b, rel.URL)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

func (m *Meta) appendJSON(b []byte) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, m.Seq, 10)
	b = appendNull(b, "prev", m.Prev)
	b = appendField(b, "event", m.Event)
	b = appendNull(b, "intent_id", m.IntentID)
	b = appendField(b, "session_id", m.SessionID)
	b = appendNull(b, "agent_id", m.AgentID)
	b = appendField(b, "tool_name", m.ToolName)
	b = appendField(b, "tool_use_id", m.ToolUseID)
	b = appendField(b, "mutation_class", m.MutationClass)
	b = appendNull(b, "pre_hash", m.PreHash)
	b = appendNull(b, "post_hash", m.PostHash)
	b = appendField(b, "scope_validation", m.ScopeValidation)
	b = appendField(b, "decision", m.Decision)
	b = appendNull(b, "code", m.Code)
	b = append(b, `,"success":`...)
	b = strconv.AppendBool(b, m.Success)
	b = appendNull(b, "error", m.Error)
	if m.Format != 0 {
		b = append(b, `,"format":`...)
		b = strconv.AppendInt(b, int64(m.Format), 10)
	}
	b = appendOmit(b, "command", m.Command)
	b = appendOmit(b, "command_hash", m.CommandHash)
	b = appendOmit(b, "error_hash", m.ErrorHash)
	b = appendList(b, "redacted", m.Redacted)
	b = appendList(b, "paths", m.Paths)
	b = appendOmit(b, "reason", m.Reason)
	b = appendOmit(b, "from", m.From)
	b = appendOmit(b, "to", m.To)
	b = appendOmit(b, "fragment", m.Fragment)
	b = appendList(b, "cut", m.Cut)
	b = appendOmit(b, "agent_type", m.AgentType)
	b = appendOmit(b, "role", m.Role)
	b = appendList(b, "checks", m.Checks)
	b = appendList(b, "commits", m.Commits)
	b = appendRaw(b, "summary", m.Summary)
	b = appendRaw(b, "result", m.Result)
	b = appendRaw(b, "answer", m.Answer)
	if u := m.Usage; u != nil {
		b = append(b, `,"usage":{`...)
		if u.Model != "" {
			b = append(appendString(append(b, `"model":`...), u.Model), ',')
		}
		b = strconv.AppendInt(append(b, `"calls":`...), u.Calls, 10)
		b = appendCount(b, "input_tokens", u.InputTokens)
		b = appendCount(b, "output_tokens", u.OutputTokens)
		b = appendCount(b, "cache_creation_input_tokens", u.CacheCreationInputTokens)
		b = appendCount(b, "cache_read_input_tokens", u.CacheReadInputTokens)
		if u.USD > 0 {
			b = append(append(b, `,"usd":`...), money.Decimal(int64(u.USD))...)
		}
		b = append(b, '}')
	}
	if m.UsageReset {
		b = append(b, `,"usage_reset":true`...)
	}
	if s := m.Sealed; s != nil {
		b = append(b, `,"sealed":{"segment":`...)
		b = appendString(b, s.Segment)
		b = strconv.AppendInt(append(b, `,"last_seq":`...), s.LastSeq, 10)
		b = append(b, `,"last_hash":`...)
		b = appendString(b, s.LastHash)
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendRaw appends ,"key":value for a JSON value given whole, unless it is
// empty or not valid JSON (a writer's mistake must not break the line).
func appendRaw(b []byte, key string, value []byte) []byte {
	if len(value) == 0 || !json.Valid(value) {
		return b
	}
	var c bytes.Buffer
	if json.Compact(&c, value) != nil {
		return b
	}
	return append(append(append(append(b, `,"`...), key...), `":`...), c.Bytes()...)
}

// appendCount appends ,"key":n unless n is 0 (omitempty).
func appendCount(b []byte, key string, n int64) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(append(append(b, `,"`...), key...), `":`...), n, 10)
}

// appendField appends ,"key":"value".
func appendField(b []byte, key, value string) []byte {
	b = append(append(append(b, `,"`...), key...), `":`...)
	return appendString(b, value)
}

// appendNull appends the field, null when empty (NullString).
func appendNull(b []byte, key string, value NullString) []byte {
	if value == "" {
		return append(append(append(b, `,"`...), key...), `":null`...)
	}
	return appendField(b, key, string(value))
}

// appendOmit appends the field unless it is empty (omitempty).
func appendOmit(b []byte, key, value string) []byte {
	if value == "" {
		return b
	}
	return appendField(b, key, value)
}

// appendList appends a list of strings unless it is empty (omitempty).
func appendList(b []byte, key string, values []string) []byte {
	if len(values) == 0 {
		return b
	}
	b = append(append(append(b, `,"`...), key...), `":[`...)
	for i, v := range values {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, v)
	}
	return append(b, ']')
}

// appendString appends s as a JSON string the way encoding/json does with
// HTML escaping off.
func appendString(b []byte, s string) []byte { return jsontext.AppendString(b, s) }
