package ledger

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// jsonLine is the record as encoding/json writes it, the form every reader
// of the ledger expects: nil file, conversation and range lists as [].
func jsonLine(t *testing.T, r *Record) []byte {
	t.Helper()
	c := *r
	c.Files = make([]File, len(r.Files))
	for i, f := range r.Files {
		f.Conversations = append([]Conversation{}, f.Conversations...)
		for j := range f.Conversations {
			if f.Conversations[j].Ranges == nil {
				f.Conversations[j].Ranges = []Range{}
			}
		}
		c.Files[i] = f
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// hostile strings: every byte, invalid UTF-8, the separators JSON escapes,
// HTML characters (left alone), quotes and backslashes.
var hostile = []string{
	"", "plain", `quote " and \ backslash`, "<script>&amp;</script>", "tab\tnew\nline\rcr\bbs\fff",
	"\x00\x01\x1f\x7f", "ünïcødé 日本", "\u2028\u2029", "bad \xff\xfe utf8 \xc3", "\xe2\x80", "emoji 🎉",
	strings.Repeat("x", 300),
}

func allBytes() string {
	var b []byte
	for i := 0; i < 256; i++ {
		b = append(b, byte(i))
	}
	return string(b)
}

func TestAppendLineMatchesJSON(t *testing.T) {
	full := &Record{
		Version: SpecVersion, ID: "0199-id", Timestamp: "2026-11-24T12:00:00.000Z",
		VCS:  &VCS{Type: "git", Revision: "abc"},
		Tool: &Tool{Name: "intenthook", Version: "v1"},
		Files: []File{
			{Path: "src/a.go", Conversations: []Conversation{{
				URL: "file:///t.jsonl", Contributor: &Contributor{Type: "ai", ModelID: "anthropic/claude"},
				Ranges:  []Range{{StartLine: 1, EndLine: 2, ContentHash: "sha256:x"}, {StartLine: 5, EndLine: 5}},
				Related: []Related{{Type: "intent", URL: "intent:INT-1"}},
			}}},
			{Path: "gone", Conversations: []Conversation{{Contributor: &Contributor{Type: "unknown"}}}},
			{Path: "bare"},
		},
		Metadata: Metadata{Intenthook: Meta{
			Seq: math.MaxInt64, Prev: "sha256:p", Event: EventPostToolUse, IntentID: "INT-1", SessionID: "s",
			AgentID: "a", ToolName: "Write", ToolUseID: "t", MutationClass: "AST_REFACTOR", PreHash: "h1", PostHash: "h2",
			ScopeValidation: "PASS", Decision: "allow", Code: "c", Success: true, Error: "e", Format: Format,
			Command: "cmd", CommandHash: "ch", ErrorHash: "eh", Redacted: []string{"command"}, Paths: []string{"p1", "p2"},
			Reason: "r", From: "f", To: "t", Fragment: "fr", Cut: []string{"command"}, AgentType: "Explore",
			Checks: []string{"go test", "make"}, Summary: json.RawMessage(`{"files": ["a<b>.go"], "checks": [{"command": "make"}]}`), Result: json.RawMessage(`{"x":1}`),
		}},
	}
	tests := map[string]*Record{
		"full":         full,
		"empty":        {},
		"nil lists":    {Files: []File{{Path: "x", Conversations: []Conversation{{}}}}, Metadata: Metadata{Intenthook: Meta{Redacted: []string{}, Seq: -1}}},
		"first record": {Version: SpecVersion, ID: "i", Metadata: Metadata{Intenthook: Meta{Seq: 1, Event: EventSelect}}},
	}
	for i, s := range append(hostile, allBytes()) {
		r := *full
		r.ID, r.Files = s, []File{{Path: s, Conversations: []Conversation{{URL: s, Contributor: &Contributor{Type: s, ModelID: s}, Ranges: []Range{{ContentHash: s}}, Related: []Related{{Type: s, URL: s}}}}}}
		m := full.Metadata.Intenthook
		m.Command, m.Error, m.Reason, m.Paths, m.IntentID = s, NullString(s), s, []string{s}, NullString(s)
		r.Metadata.Intenthook = m
		tests["hostile "+string(rune('a'+i))] = &r
	}
	// Random records: each optional field present or not.
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() string {
		if rng.IntN(3) == 0 {
			return ""
		}
		return hostile[rng.IntN(len(hostile))]
	}
	for i := range 200 {
		r := &Record{Version: pick(), ID: pick(), Timestamp: pick()}
		if rng.IntN(2) == 0 {
			r.VCS = &VCS{Type: pick(), Revision: pick()}
		}
		if rng.IntN(2) == 0 {
			r.Tool = &Tool{Name: pick(), Version: pick()}
		}
		for range rng.IntN(3) {
			f := File{Path: pick()}
			for range rng.IntN(3) {
				c := Conversation{URL: pick()}
				if rng.IntN(2) == 0 {
					c.Contributor = &Contributor{Type: pick(), ModelID: pick()}
				}
				for range rng.IntN(3) {
					c.Ranges = append(c.Ranges, Range{StartLine: rng.IntN(100) - 5, EndLine: rng.IntN(1000), ContentHash: pick()})
				}
				for range rng.IntN(2) {
					c.Related = append(c.Related, Related{Type: pick(), URL: pick()})
				}
				f.Conversations = append(f.Conversations, c)
			}
			r.Files = append(r.Files, f)
		}
		m := &r.Metadata.Intenthook
		m.Seq, m.Prev, m.Event, m.IntentID, m.SessionID = rng.Int64()-rng.Int64(), NullString(pick()), pick(), NullString(pick()), pick()
		m.AgentID, m.ToolName, m.ToolUseID, m.MutationClass = NullString(pick()), pick(), pick(), pick()
		m.PreHash, m.PostHash, m.ScopeValidation, m.Decision, m.Code = NullString(pick()), NullString(pick()), pick(), pick(), NullString(pick())
		m.Success, m.Error, m.Format = rng.IntN(2) == 0, NullString(pick()), rng.IntN(3)
		m.Command, m.CommandHash, m.ErrorHash, m.Reason, m.From, m.To, m.Fragment, m.AgentType = pick(), pick(), pick(), pick(), pick(), pick(), pick(), pick()
		for range rng.IntN(3) {
			m.Redacted, m.Paths, m.Cut = append(m.Redacted, pick()), append(m.Paths, pick()), append(m.Cut, pick())
		}
		tests["random "+string(rune('A'+i%26))+string(rune('a'+i/26))] = r
	}
	for name, r := range tests {
		if got, want := r.MarshalLine(), jsonLine(t, r); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// recordID reads intenthook's own lines in place and agrees with a
// decoder on every line, its own or not.
func TestRecordID(t *testing.T) {
	own := (&Record{Version: SpecVersion, ID: "0199abcd-id", Metadata: Metadata{Intenthook: Meta{Seq: 4}}}).MarshalLine()
	for _, line := range []string{
		string(own),
		`{"version":"0.1.0","id":"a","ID":"b"}`,
		`{"version":"0.1.0","id":"a","metadata":{"Id":"c"}}`,
		`{"version":"0.1.0","id":"a\"b"}`,
		`{"version":"0.1.0","id":"a\u0062"}`,
		`{"id":"first","version":"0.1.0"}`,
		`{"version":"0.1.0","id":"a","id":"b"}`,
		`not json`,
		``,
	} {
		var want struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal([]byte(line), &want)
		if got := recordID([]byte(line)); got != want.ID {
			t.Errorf("recordID(%s) = %q, want %q", line, got, want.ID)
		}
	}
}

// FuzzAppendString: every string is quoted as encoding/json quotes it.
func FuzzAppendString(f *testing.F) {
	for _, s := range append(hostile, allBytes()) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got, want := appendString(nil, s), bytes.TrimSuffix(buf.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}
