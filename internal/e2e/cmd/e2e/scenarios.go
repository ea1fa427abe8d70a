package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/e2e/harness"
	"github.com/intenthook/intenthook/internal/e2e/mockmodel"
	"github.com/intenthook/intenthook/internal/ledger"
)

// Paths in the catalog `intenthook init` writes: INT-001 owns src/example/**.
const (
	inScope  = "src/example/a.txt"
	outScope = "docs/b.txt"
	outShell = "docs/c.txt"
)

// governance is the fence itself, in one session: a write before any
// intent is selected, the selection through the shell tool, a write in
// scope, one out of scope, and an out-of-scope write hidden in a shell
// command.
func governance(t *trial) {
	if !t.parentOf(inScope, "session") {
		return
	}
	s := t.run(
		t.c.Write(t.w.Abs(inScope), "a\n"),
		t.c.Shell("intenthook select INT-001"),
		t.c.Write(t.w.Abs(inScope), "a\n"),
		t.c.Write(t.w.Abs(outScope), "b\n"),
		t.c.Shell("mkdir -p docs && echo c > docs/c.txt"),
	)
	if t.failed("session", s) {
		return
	}
	ctx := strings.Contains(firstWithTools(s.Requests), "This workspace is governed by intenthook")
	if t.c.NoStartContext != "" {
		t.rows = append(t.rows, row{t.c.Name, "session-context", "N/A", t.c.NoStartContext + "; the first request " + seen(ctx, "the preamble")})
	} else {
		t.check("session-context", ctx, "the first request to the model "+seen(ctx, "the SessionStart preamble"))
	}
	t.check("write-without-intent", s.Saw("intenthook: deny [intent_required]"), "the deny reason reached the model")
	t.checkSelectInShell(s)
	ok, detail := t.written(inScope, "a\n")
	t.check("in-scope-write", ok, detail)
	t.checkOutOfScope("out-of-scope-write", s)
	_, exists := t.w.ReadFile(outShell)
	// The shell command's own denial names docs (mkdir) or docs/c.txt.
	shellDenied := s.Saw("path=docs ") || s.Saw("path=docs/c.txt ")
	t.check("out-of-scope-shell", !exists && shellDenied, writtenOrNot(outShell, exists)+"; "+seen(shellDenied, "the shell deny")+"; "+denials(s.Requests))
}

// parentOf makes rel's directory, which Copilot CLI's create tool wants
// to exist, and says whether it could (else the row named fails).
func (t *trial) parentOf(rel, row string) bool {
	if err := os.MkdirAll(filepath.Dir(t.w.Abs(rel)), 0o755); err != nil {
		t.check(row, false, err.Error())
		return false
	}
	return true
}

// mcpSelect: the model selects its intent with the MCP server's tool (the
// server init registers, in hook mode: the hook binds the selection), then
// writes in scope.
func mcpSelect(t *trial) {
	if !t.parentOf(inScope, "mcp-select") {
		return
	}
	name := t.c.MCPTool("intenthook", "select_active_intent")
	args := map[string]any{"intent_id": "INT-001", "reasoning": "the scripted task is example work"}
	calls := []mockmodel.ToolCall{{Name: name, Args: args}}
	if t.c.MCPCalls != nil {
		calls = t.c.MCPCalls("intenthook", "select_active_intent", args)
	}
	s := t.run(append(calls, t.c.Write(t.w.Abs(inScope), "a\n"))...)
	if t.failed("mcp-select", s) {
		return
	}
	// The tool as offered: Codex offers it by its own name in the
	// namespace its tool search loaded.
	if offered := calls[len(calls)-1].Name; !s.Saw(`"name":"` + offered + `"`) {
		t.check("mcp-select", false, "the client did not offer "+offered+" to the model")
		return
	}
	ok, detail := t.written(inScope, "a\n")
	t.check("mcp-select", ok && s.Saw("<intent_context"), "selected through MCP ("+name+"); "+detail)
}

// lessonNextSession: a lesson recorded through the shell tool in one
// session is in the next session's SessionStart context. The next session
// has the intent through the workspace default, which a person sets.
func lessonNextSession(t *trial) {
	const lesson = "e2e lesson: the example module keeps one value per line"
	s := t.run(
		t.c.Shell("intenthook select INT-001"),
		t.c.Shell(fmt.Sprintf("intenthook lesson %q --intent INT-001", lesson)),
	)
	if t.failed("lesson-next-session", s) {
		return
	}
	if out, err := t.w.Person("select", "INT-001", "--default"); err != nil {
		t.check("lesson-next-session", false, fmt.Sprintf("intenthook select --default: %v: %s", err, out))
		return
	}
	next := t.run()
	if t.failed("lesson-next-session", next) {
		return
	}
	first := firstWithTools(next.Requests)
	const head = "Lessons from earlier sessions on this work"
	i := strings.Index(first, head)
	ok := i >= 0 && strings.Contains(first[i:], lesson)
	t.check("lesson-next-session", ok, "the next session's first request "+seen(ok, "the lesson in its SessionStart context"))
}

