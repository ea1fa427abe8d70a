package gate

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/hook"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/workspace"
)

// hookProgram is the gate's side of the programs the hooks run (an npm
// install's binaries, workspace's Program rows): a shell command that
// changed one cannot be undone, since nothing can put a program back, so
// the command's post leaves a note (workspace.HookReplacedFile) and pre
// denies every call that may change anything (hook_replaced) while a
// program the note names is still as the command left it. A person's
// reinstall gives the file another fingerprint and ends it. A program that
// is no intenthook answers nothing of this, nor its own post: that is the
// OS sandbox's to stop (node_modules/intenthook is read-only there), and
// doctor's and precommit's checksums, run by a binary from outside the
// workspace, to find.
type hookProgram struct{ g *Gate }

// reinstall says how a person puts the programs back.
const reinstall = "check that package.json names intenthook from the registry, then rm -rf node_modules/intenthook node_modules/@intenthook && npm ci (or npm install); `intenthook doctor` checks"

// leave writes the note for the programs the command changed, journaled as
// this call's hook write (the guard of another session's command running
// meanwhile excuses it).
func (h hookProgram) leave(changed []guard.ProgramChange) {
	g := h.g
	if len(changed) == 0 {
		return
	}
	r := guard.Replaced{Programs: map[string]string{}, Session: g.call.SessionID, Command: g.call.Command, At: g.env.now().UTC()}
	if old, ok := guard.ReadReplaced(h.path()); ok {
		for rel := range old.Programs {
			if slices.Contains(old.Still(g.Root), rel) {
				r.Programs[rel] = old.Programs[rel]
			}
		}
	}
	for _, c := range changed {
		r.Programs[c.Rel] = c.After
	}
	data, err := guard.WriteReplaced(h.path(), r)
	if err != nil {
		g.note(fmt.Errorf("note the replaced hook program: %w", err))
		return
	}
	guard.JournalBy(g.Root, workspace.HookReplacedFile, data, guard.By(g.call.SessionID, g.call.ToolUseID))
}

func (h hookProgram) path() string {
	return filepath.Join(h.g.Root, filepath.FromSlash(workspace.HookReplacedFile))
}

// check denies while a program the note names is still as a command left
// it. One open of a file that is usually absent.
func (h hookProgram) check() (hook.Decision, bool) {
	g := h.g
	r, ok := guard.ReadReplaced(h.path())
	if !ok {
		return hook.Decision{}, false
	}
	still := r.Still(g.Root)
	if len(still) == 0 {
		g.explain.step("hook-program", "pass", "the replaced program was reinstalled")
		return hook.Decision{}, false
	}
	g.explain.step("hook-program", "deny", strings.Join(still, ", ")+" is as a command left it")
	return hook.Denial{
		Code:     hook.CodeHookReplaced,
		Headline: "the program the hooks run was replaced during an agent's shell command: " + strings.Join(still, ", "),
		Why:      "session " + safetext.OneLine(r.Session) + "'s command `" + safetext.Clip(safetext.OneLine(r.Command), 120) + "` changed it (recorded as " + guard.CodeGovernanceTampered + "); a replaced program may decide nothing it claims to, and nothing can put a program back, so every call that may change anything is refused until a person reinstalls intenthook",
		Instead:  "stop, and ask the user to reinstall intenthook from their own terminal: " + reinstall,
		Evidence: []string{hook.Ev("path", still[0]), hook.Ev("session", g.call.SessionID), hook.Ev("replaced_by", r.Session), hook.Ev("at", r.At.UTC().Format("2006-01-02T15:04:05Z"))},
	}.Decision(), true
}

// programLines describes, for the violation's answer, the programs the
// command changed.
func programLines(b *strings.Builder, changed []guard.ProgramChange) []string {
	var shown []string
	for _, c := range changed {
		what := "replaced"
		switch {
		case c.After == "":
			what = "removed"
		case c.Before == "":
			what = "put in place"
		}
		fmt.Fprintf(b, "  %s: %s by the command; a program cannot be put back: every later call that may change anything is denied (%s) until a person reinstalls intenthook\n", c.Rel, what, hook.CodeHookReplaced)
		shown = append(shown, c.Rel+" ("+what+", NOT put back: reinstall intenthook from your own terminal: "+reinstall+")")
	}
	return shown
}
