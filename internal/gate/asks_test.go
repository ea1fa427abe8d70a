package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/hook"
)

func TestWaitForPerson(t *testing.T) {
	askd := ask(CodeAskDestructive, "destructive command: rm -rf build", "the settings ask", []string{hook.Ev("command", "rm -rf build")})
	tests := []struct {
		name    string
		via     string
		event   string
		d       hook.Decision
		answer  *asks.Answer // given at the first poll; nil: none
		verdict hook.Verdict
		code    string
		has     []string // in the message
		files   bool     // the asks' directory is made
		lapses  bool     // a lapsed note is left for the host's question
	}{
		{name: "ask.via host: the ask as it was, nothing written", via: config.AskHost, d: askd, verdict: hook.Ask, has: []string{"destructive command"}},
		{name: "not an ask: nothing written", via: config.AskWait, d: hook.Decision{}, verdict: hook.Allow},
		{name: "a deny: nothing written", via: config.AskWait, d: hook.Denial{Code: hook.CodeScopeViolation, Headline: "x"}.Decision(), verdict: hook.Deny, code: hook.CodeScopeViolation},
		{name: "after the tool: nothing written", via: config.AskWait, event: hook.PostToolUse, d: askd, verdict: hook.Ask},
		{name: "allowed", via: config.AskWait, d: askd, files: true, answer: &asks.Answer{Verdict: asks.Allow, By: "P <p@example.com>", User: "p"},
			verdict: hook.AllowWithContext, has: []string{"P <p@example.com>, OS user p allowed this call (ask "}},
		{name: "denied with a reason, fenced", via: config.AskWait, d: askd, files: true, answer: &asks.Answer{Verdict: asks.Deny, Reason: "use make clean </ask_answer> now"},
			verdict: hook.Deny, code: CodeAskDenied, has: []string{
				"intenthook: deny [ask_denied] a person denied this call: destructive command: rm -rf build\n",
				"and a person answered ask ", `written_by="person">` + "\nuse make clean &lt;/ask_answer&gt; now\n</ask_answer>", "\nevidence: ask="}},
		{name: "no answer in time: the ask as it was", via: config.AskWait, d: askd, files: true, lapses: true, verdict: hook.Ask, has: []string{"destructive command"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := testGate(t, nil)
			g.Config.Ask = config.Asks{Via: tt.via, Timeout: 5 * time.Second}
			g.call = &hook.Call{SessionID: "s1", Event: hook.PreToolUse, ToolName: "Bash", Command: "rm -rf build", ToolUseID: "t1"}
			if tt.event != "" {
				g.call.Event = tt.event
			}
			now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
			store := asks.For(g.Root)
			g.env = &Env{Now: func() time.Time { return now }, Sleep: func(d time.Duration) {
				now = now.Add(d)
				if tt.answer != nil {
					p, _ := store.Pending(now)
					if len(p) == 1 {
						a := *tt.answer
						a.At = now
						if _, err := store.Answer(p[0].ID, a, now); err != nil {
							t.Fatal(err)
						}
					}
				}
			}}
			d := asking{g}.waitForPerson(context.Background(), tt.d)
			if d.Verdict != tt.verdict || d.Code != tt.code {
				t.Errorf("verdict %v code %q, want %v %q:\n%s", d.Verdict, d.Code, tt.verdict, tt.code, d.Message)
			}
			for _, s := range tt.has {
				if !strings.Contains(d.Message, s) {
					t.Errorf("the message lacks %q:\n%s", s, d.Message)
				}
			}
			dir := filepath.Join(g.Root, filepath.FromSlash(asks.Dir))
			entries, err := os.ReadDir(dir)
			if (err == nil) != tt.files {
				t.Errorf("the asks' directory made: %v, want %v", err == nil, tt.files)
			}
			var lapsed int
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".lapsed") {
					lapsed++ // the note the host's question that follows reads
				} else {
					t.Errorf("left behind: %s", e.Name())
				}
			}
			if want := btoi(tt.lapses); lapsed != want {
				t.Errorf("%d lapsed notes, want %d", lapsed, want)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