// subagentBriefing: a subagent started with the Task tool gets the
// SubagentStart briefing in its own conversation with the model.
func subagentBriefing(t *trial) {
	const task = "e2e subagent task: look at the example module"
	s := t.w.Run(t.c, t.cache, []mockmodel.Turn{
		turn(t.c.Shell("intenthook select INT-001")),
		turn(mockmodel.ToolCall{Name: "Agent", Args: map[string]any{
			"description": "look around", "prompt": task, "subagent_type": "general-purpose"}}),
		{Text: "the subagent is done"},
		{Text: "done"},
	})
	if t.failed("subagent-briefing", s) {
		return
	}
	// The subagent's own conversation starts with its task; the parent's
	// requests carry the task only inside the Agent call.
	const briefing = "SubagentStart hook additional context: This workspace is governed by intenthook"
	var sub string
	for _, r := range s.Requests {
		if strings.Contains(r.Body, task) && !strings.Contains(r.Body, "do the scripted task") {
			sub = r.Body
		}
	}
	if sub == "" {
		t.check("subagent-briefing", false, fmt.Sprintf("no request of the subagent's own among %d", len(s.Requests)))
		return
	}
	ok := strings.Contains(sub, briefing) && strings.Contains(sub, "You work under intent INT-001")
	t.check("subagent-briefing", ok, "the subagent's first request "+seen(ok, "the briefing with INT-001"))
}

// reviewCycle: with review.default required, the model submits its intent
// (`intenthook submit INT-001` through the shell tool), which moves it to
// IN_REVIEW and stops its writes; a person rejects it with a reason, which
// the next session that takes the intent up is shown; that session fixes
// the work and submits again; a person approves: COMPLETE.
func reviewCycle(t *trial) {
	const catalog = ".orchestration/active_intents.yaml"
	const reason = "e2e reason: the example needs a second file"
	// New files only: Claude Code wants a file read before it is
	// overwritten.
	const underReview, fix = "src/example/b.txt", "src/example/c.txt"
	status := func() string {
		text, _ := t.w.ReadFile(catalog)
		for _, st := range []string{"IN_REVIEW", "IN_PROGRESS", "COMPLETE", "PENDING"} {
			if strings.Contains(text, `status: "`+st+`"`) {
				return st
			}
		}
		return "unknown"
	}
	if !t.parentOf(inScope, "review-submit") {
		return
	}
	if err := os.WriteFile(t.w.Abs(".orchestration/config.yaml"), []byte("review: {default: required}\n"), 0o644); err != nil {
		t.check("review-submit", false, err.Error())
		return
	}
	s := t.run(
		t.c.Shell("intenthook select INT-001"),
		t.c.Write(t.w.Abs(inScope), "a\n"),
		t.c.Shell("intenthook submit INT-001"),
		t.c.Write(t.w.Abs(underReview), "b\n"),
	)
	if t.failed("review-submit", s) {
		return
	}
	submitted := s.Saw("IN_REVIEW (a person approves it")
	t.check("review-submit", submitted && status() == "IN_REVIEW", "the model "+seen(submitted, "the submission's answer")+"; catalog "+status())
	_, exists := t.w.ReadFile(underReview)
	t.check("review-write-denied", s.Saw("deny [intent_not_in_progress]") && !exists, "a write under review: "+denials(s.Requests)+"; "+writtenOrNot(underReview, exists))

	if out, err := t.w.Person("intents", "reject", "INT-001", "--reason", reason); err != nil {
		t.check("review-reject", false, fmt.Sprintf("intenthook intents reject: %v: %s", err, out))
		return
	}
	next := t.run(
		t.c.Shell("intenthook select INT-001"),
		t.c.Write(t.w.Abs(fix), "c\n"),
		t.c.Shell("intenthook submit INT-001"),
	)
	if t.failed("review-reject", next) {
		return
	}
	told := next.Saw("A person rejected the last submission of INT-001") && next.Saw(reason)
	t.check("review-reject", told, "the next session "+seen(told, "the person's reason with the intent's context"))
	ok, detail := t.written(fix, "c\n")
	t.check("review-resubmit", ok && status() == "IN_REVIEW", detail+"; catalog "+status())

	out, err := t.w.Person("intents", "approve", "INT-001")
	t.check("review-approve", err == nil && status() == "COMPLETE", fmt.Sprintf("intenthook intents approve: %v %s; catalog %s", err, strings.TrimSpace(string(out)), status()))
}

// restoreShown: a program in the agent's shell command appends to the
// catalog (a makefile's recipe, which the parser leaves to the guard and
// the backstop: awk's redirections, the earlier form, are now read and
// denied before they run); the hook puts it back. The model reads the
// violation, and the person sees the restore: Claude Code prints the
// hook's systemMessage in its stream-json output.
func restoreShown(t *trial) {
	const catalog = ".orchestration/active_intents.yaml"
	const line = "# e2e: a line a program of the agent appended"
	s := t.run(
		t.c.Shell("intenthook select INT-001"),
		t.c.Shell(`mkdir -p src/example && printf 'all:\n\t@echo "`+line+`" >> `+catalog+`\n' > src/example/e2e.mk`),
		t.c.Shell("make -s -f src/example/e2e.mk"),
	)
	if t.failed("restore", s) {
		return
	}
	text, _ := t.w.ReadFile(catalog)
	putBack := !strings.Contains(text, line)
	told := s.Saw("intenthook: violation [governance_tampered] the command changed the rules")
	shown := strings.Contains(string(s.Output), `"content":"PostToolUse:Bash says: intenthook put back what an agent's command changed: `+
		catalog+` (displaced version: .orchestration/state/undone/`)
	t.check("restore", putBack && told && shown, fmt.Sprintf("the catalog put back: %v; the model %s; the person's output %s",
		putBack, seen(told, "the violation"), seen(shown, "the systemMessage naming the catalog and its kept version")))
}

