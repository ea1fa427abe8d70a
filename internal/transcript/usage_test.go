package transcript

import (
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// block is one line Claude Code writes for a content block of message id.
func block(id, model string, in, out, cc, cr int) string {
	return fmt.Sprintf(`{"type":"assistant","message":{"id":%q,"type":"message","role":"assistant","model":%q,"content":[{"type":"text","text":"x"}],`+
		`"usage":{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":%d,"service_tier":"standard"}}}`+"\n",
		id, model, in, cc, cr, out)
}

// tokenCount is a Codex rollout token_count event.
func tokenCount(totIn, totCached, totOut, lastIn, lastCached, lastOut int) string {
	return fmt.Sprintf(`{"timestamp":"2026-11-22T10:35:52.000Z","type":"event_msg","payload":{"type":"token_count","info":{`+
		`"total_token_usage":{"input_tokens":%d,"cached_input_tokens":%d,"output_tokens":%d,"reasoning_output_tokens":0,"total_tokens":0},`+
		`"last_token_usage":{"input_tokens":%d,"cached_input_tokens":%d,"output_tokens":%d,"reasoning_output_tokens":0,"total_tokens":0},`+
		`"model_context_window":272000},"rate_limits":null}}`+"\n", totIn, totCached, totOut, lastIn, lastCached, lastOut)
}

const (
	userLine    = `{"type":"user","message":{"role":"user","content":"the usage of \"usage\" in prose"}}` + "\n"
	turnContext = `{"timestamp":"2026-11-22T10:35:51.000Z","type":"turn_context","payload":{"cwd":"/w","model":"gpt-5.5"}}` + "\n"
)

// step is one state of the transcript and what a call then counts.
type step struct {
	content string // the whole file
	want    Tokens
	model   string
	reset   bool
}

func TestUsage(t *testing.T) {
	m1 := block("msg_01", "claude-sonnet-4-5", 3, 10, 100, 1000)
	m1b := block("msg_01", "claude-sonnet-4-5", 3, 10, 100, 1000)
	m1c := block("msg_01", "claude-sonnet-4-5", 3, 10, 100, 1000)
	m2 := block("msg_02", "claude-opus-4-5", 5, 20, 0, 2000)
	tests := []struct {
		name      string
		fromStart bool
		steps     []step
	}{
		{"the first call starts at the end", false, []step{
			{content: m2 + userLine},
			{content: m2 + userLine + m1, want: Tokens{3, 10, 100, 1000}, model: "claude-sonnet-4-5"},
		}},
		{"a message of three blocks counts once", false, []step{
			{content: userLine},
			{content: userLine + m1 + m1b + userLine + m1c, want: Tokens{3, 10, 100, 1000}, model: "claude-sonnet-4-5"},
			{content: userLine + m1 + m1b + userLine + m1c + m2, want: Tokens{5, 20, 0, 2000}, model: "claude-opus-4-5"},
		}},
		{"a message's blocks split across calls count once", false, []step{
			{content: userLine},
			{content: userLine + m1, want: Tokens{3, 10, 100, 1000}, model: "claude-sonnet-4-5"},
			{content: userLine + m1 + m1b + m1c, model: "claude-sonnet-4-5"},
		}},
		{"a later block's grown usage adds what grew", false, []step{
			{content: ""},
			{content: block("msg_09", "claude-x", 3, 1, 0, 0) + block("msg_09", "claude-x", 3, 40, 0, 0), want: Tokens{3, 40, 0, 0}, model: "claude-x"},
		}},
		{"a torn last line waits until it is whole", false, []step{
			{content: userLine},
			{content: userLine + m1[:40]},
			{content: userLine + m1, want: Tokens{3, 10, 100, 1000}, model: "claude-sonnet-4-5"},
		}},
		{"the end of a torn line at the first call is skipped", false, []step{
			{content: userLine + m2[:30]},
			{content: userLine + m2 + m1, want: Tokens{3, 10, 100, 1000}, model: "claude-sonnet-4-5"},
		}},
		{"a transcript that shrank is a reset", false, []step{
			{content: userLine + userLine},
			{content: m1, reset: true},
			{content: m1 + m2, want: Tokens{5, 20, 0, 2000}, model: "claude-opus-4-5"},
		}},
		{"a transcript rewritten to the same length is a reset", false, []step{
			{content: m1},
			{content: m2 + m2, reset: true},
		}},
		{"a subagent's transcript counts from its start", true, []step{
			{content: m1 + m1b, want: Tokens{3, 10, 100, 1000}, model: "claude-sonnet-4-5"},
		}},
		{"codex token_count: totals, duplicates counted once", false, []step{
			{content: ""},
			{content: turnContext + tokenCount(1000, 800, 50, 1000, 800, 50) + tokenCount(1000, 800, 50, 1000, 800, 50),
				want: Tokens{Input: 200, Output: 50, CacheRead: 800}, model: "gpt-5.5"},
			{content: turnContext + tokenCount(1000, 800, 50, 1000, 800, 50) + tokenCount(1000, 800, 50, 1000, 800, 50) + tokenCount(2500, 1800, 70, 1500, 1000, 20),
				want: Tokens{Input: 500, Output: 20, CacheRead: 1000}},
		}},
		{"codex: a session seen mid-way counts from its newest turn", false, []step{
			{content: tokenCount(9000, 8000, 900, 1000, 800, 50)},
			{content: tokenCount(9000, 8000, 900, 1000, 800, 50) + tokenCount(10500, 9000, 920, 1500, 1000, 20),
				want: Tokens{Input: 500, Output: 20, CacheRead: 1000}},
		}},
		{"codex info null counts nothing", false, []step{
			{content: ""},
			{content: `{"type":"event_msg","payload":{"type":"token_count","info":null}}` + "\n"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "t.jsonl")
			var mark Mark
			known := false
			for i, s := range tt.steps {
				if err := os.WriteFile(p, []byte(s.content), 0o644); err != nil {
					t.Fatal(err)
				}
				sp, next := Usage(p, mark, known, tt.fromStart)
				if sp.Tokens != s.want || sp.Model != s.model || sp.Reset != s.reset {
					t.Errorf("call %d: spent %+v, want %+v model %q reset %v", i+1, sp, s.want, s.model, s.reset)
				}
				// The mark survives the session's state.
				var ok bool
				if mark, ok = ParseMark(next.String()); !ok || mark != next {
					t.Fatalf("call %d: ParseMark(%q) = %+v, %v", i+1, next.String(), mark, ok)
				}
				known = true
			}
		})
	}
}

// A call reads at most MaxRead bytes: the rest is counted by the next
// call, and a line longer than MaxRead is skipped whole.
func TestUsageBounded(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.jsonl")
	pad := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("a", 1000) + `"}}` + "\n"
	many := strings.Repeat(pad, MaxRead/len(pad)+5)
	huge := `{"type":"user","message":{"content":"` + strings.Repeat("b", MaxRead+10) + `"}}` + "\n"
	m1 := block("msg_01", "claude-x", 1, 2, 3, 4)
	m2 := block("msg_02", "claude-x", 10, 20, 30, 40)
	content := many + m1 + huge + m2
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	mark := Mark{Codex: Tokens{Output: -1}}
	var got Tokens
	calls := 0
	for mark.Offset < int64(len(content)) {
		calls++
		if calls > 10 {
			t.Fatalf("no progress: %+v", mark)
		}
		before := mark.Offset
		sp, next := Usage(p, mark, true, false)
		if next.Offset-before > MaxRead {
			t.Errorf("call %d read %d bytes", calls, next.Offset-before)
		}
		got, mark = got.add(sp.Tokens), next
	}
	if want := (Tokens{11, 22, 33, 44}); got != want || calls < 3 {
		t.Errorf("counted %+v in %d calls, want %+v in 3 or more", got, calls, want)
	}
}

func TestParseMarkRefuses(t *testing.T) {
	for _, s := range []string{"", "1 2 3", "2 0 0 0 - 0 0 0 0 0 -1 0", "1 -5 0 0 - 0 0 0 0 0 -1 0", "1 0 0 2 - 0 0 0 0 0 -1 0", "1 0 x 0 - 0 0 0 0 0 -1 0"} {
		if m, ok := ParseMark(s); ok {
			t.Errorf("ParseMark(%q) = %+v, true", s, m)
		}
	}
}

// Unchanged lets a call skip the session's lock: no transcript to read, or
// nothing appended since the mark.
func TestUnchanged(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(p, []byte(userLine), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d.jsonl"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, at := Usage(p, Mark{}, false, false)
	for _, tt := range []struct {
		name, path  string
		mark        Mark
		known, want bool
	}{
		{"missing", filepath.Join(dir, "none.jsonl"), Mark{}, false, true},
		{"not jsonl", filepath.Join(dir, "t.txt"), Mark{}, false, true},
		{"a directory", filepath.Join(dir, "d.jsonl"), Mark{}, false, true},
		{"never counted", p, Mark{}, false, false},
		{"nothing appended", p, at, true, true},
		{"appended", p, Mark{}, true, false},
	} {
		if got := Unchanged(tt.path, tt.mark, tt.known); got != tt.want {
			t.Errorf("%s: Unchanged = %v", tt.name, got)
		}
	}
}

// TestUsageCodexRollout reads a rollout the real Codex CLI 0.169.0 wrote
// (testdata/codex-0.169.0-rollout.jsonl: a session of the e2e harness's
// governance plan against its local mock model, which answers each
// request with 10 input and 5 output tokens; six requests, so six
// token_count events, their totals ending at 60 and 30, each event beside
// a token_usage_record line of the same usage). Read as the session's
// posts would see it grow, line by line from the session's first line,
// and read whole from its start, it counts the last total_token_usage
// once, under the turn_context's model.
func TestUsageCodexRollout(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "codex-0.169.0-rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := Tokens{Input: 60, Output: 30}
	p := filepath.Join(t.TempDir(), "rollout.jsonl")
	lines := strings.SplitAfter(string(data), "\n")
	// The first post comes after the session's first line: counting
	// starts at the end.
	if err := os.WriteFile(p, []byte(lines[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	_, mark := Usage(p, Mark{}, false, false)
	var got Tokens
	model := ""
	for i := 1; i < len(lines); i++ {
		if err := os.WriteFile(p, []byte(strings.Join(lines[:i+1], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		var sp Spent
		sp, mark = Usage(p, mark, true, false)
		if sp.Reset {
			t.Fatalf("line %d: a reset", i+1)
		}
		got = got.add(sp.Tokens)
		if sp.Model != "" {
			model = sp.Model
		}
	}
	if got != want || model != "gpt-5.5" {
		t.Errorf("line by line: %+v under %q, want %+v under gpt-5.5", got, model, want)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if sp, _ := Usage(p, Mark{}, false, true); sp.Tokens != want || sp.Model != "gpt-5.5" {
		t.Errorf("whole, from its start: %+v under %q, want %+v under gpt-5.5", sp.Tokens, sp.Model, want)
	}
}

// TestCRC32IEEE: the marks' check is hash/crc32's IEEE checksum, which
// marks written before it was computed a bit at a time hold.
func TestCRC32IEEE(t *testing.T) {
	for _, s := range []string{"", "a", "123456789", strings.Repeat("{\"type\":\"assistant\"}\n", 4)[:checkBytes], "\x00\xff\x80"} {
		if got, want := crc32IEEE([]byte(s)), crc32.ChecksumIEEE([]byte(s)); got != want {
			t.Errorf("crc32IEEE(%q) = %#x, want %#x", s, got, want)
		}
	}
}
