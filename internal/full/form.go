package full

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// NPXForm is how an agent or a person runs intenthook where npm installed
// it into the project: npm puts the package on no PATH; npx finds the
// project's own, and --no-install keeps it from downloading one from the
// registry when it finds none (in an agent's shell, npx would not ask).
const NPXForm = "npx --no-install intenthook"

// Invocation is how intenthook is run in the workspace this binary serves,
// as texts for agents and people name it: NPXForm when the running binary
// lives in a node_modules directory (an npm install), else "intenthook"
// (a person's install on PATH).
func Invocation() string {
	exe, err := os.Executable()
	if err != nil {
		return "intenthook"
	}
	if slices.Contains(strings.Split(filepath.ToSlash(exe), "/"), "node_modules") {
		return NPXForm
	}
	return "intenthook"
}

// spoken are the commands of intenthook that texts name to agents and
// people: `intenthook select <ID>` and the rest.
var spoken = []string{"select", "submit", "lesson", "anchor", "intents", "status", "ledger", "blame", "doctor", "approve", "init", "version", "audit", "precommit"}

// Speak returns text with every command of intenthook it names
// (`intenthook select <ID>`, intenthook lesson "<text>" …) in the form
// Invocation gives. Texts are written with the bare name; they go through
// Speak where they are rendered for an agent or a person, once, so that
// the form is worked out only when there is a text to show.
func Speak(text string) string {
	if !strings.Contains(text, "intenthook ") {
		return text
	}
	form := Invocation()
	if form == "intenthook" {
		return text
	}
	return speakAs(text, form)
}

// speakAs is Speak with the form given.
func speakAs(text, form string) string {
	var b strings.Builder
	rest := text
	for {
		i := strings.Index(rest, "intenthook ")
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		before, after := rest[:i], rest[i+len("intenthook "):]
		b.WriteString(before)
		if commandAt(b.String(), after) {
			b.WriteString(form + " ")
		} else {
			b.WriteString("intenthook ")
		}
		rest = after
	}
}

// commandAt reports whether "intenthook " between before and after is the
// program word of a command: a word of its own (not intenthook-full, not a
// path's last element), not already run by a package runner, and followed
// by one of the spoken commands.
func commandAt(before, after string) bool {
	if before != "" {
		switch c := before[len(before)-1]; {
		case c == '/' || c == '-' || c == '_' || c == '.' || c == '@',
			c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			return false
		}
		if strings.HasSuffix(before, "=\"") {
			return false // evidence quotes what was run: command="intenthook select …"
		}
		for _, runner := range []string{"--no-install ", "npx ", "exec ", "-- ", "bunx ", "dlx ", "x "} {
			if strings.HasSuffix(before, runner) {
				return false
			}
		}
	}
	word := after
	if end := strings.IndexAny(after, " \t\n`'\".,;:)"); end >= 0 {
		word = after[:end]
	}
	return slices.Contains(spoken, word)
}