// modsRefused: the model writes a mod into Claude Code's dev-mods folder
// under its HOME, where Claude Code loads code into its own process that
// sees each tool call before the hooks: with the Write tool (denied
// protected_path before it runs) and through a makefile's recipe, a
// program the parser does not model (the guard pictures the folder before
// the command and takes the planted file out at its post).
func modsRefused(t *trial) {
	mods := filepath.Join(t.w.Home, ".claude", "dev-mods")
	direct := filepath.Join(mods, "e2e-write", "hooks", "register.ts")
	planted := filepath.Join(mods, "e2e-make", "hooks", "register.ts")
	s := t.run(
		t.c.Shell("intenthook select INT-001"),
		t.c.Write(direct, "export default {}\n"),
		t.c.Shell(`mkdir -p src/example && printf 'all:\n\t@mkdir -p $(HOME)/.claude/dev-mods/e2e-make/hooks && echo "export default {}" > $(HOME)/.claude/dev-mods/e2e-make/hooks/register.ts\n' > src/example/mods.mk`),
		t.c.Shell("make -s -f src/example/mods.mk"),
	)
	if t.failed("mods-write", s) {
		return
	}
	_, err := os.Lstat(direct)
	wrote := err == nil
	refused := s.Saw("intenthook: deny [protected_path] Write to")
	t.check("mods-write", !wrote && refused, fmt.Sprintf("%s; the model %s", writtenOrNot("dev-mods/e2e-write/hooks/register.ts", wrote),
		seen(refused, "the protected_path deny")))
	_, err = os.Lstat(planted)
	left := err == nil
	told := s.Saw("intenthook: violation [governance_tampered]") && s.Saw("dev-mods/e2e-make/hooks/register.ts: taken out")
	t.check("mods-program", !left && told, fmt.Sprintf("the planted module %s; the model %s", map[bool]string{true: "LEFT in place", false: "taken out"}[left],
		seen(told, "the violation naming it")))
}

// modsHeadless: a mod left in the dev-mods folder of the session a
// headless run starts (claude -p --session-id ID; a resumed session finds
// its own folder the same way) — whether Claude Code loads it without a
// question and runs its hooks module (its debug log names both), and that
// intenthook doctor lists it and grades Claude Code guarded, which is what
// the row holds.
func modsHeadless(t *trial) {
	const id = "7f0c9d2e-5b1a-4c3e-9f8a-1d2e3f4a5b6c"
	mod := filepath.Join(t.w.Home, ".claude", "dev-mods", id, "e2e-probe")
	files := map[string]string{
		".claude-plugin/plugin.json": `{"name": "e2e-probe", "version": "0.0.1", "description": "an e2e probe"}` + "\n",
		// The hooks module as the template Claude Code writes for a new
		// mod has it: a tool.call handler that passes every call on.
		"hooks/hooks.json":  `{"modules": ["./register.js"]}` + "\n",
		"hooks/register.js": "export function register(on) {\n  on(\"tool.call\", () => undefined)\n}\n",
	}
	for rel, body := range files {
		p := filepath.Join(mod, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.check("mods-headless", false, err.Error())
			return
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.check("mods-headless", false, err.Error())
			return
		}
	}
	s := t.runWith([]string{"--session-id", id, "--debug"}, t.c.Shell("intenthook select INT-001"))
	if t.failed("mods-headless", s) {
		return
	}
	log, _ := os.ReadFile(filepath.Join(t.w.Home, ".claude", "debug", id+".txt"))
	plugin := strings.Contains(string(log), "Loaded inline plugin from path: e2e-probe")
	ran := strings.Contains(string(log), "hooks module e2e-probe@inline loaded")
	out, _ := t.w.Person("doctor")
	listed := strings.Contains(string(out), "claude mods: a mod runs inside Claude Code") && strings.Contains(string(out), "e2e-probe")
	guarded := strings.Contains(string(out), "claude grade: guarded")
	t.check("mods-headless", listed && guarded, fmt.Sprintf("claude -p loaded the mod in its session's folder as a plugin at start: %v, loaded its hooks module: %v; doctor %s, grade guarded: %v",
		plugin, ran, map[bool]string{true: "listed it", false: "did NOT list it"}[listed], guarded))
}

// sandboxEscape: a shell command in scope that the model marks
// dangerouslyDisableSandbox reaches the hook with the flag, and the hook
// asks a person; a headless run (claude -p) answers the ask with a denial,
// so the command does not run. The same command without the flag runs.
func sandboxEscape(t *trial) {
	const escaped, plain = "src/example/escaped.txt", "src/example/plain.txt"
	leave := t.c.Shell("mkdir -p src/example && echo e > " + escaped)
	leave.Args["dangerouslyDisableSandbox"] = true
	s := t.run(
		t.c.Shell("intenthook select INT-001"),
		leave,
		t.c.Shell("mkdir -p src/example && echo p > "+plain),
	)
	if t.failed("sandbox-escape", s) {
		return
	}
	asked := s.Saw("intenthook: the command asks to run outside the sandbox (dangerouslyDisableSandbox)")
	_, ran := t.w.ReadFile(escaped)
	stayed, _ := t.w.ReadFile(plain)
	t.check("sandbox-escape", asked && !ran && stayed == "p\n", fmt.Sprintf("the model %s; %s; the command without the flag wrote %q",
		seen(asked, "the hook's ask"), writtenOrNot(escaped, ran), stayed))
}

