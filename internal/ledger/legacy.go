package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/intenthook/intenthook/internal/jsontext"
)

// ParseLine decodes one ledger line. Lines in the seeds' older shapes (no
// version; relative_path, vcs.revision_id, entity_type, model_identifier,
// related values, a flat TraceEntry with intent_id and file at the top level)
// are brought into Record as well as they map; their Version stays "" so a
// reader can tell them apart.
func ParseLine(line []byte) (*Record, error) {
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, fmt.Errorf("parse ledger line: %w", err)
	}
	if r.Version != "" {
		return &r, nil
	}
	var old legacyLine
	if err := json.Unmarshal(line, &old); err != nil {
		return nil, fmt.Errorf("parse ledger line: %w", err)
	}
	return old.record(r.Metadata.Intenthook), nil
}

// legacyLine is the union of the seeds' shapes: the internal TraceEntry and
// the AgentTraceEntry written before Agent Trace 0.1.0.
type legacyLine struct {
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	VCS       *struct {
		Type       string `json:"type"`
		Revision   string `json:"revision"`
		RevisionID string `json:"revision_id"`
	} `json:"vcs"`
	Files []struct {
		Path          string `json:"path"`
		RelativePath  string `json:"relative_path"`
		Conversations []struct {
			URL         string `json:"url"`
			Contributor *struct {
				Type            string `json:"type"`
				ModelID         string `json:"model_id"`
				EntityType      string `json:"entity_type"`
				ModelIdentifier string `json:"model_identifier"`
			} `json:"contributor"`
			Ranges  []Range `json:"ranges"`
			Related []struct {
				Type  string `json:"type"`
				URL   string `json:"url"`
				Value string `json:"value"`
			} `json:"related"`
		} `json:"conversations"`
	} `json:"files"`

	// The flat TraceEntry.
	File *struct {
		Path         string  `json:"path"`
		RelativePath string  `json:"relative_path"`
		PreHash      *string `json:"pre_hash"`
		PostHash     *string `json:"post_hash"`
	} `json:"file"`
	IntentID        string  `json:"intent_id"`
	SessionID       string  `json:"session_id"`
	ToolName        string  `json:"tool_name"`
	MutationClass   string  `json:"mutation_class"`
	ScopeValidation string  `json:"scope_validation"`
	Success         *bool   `json:"success"`
	Error           *string `json:"error"`
}

// record maps an old line onto Record; meta is whatever the line already
// held under metadata."dev.intenthook" (usually nothing).
func (o *legacyLine) record(meta Meta) *Record {
	r := &Record{ID: o.ID, Timestamp: o.Timestamp, Files: []File{}}
	if o.VCS != nil {
		rev := first(o.VCS.Revision, o.VCS.RevisionID)
		if rev != "" {
			r.VCS = &VCS{Type: first(o.VCS.Type, "git"), Revision: rev}
		}
	}
	intent := o.IntentID
	for _, f := range o.Files {
		nf := File{Path: first(f.Path, f.RelativePath), Conversations: []Conversation{}}
		for _, c := range f.Conversations {
			nc := Conversation{URL: c.URL, Ranges: c.Ranges}
			if nc.Ranges == nil {
				nc.Ranges = []Range{}
			}
			if c.Contributor != nil {
				nc.Contributor = &Contributor{
					Type:    contributorType(first(c.Contributor.Type, c.Contributor.EntityType)),
					ModelID: first(c.Contributor.ModelID, c.Contributor.ModelIdentifier),
				}
			}
			for _, rel := range c.Related {
				v := first(rel.URL, rel.Value)
				nc.Related = append(nc.Related, Related{Type: rel.Type, URL: v})
				// Seed 004 filed the intent under "specification".
				if intent == "" && (rel.Type == "intent" || rel.Type == "specification" && looksLikeIntentID(v)) {
					intent = strings.TrimPrefix(v, "intent:")
				}
			}
			nf.Conversations = append(nf.Conversations, nc)
		}
		r.Files = append(r.Files, nf)
	}
	if o.File != nil {
		if p := first(o.File.Path, o.File.RelativePath); p != "" {
			r.Files = append(r.Files, File{Path: p, Conversations: []Conversation{}})
		}
		meta.PreHash = NullString(deref(o.File.PreHash))
		meta.PostHash = NullString(deref(o.File.PostHash))
	}
	meta.IntentID = NullString(first(string(meta.IntentID), intent))
	meta.SessionID = first(meta.SessionID, o.SessionID)
	meta.ToolName = first(meta.ToolName, o.ToolName)
	meta.MutationClass = first(meta.MutationClass, o.MutationClass)
	meta.ScopeValidation = first(meta.ScopeValidation, o.ScopeValidation)
	if o.Success != nil {
		meta.Success = *o.Success
	} else if o.File != nil || len(o.Files) > 0 {
		meta.Success = true // an AgentTraceEntry was only written for a write that happened
	}
	meta.Error = NullString(first(string(meta.Error), deref(o.Error)))
	r.Metadata.Intenthook = meta
	return r
}