// addedDir: a directory added to the session outside the workspace
// (claude --add-dir DIR, which Claude Code lets the session write) is not
// governed by the workspace: intenthook denies the Write there
// path_outside_workspace and the file is not written, while a Write in the
// intent's scope passes. (outside_allow is emptied: the added directory
// lies in the temporary directory, which the default allows.)
func addedDir(t *trial) {
	added, err := t.w.Outside("added")
	if err == nil {
		err = os.WriteFile(t.w.Abs(".orchestration/config.yaml"), []byte("outside_allow: []\n"), 0o644)
	}
	if err != nil {
		t.check("add-dir", false, err.Error())
		return
	}
	const inside = "src/example/in.txt"
	outside := filepath.Join(added, "x.txt")
	s := t.runWith([]string{"--add-dir", added},
		t.c.Shell("intenthook select INT-001"),
		t.c.Write(outside, "x\n"),
		t.c.Write(t.w.Abs(inside), "in\n"),
	)
	if t.failed("add-dir", s) {
		return
	}
	denied := s.Saw("intenthook: deny [path_outside_workspace]")
	_, err = os.Stat(outside)
	wrote := err == nil
	ok, detail := t.written(inside, "in\n")
	t.check("add-dir", denied && !wrote && ok, fmt.Sprintf("the model %s; %s; in scope: %s",
		seen(denied, "the path_outside_workspace deny"), writtenOrNot("the added directory's x.txt", wrote), detail))
}

// sandboxed: under `intenthook init --sandbox` (Claude Code's bubblewrap
// sandbox for its shell tool; the hooks run outside it), the agent's
// intenthook commands still work in the shell though the sandbox stands a
// null device in for every read-only path that does not exist
// (config.yaml here); a program cannot write the catalog or the pictures
// pre leaves for post; and a copy of the binary that runs post on the
// command's own event, to use the picture up before writing outside the
// scope, leaves the picture in place: the real post judges the write. A
// commit runs the pre-commit hook in the sandbox, and a submission's checks
// run there while its post, outside, moves the intent to IN_REVIEW.
func sandboxed(t *trial) {
	for _, tool := range []string{"bwrap", "socat"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.rows = append(t.rows, row{t.c.Name, "sandbox", "N/A", "Claude Code's sandbox needs bubblewrap and socat (apt install bubblewrap socat): " + tool + " is not on PATH"})
			return
		}
	}
	if out, err := t.w.Person("init", "--sandbox", "--git-hook"); err != nil {
		t.check("sandbox", false, fmt.Sprintf("intenthook init --sandbox: %v: %s", err, out))
		return
	}
	if err := os.WriteFile(t.w.Abs(".orchestration/config.yaml"), []byte("review: {default: required}\n"), 0o644); err != nil {
		t.check("sandbox", false, err.Error())
		return
	}
	const makefile, hidden = "src/example/Makefile", "docs/hidden.txt"
	// The mock model numbers its messages: the make call is the fourth.
	const makeID = "toolu_mock_msg_mock_4_0"
	s := t.run(
		t.c.Shell("intenthook select INT-001"),
		t.c.Shell(`awk 'BEGIN{print "# sandboxed" >> ".orchestration/active_intents.yaml"}'; awk 'BEGIN{print "x" >> ".orchestration/state/pending/x.log"}'; echo awk-done`),
		t.c.Write(t.w.Abs(makefile), "all:\n"+
			"\tcp \"$$(command -v intenthook-full)\" src/example/t\n"+
			"\tprintf '{\"session_id\":\"%s\",\"cwd\":\"%s\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"make -s -f "+makefile+"\"},\"tool_response\":{\"stdout\":\"\"},\"tool_use_id\":\""+makeID+"\"}' \"$$CLAUDE_CODE_SESSION_ID\" \"$$PWD\" | env -u CLAUDECODE src/example/t post >/dev/null 2>&1; true\n"+
			"\tmkdir -p docs && echo x > "+hidden+"\n"),
		t.c.Shell("make -s -f "+makefile),
		// Staged by name: git add -A stops at the sandbox's own stand-ins.
		t.c.Shell("git add "+makefile+" && git -c user.name=e2e -c user.email=e2e@example.com commit -qm wip; echo commit-rc=$?"),
		t.c.Shell("intenthook submit INT-001"),
	)
	if t.failed("sandbox", s) {
		return
	}
	selected := s.Saw(`<intent_context id=\"INT-001\"`)
	cat, _ := t.w.ReadFile(".orchestration/active_intents.yaml")
	_, planted := t.w.ReadFile(".orchestration/state/pending/x.log")
	blocked := !strings.Contains(cat, "# sandboxed") && !planted && s.Saw("Read-only file system")
	judged := s.Saw("intenthook: violation [out_of_scope_change]") && s.Saw(hidden)
	committed := s.Saw("precommit: ok") && s.Saw("commit-rc=0")
	cat, _ = t.w.ReadFile(".orchestration/active_intents.yaml")
	submitted := strings.Contains(cat, `status: "IN_REVIEW"`) && s.Saw("intenthook: INT-001: IN_PROGRESS -> IN_REVIEW")
	t.check("sandbox", selected && blocked && judged && committed && submitted, fmt.Sprintf("select in the sandboxed shell %s; the catalog and state/pending %s; the model %s; a commit through the pre-commit hook %s; the submission %s",
		seen(selected, "bound the session"), map[bool]string{true: "read-only to a program", false: "WRITTEN or not refused"}[blocked], seen(judged, "the violation naming "+hidden),
		map[bool]string{true: "passed", false: "FAILED"}[committed], map[bool]string{true: "reached IN_REVIEW through post", false: "did NOT reach IN_REVIEW"}[submitted]))
}

// selectRedirect: `intenthook select INT-001 2>&1`, the way models often
// run commands, binds the session; an in-scope write follows.
func selectRedirect(t *trial) {
	s := t.run(
		t.c.Shell("intenthook select INT-001 2>&1"),
		t.c.Write(t.w.Abs(inScope), "a\n"),
	)
	if t.failed("select-2>&1", s) {
		return
	}
	ok, detail := t.written(inScope, "a\n")
	t.check("select-2>&1", ok, detail)
}

// staleEdit: the file changes on disk after the agent read it; the edit is
// denied as stale. The change keeps the file's size and mtime, so a
// client's own read-state check (Claude Code has one) does not notice it
// and intenthook's is the one that answers.
func staleEdit(t *trial) {
	const before, changed = "one\nkeep\n", "one\nmine\n"
	path := t.w.Abs(inScope)
	if err := writeKeepingTime(path, before); err != nil {
		t.check("stale-edit", false, err.Error())
		return
	}
	if t.c.Read == nil || t.c.Edit == nil {
		t.rows = append(t.rows, row{t.c.Name, "stale-edit", "N/A", "the model has no read tool: reads go through the shell, which records no hash"})
		return
	}
	s := t.w.Run(t.c, t.cache, []mockmodel.Turn{
		turn(t.c.Shell("intenthook select INT-001")),
		turn(t.c.Read(path)),
		{Calls: []mockmodel.ToolCall{t.c.Edit(path, "one", "uno")}, Do: func() { _ = writeKeepingTime(path, changed) }},
		{Text: "done"},
	})
	if t.failed("stale-edit", s) {
		return
	}
	got, _ := t.w.ReadFile(inScope)
	t.check("stale-edit", got == changed && s.Saw("intenthook: deny [stale_file]"),
		fmt.Sprintf("the person's change kept (%q); the model %s", got, seen(s.Saw("deny [stale_file]"), "the stale deny")))
}

// writeKeepingTime writes content, keeping the file's modification time
// when it exists.
func writeKeepingTime(path, content string) error {
	st, err := os.Stat(path)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		return err
	}
	if err != nil {
		return nil
	}
	return os.Chtimes(path, st.ModTime(), st.ModTime())
}

func turn(c mockmodel.ToolCall) mockmodel.Turn { return mockmodel.Turn{Calls: []mockmodel.ToolCall{c}} }

// shellPatch: Codex's model may apply a patch through the shell
// (`apply_patch <<'EOF' … EOF`), which Codex applies in process; the hook
// sees a shell command and must read the here-document as the patch.
func shellPatch(t *trial) {
	const outPatch, inPatch = "docs/p.txt", "src/example/p.txt"
	heredoc := func(rel string) string {
		return "apply_patch <<'EOF'\n" + harness.AddFilePatch(rel, "p\n") + "EOF"
	}
	s := t.run(
		t.c.Shell("intenthook select INT-001"),
		t.c.Shell(heredoc(outPatch)),
		t.c.Shell(heredoc(inPatch)),
	)
	if t.failed("shell-patch", s) {
		return
	}
	_, outExists := t.w.ReadFile(outPatch)
	in, _ := t.w.ReadFile(inPatch)
	denied := s.Saw("path=" + outPatch + " ")
	// Codex sends no PostToolUse for a patch applied this way: the write
	// is checked before, and only precommit traces it.
	recs, _ := t.w.Records()
	recorded := "no ledger record (no after-event)"
	if harness.Written(recs, inPatch) != nil {
		recorded = "recorded"
	}
	t.check("shell-patch", !outExists && denied && in == "p\n",
		fmt.Sprintf("out of scope: %s not written, the model %s; in scope: %s written, %s", outPatch, seen(denied, "its deny"), inPatch, recorded))
}

// claudeSettings: a repository wired for Claude Code only (init without
// --agent), run by Copilot CLI, which loads .claude/settings.json hooks
// with Claude's tool names and its own argument names.
func claudeSettings(t *trial) {
	if err := os.MkdirAll(filepath.Dir(t.w.Abs(inScope)), 0o755); err != nil {
		t.check("claude-settings", false, err.Error())
		return
	}
	s := t.run(
		t.c.Write(t.w.Abs(inScope), "a\n"),
		t.c.Shell("intenthook select INT-001"),
		t.c.Write(t.w.Abs(inScope), "a\n"),
		t.c.Write(t.w.Abs(outScope), "b\n"),
	)
	if t.failed("claude-settings", s) {
		return
	}
	t.check("claude-settings-deny", s.Saw("intenthook: deny [intent_required]"), "a write without an intent denied; the reason reached the model")
	ok, detail := t.written(inScope, "a\n")
	t.check("claude-settings-write", ok, detail)
	t.checkOutOfScope("claude-settings-scope", s)
}