// contributorType maps the seeds' "AI" / "Human" onto the spec's values.
func contributorType(s string) string {
	switch t := strings.ToLower(s); t {
	case "ai", "human", "mixed", "unknown":
		return t
	default:
		return "unknown"
	}
}

// looksLikeIntentID recognises the catalog's ids (INT-001) among related values.
func looksLikeIntentID(s string) bool {
	s = strings.TrimPrefix(s, "intent:")
	rest, ok := strings.CutPrefix(s, "INT-")
	return ok && rest != "" && !strings.ContainsAny(rest, "/ .")
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Change is what a record says of a change: its time, intent, tool,
// mutation class, decision and the paths of its files.
type Change struct {
	Time, Intent, Tool, Class, Decision string
	Paths                               []string
}

// ParseChange decodes what a line says of a change, without the record's
// other fields and without encoding/json (jsontext): a hook showing an
// intent's recent changes would meet encoding/json there first, and its
// first use costs a new process more than finding the lines. Fields are
// read as json.Unmarshal reads them into a struct (keys in any case, the
// last of a repeated key, null as absent, a field of another type an
// error). A line in an older shape is parsed whole (ParseLine).
func ParseChange(line []byte) (Change, error) {
	var (
		c       Change
		version string
		bad     bool
	)
	str := func(v []byte, dst *string) {
		if string(v) == "null" {
			return
		}
		s, ok := jsontext.Unquote(v)
		if !ok {
			bad = true
		}
		*dst = s
	}
	// obj reads an object member, or null, by its members.
	obj := func(v []byte, member func(k string, v []byte)) {
		if string(v) != "null" && !jsontext.Members(v, member) {
			bad = true
		}
	}
	ok := jsontext.Members(line, func(k string, v []byte) {
		switch {
		case strings.EqualFold(k, "version"):
			str(v, &version)
		case strings.EqualFold(k, "timestamp"):
			str(v, &c.Time)
		case strings.EqualFold(k, "files"):
			c.Paths = nil
			if string(v) == "null" {
				return
			}
			if !jsontext.Elements(v, func(f []byte) {
				var path string
				obj(f, func(k string, v []byte) {
					if strings.EqualFold(k, "path") {
						str(v, &path)
					}
				})
				c.Paths = append(c.Paths, path)
			}) {
				bad = true
			}
		case strings.EqualFold(k, "metadata"):
			obj(v, func(k string, v []byte) {
				if !strings.EqualFold(k, "dev.intenthook") {
					return
				}
				obj(v, func(k string, v []byte) {
					switch {
					case strings.EqualFold(k, "intent_id"):
						str(v, &c.Intent)
					case strings.EqualFold(k, "tool_name"):
						str(v, &c.Tool)
					case strings.EqualFold(k, "mutation_class"):
						str(v, &c.Class)
					case strings.EqualFold(k, "decision"):
						str(v, &c.Decision)
					}
				})
			})
		}
	})
	if !ok || bad {
		return Change{}, errors.New("parse ledger line: not a record")
	}
	if version == "" {
		rec, err := ParseLine(line)
		if err != nil {
			return Change{}, err
		}
		return rec.Change(), nil
	}
	return c, nil
}

// Change is what r says of a change (ParseChange's answer for its line).
func (r *Record) Change() Change {
	m := &r.Metadata.Intenthook
	c := Change{Time: r.Timestamp, Intent: r.Intent(), Tool: m.ToolName, Class: m.MutationClass, Decision: m.Decision}
	for _, f := range r.Files {
		c.Paths = append(c.Paths, f.Path)
	}
	return c
}