// clineDeny: with the plugin init writes, Cline 3 refuses the one call a
// deny names, the model reads the reason and the task goes on; a write in
// scope after it lands.
func clineDeny(t *trial) {
	if !t.parentOf(inScope, "session") {
		return
	}
	s := t.run(
		t.c.Shell("intenthook select INT-001"),
		t.c.Write(t.w.Abs(inScope), "a\n"),
		t.c.Write(t.w.Abs(outScope), "b\n"),
		t.c.Shell("echo after > src/example/after.txt"),
	)
	t.checkSelectInShell(s)
	ok, detail := t.written(inScope, "a\n")
	t.check("in-scope-write", ok, detail)
	t.checkOutOfScope("out-of-scope-write", s)
	_, after := t.w.ReadFile("src/example/after.txt")
	t.check("task-goes-on", after, fmt.Sprintf("the write in scope after the deny landed: %v", after))
}

// clineNoPlugin: without the plugin (deleted after init), the hook file is
// the gate: a deny cancels the whole task, the reason in Cline's log.
func clineNoPlugin(t *trial) {
	if !t.parentOf(inScope, "session") {
		return
	}
	if err := os.Remove(t.w.Abs(".cline/plugins/intenthook.js")); err != nil {
		t.check("no-plugin", false, err.Error())
		return
	}
	s := t.run(
		t.c.Shell("intenthook select INT-001"),
		t.c.Write(t.w.Abs(outScope), "b\n"),
		t.c.Shell("echo after > src/example/after.txt"),
	)
	_, exists := t.w.ReadFile(outScope)
	logged := t.w.ClientKnows("intenthook: deny [scope_violation]")
	_, after := t.w.ReadFile("src/example/after.txt")
	t.check("no-plugin-stops-task", !exists && logged && !after,
		fmt.Sprintf("%s not written: %v; the deny in Cline's own log: %v; the model saw it: %v; the task stopped there: %v",
			outScope, !exists, logged, s.Saw("deny [scope_violation]"), !after))
}

// clineResume: a task that made tool calls, resumed. Cline 3.0.65
// resumes only in its interactive interface (cline --id), where the task
// runs in its hub; the resumed task keeps the root session id, gets a new
// task id (the intent is selected again) and loads the plugin again, in a
// new process: the new plugin takes the gone one's place, so the
// out-of-scope write after the resume is refused alone and the task goes
// on. A hook file deny would stop the task instead; the rows say which
// happened.
func clineResume(t *trial) {
	if !t.parentOf(inScope, "resume") {
		return
	}
	first := t.run(
		t.c.Shell("intenthook select INT-001"),
		t.c.Write(t.w.Abs(inScope), "a\n"),
	)
	if t.failed("resume", first) {
		return
	}
	before := marker(t.w)
	id, s := t.w.Resume(t.c, t.cache, []mockmodel.Turn{
		{Calls: []mockmodel.ToolCall{t.c.Shell("intenthook select INT-001")}},
		{Calls: []mockmodel.ToolCall{t.c.Write(t.w.Abs(outScope), "b\n")}},
		{Calls: []mockmodel.ToolCall{t.c.Shell("echo after > src/example/after.txt")}},
		{Text: "done"},
	})
	if t.failed("resume", s) {
		return
	}
	after := marker(t.w)
	t.check("resume-plugin", before.id == id && after.id == id && after.pid != "" && after.pid != before.pid,
		fmt.Sprintf("session %s resumed; plugin marker before %s (process %s), after %s (process %s)", id, before.id, before.pid, after.id, after.pid))
	_, exists := t.w.ReadFile(outScope)
	saw := s.Saw("intenthook: deny [scope_violation]")
	_, wentOn := t.w.ReadFile("src/example/after.txt")
	t.check("resume-out-of-scope", !exists && saw && wentOn,
		fmt.Sprintf("%s; the model %s (the plugin refused the one call); the task went on: %v; %s",
			writtenOrNot(outScope, exists), seen(saw, "the scope deny"), wentOn, t.tasks()))
}

// pluginMarker is the session a Cline plugin announced itself for and the
// process it named.
type pluginMarker struct{ id, pid string }

// marker reads the one plugin marker under state/plugins.
func marker(w *harness.Workspace) pluginMarker {
	entries, _ := os.ReadDir(w.Abs(".orchestration/state/plugins"))
	for _, e := range entries {
		if id, ok := strings.CutPrefix(e.Name(), "cline-"); ok {
			pid, _ := w.ReadFile(".orchestration/state/plugins/" + e.Name())
			return pluginMarker{id, pid}
		}
	}
	return pluginMarker{}
}

// tasks lists the session ids the ledger recorded, in order.
func (t *trial) tasks() string {
	recs, err := t.w.Records()
	if err != nil {
		return "ledger: " + err.Error()
	}
	var ids []string
	for _, r := range recs {
		if sid := r.Metadata.Intenthook.SessionID; len(ids) == 0 || ids[len(ids)-1] != sid {
			ids = append(ids, sid)
		}
	}
	return "ledger sessions: " + strings.Join(ids, ", ")
}

// firstWithTools is the body of the first request that offered tools: the
// session's first model turn, not a title or summary side request.
func firstWithTools(reqs []mockmodel.Request) string {
	for _, r := range reqs {
		if strings.Contains(r.Body, `"tools":[{`) {
			return r.Body
		}
	}
	return ""
}

// checkSelectInShell: `intenthook select INT-001` ran in the shell tool and
// printed the context; the hook had bound the session, so no "this bound
// nothing" hint (the client's shell markers say an agent runs it).
func (t *trial) checkSelectInShell(s harness.Session) {
	ran := s.Saw(`<intent_context id=\"INT-001\"`) && !s.Saw("intenthook: command not found")
	hint := s.Saw("this bound nothing")
	t.check("select-in-shell", ran && !hint, "intenthook select INT-001 ran in the shell tool; the model "+
		seen(ran, "the intent context")+", "+seen(hint, "the \"bound nothing\" hint"))
}

// checkOutOfScope: the out-of-scope write was not made, and its deny
// reached the model.
func (t *trial) checkOutOfScope(row string, s harness.Session) {
	_, exists := t.w.ReadFile(outScope)
	saw := s.Saw("intenthook: deny [scope_violation]")
	t.check(row, !exists && saw, writtenOrNot(outScope, exists)+"; "+seen(saw, "the scope deny"))
}

// writtenOrNot says whether the file a row expects unwritten was written.
func writtenOrNot(rel string, exists bool) string {
	if exists {
		return rel + " WRITTEN"
	}
	return rel + " not written"
}

func seen(ok bool, what string) string {
	if ok {
		return "carried " + what
	}
	return "lacked " + what
}

// denials lists the deny codes the model saw, for a row's detail.
func denials(reqs []mockmodel.Request) string {
	var codes []string
	for _, code := range []string{"intent_required", "scope_violation", "shell_unsafe", "target_unknown", "stale_file"} {
		for _, r := range reqs {
			if strings.Contains(r.Body, "deny ["+code+"]") {
				codes = append(codes, code)
				break
			}
		}
	}
	return "model saw denials: " + strings.Join(codes, ", ")
}

// conversationURL is the first conversation URL of a record's files.
func conversationURL(files []ledger.File) string {
	for _, f := range files {
		for _, c := range f.Conversations {
			if c.URL != "" {
				return c.URL
			}
		}
	}
	return ""
}

// asksWait: with ask.via: wait, a person answers where they are, from a
// process of their own while the real client runs headless. intenthook's
// own ask about a destructive command holds the hook until the person's
// intenthook ask allow lets it run; the client's own permission question
// about a tool its settings do not allow (Claude Code's PermissionRequest,
// which init wires when asks wait) becomes a pending ask too, which the
// person denies with a reason the model then reads. Each answer is in the
// ledger with who gave it.
func asksWait(t *trial) {
	const reason = "no fetching from this task"
	doomed := "src/example/build/x.o"
	err := os.WriteFile(t.w.Abs(".orchestration/config.yaml"), []byte("ask: {via: wait, timeout: 60s}\n"), 0o644)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(t.w.Abs(doomed)), 0o755)
	}
	if err == nil {
		err = os.WriteFile(t.w.Abs(doomed), []byte("x\n"), 0o644)
	}
	if err != nil {
		t.check("ask-wait", false, err.Error())
		return
	}
	if out, err := t.w.Person("init"); err != nil {
		t.check("ask-wait", false, fmt.Sprintf("init: %v: %s", err, out))
		return
	}
	// The person, at a terminal of their own.
	ctx, stop := context.WithCancel(context.Background())
	answered := make(chan []string, 1)
	var said []string // what the person's commands printed
	go func() {
		var codes []string
		seen := map[string]bool{}
		for ctx.Err() == nil {
			out, _ := t.w.Person("ask", "--json")
			var pending []struct{ ID, Code string }
			_ = json.Unmarshal(out, &pending)
			for _, p := range pending {
				if seen[p.ID] {
					continue
				}
				seen[p.ID] = true
				codes = append(codes, p.Code)
				var out []byte
				if p.Code == "host_permission" {
					out, _ = t.w.PersonElsewhere("ask", "deny", p.ID, "--reason", reason)
				} else {
					out, _ = t.w.PersonElsewhere("ask", "allow", p.ID)
				}
				said = append(said, strings.TrimSpace(string(out)))
			}
			time.Sleep(200 * time.Millisecond)
		}
		answered <- codes
	}()
	s := t.run(
		t.c.Shell("intenthook select INT-001"),
		t.c.Shell("rm -rf src/example/build"),
		mockmodel.ToolCall{Name: "WebFetch", Args: map[string]any{"url": "http://127.0.0.1:9/notes", "prompt": "summarise"}},
	)
	stop()
	codes := <-answered
	if t.failed("ask-wait", s) {
		return
	}
	_, kept := t.w.ReadFile(doomed)
	recs, _ := t.w.Records()
	var by []string
	for _, r := range recs {
		if m := r.Metadata.Intenthook; m.Event == ledger.EventAskAnswer {
			by = append(by, m.Decision)
		}
	}
	ran := "ran"
	if kept {
		ran = "did not run"
	}
	t.check("ask-wait", slices.Contains(codes, "destructive_command") && !kept && slices.Contains(by, "allow"),
		fmt.Sprintf("asked about %v, the person's commands said %q; the command %s; the ledger's answers: %v", codes, said, ran, by))
	if !slices.Contains(codes, "host_permission") {
		t.rows = append(t.rows, row{t.c.Name, "ask-host", "N/A", "the client asked no permission question of its own through PermissionRequest in this headless run (docs/e2e.md)"})
		return
	}
	t.check("ask-host", s.Saw(reason) && slices.Contains(by, "deny"), fmt.Sprintf("the model %s", seen(s.Saw(reason), "the person's reason")))
}

// usageRecorded: the real client's transcript carries the model's usage
// (the mock answers each message with 10 input and 5 output tokens), and
// post records what was spent since the session's previous post. A
// session's first post (the first write's: a select records in pre) starts
// at the transcript's end, so the message that asked for the second write
// is counted by a later write's record, with the model.
//
// Claude Code queues its transcript lines and writes them 100 ms after the
// first one queued (FLUSH_INTERVAL_MS in its source): a post that runs
// sooner than that after the model's answer does not see it yet, and the
// next post counts it. So a third write follows, and the mock takes
// flushWait before it answers with it, as a thinking model would: by the
// third write's post, the message that asked for the second is on disk,
// and the second's record or the third's counts it.
func usageRecorded(t *trial) {
	const second, third = "src/example/b.txt", "src/example/c.txt"
	const flushWait = 300 * time.Millisecond
	if !t.parentOf(inScope, "usage") {
		return
	}
	s := t.w.RunWith(t.c, t.cache, []mockmodel.Turn{
		{Calls: []mockmodel.ToolCall{t.c.Shell("intenthook select INT-001")}},
		{Calls: []mockmodel.ToolCall{t.c.Write(t.w.Abs(inScope), "a\n")}},
		{Calls: []mockmodel.ToolCall{t.c.Write(t.w.Abs(second), "b\n")}},
		{Calls: []mockmodel.ToolCall{t.c.Write(t.w.Abs(third), "c\n")}, Do: func() { time.Sleep(flushWait) }},
		{Text: "done"},
	})
	if t.failed("usage", s) {
		return
	}
	recs, err := t.w.Records()
	if err != nil {
		t.check("usage", false, "ledger: "+err.Error())
		return
	}
	var sum ledger.Usage
	var models []string
	for _, rel := range []string{second, third} {
		rec := harness.Written(recs, rel)
		if rec == nil || rec.Metadata.Intenthook.Usage == nil {
			t.check("usage", false, rel+"'s record carries no usage")
			return
		}
		u := rec.Metadata.Intenthook.Usage
		sum.Calls += u.Calls
		sum.InputTokens += u.InputTokens
		sum.OutputTokens += u.OutputTokens
		if u.Tokens() > 0 {
			models = append(models, u.Model)
		}
	}
	t.check("usage", sum.Calls == 2 && sum.InputTokens >= 10 && sum.OutputTokens >= 5 && len(models) > 0 && !slices.Contains(models, ""),
		fmt.Sprintf("the second and third writes' records carry %d call(s), %d input and %d output tokens, models %q, from the client's transcript", sum.Calls, sum.InputTokens, sum.OutputTokens, models))
}

// inWorktree: the client works in a linked work tree of the governed
// repository (git worktree add), where init never ran: its hooks, committed
// with the rules, govern it from the first call: a write in scope is
// recorded in the work tree's own ledger (not the main work tree's), and
// one out of scope is denied.
func inWorktree(t *trial) {
	main := t.w.Root
	wt := filepath.Join(filepath.Dir(main), "wt2")
	for _, args := range [][]string{
		{"add", "-A"},
		{"-c", "user.email=p@example.com", "-c", "user.name=P", "commit", "-qm", "rules and wiring"},
		{"worktree", "add", "-q", "-b", "feat", wt},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = main
		if out, err := cmd.CombinedOutput(); err != nil {
			t.check("worktree", false, fmt.Sprintf("git %s: %v: %s", strings.Join(args, " "), err, out))
			return
		}
	}
	t.w.Root = wt
	defer func() { t.w.Root = main }()
	if !t.parentOf(inScope, "worktree") {
		return
	}
	s := t.run(
		t.c.Shell("intenthook select INT-001"),
		t.c.Write(t.w.Abs(inScope), "a\n"),
		t.c.Write(t.w.Abs(outScope), "b\n"),
	)
	if t.failed("worktree", s) {
		return
	}
	ok, detail := t.written(inScope, "a\n")
	_, exists := t.w.ReadFile(outScope)
	denied := s.Saw("intenthook: deny [scope_violation]")
	t.w.Root = main
	recs, err := t.w.Records()
	mainHas := err != nil || harness.Written(recs, inScope) != nil
	t.check("worktree", ok && !exists && denied && !mainHas,
		fmt.Sprintf("in the linked work tree: %s; %s, %s; the main work tree's ledger %s", detail, writtenOrNot(outScope, exists), seen(denied, "the scope deny"), map[bool]string{true: "HAS the write (or cannot be read)", false: "has not"}[mainHas]))
}
