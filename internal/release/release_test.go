package release

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/agent/cline"
	"github.com/intenthook/intenthook/internal/agent/codex"
	"github.com/intenthook/intenthook/internal/agent/copilot"
	"github.com/intenthook/intenthook/internal/agent/cursor"
	"github.com/intenthook/intenthook/internal/agent/opencode"
	"github.com/intenthook/intenthook/internal/hookconfig"
)

// distDir is a `make dist` output named by INTENTHOOK_DIST (make npm-test
// sets it); the tests of the built release skip without one.
func distDir(t *testing.T) string {
	t.Helper()
	dist := os.Getenv("INTENTHOOK_DIST")
	if dist == "" {
		t.Skip("INTENTHOOK_DIST is not set: run make dist, then make npm-test")
	}
	if _, err := os.Stat(filepath.Join(dist, "metadata.json")); err != nil {
		t.Fatalf("INTENTHOOK_DIST=%s: %v (run make dist)", dist, err)
	}
	return dist
}

func distMeta(t *testing.T, dist string) metadata {
	t.Helper()
	var meta metadata
	if err := readJSON(filepath.Join(dist, "metadata.json"), &meta); err != nil {
		t.Fatal(err)
	}
	return meta
}

// run runs name in dir and returns its stdout and stderr; a failure fails
// the test unless wantCode says which exit code is expected.
func run(t *testing.T, dir string, env []string, wantCode int, stdin string, name string, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	if code != wantCode {
		t.Fatalf("%s %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), code, wantCode, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

// npmProject makes an empty git repository with the built tarballs (the
// main package and this platform's) installed offline, with npm's cache
// and configuration of its own.
func npmProject(t *testing.T, dist string, npmArgs ...string) (dir string, env []string) {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatal("npm is not installed: the npm packages cannot be tested")
	}
	tarballs, err := HostTarballs(dist, runtime.GOOS, runtime.GOARCH)
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	dir = filepath.Join(t.TempDir(), "project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// No intenthook on PATH: what runs is the project's.
	env = []string{"HOME=" + home, "npm_config_cache=" + filepath.Join(home, "npm-cache"), "npm_config_update_notifier=false",
		"PATH=" + pathWithout(t, "intenthook"), "INTENTHOOK_DISABLE="}
	run(t, dir, env, 0, "", "git", "init", "-q")
	run(t, dir, env, 0, "", "git", "config", "user.email", "dev@example.com")
	run(t, dir, env, 0, "", "git", "config", "user.name", "dev")
	args := append([]string{"install", "--offline", "--no-audit", "--no-fund"}, npmArgs...)
	run(t, dir, env, 0, "", "npm", append(args, tarballs...)...)
	return dir, env
}

// pathWithout is PATH without the directories that hold program.
func pathWithout(t *testing.T, program string) string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, program)); err == nil {
			continue
		}
		keep = append(keep, d)
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}

// The npm packages, installed offline into an empty project, give npx
// intenthook the native binary; init wires Claude Code to the package's
// own node_modules/intenthook/bin/intenthook (never npm's .bin link) by a
// path with no platform in it; doctor names the binary the wiring runs and
// finds it to be the one the platform package shipped; and a hook event
// sent through that wiring is answered by the binary (a write with no
// intent: exit 2).
func TestNPM(t *testing.T) {
	dist := distDir(t)
	meta := distMeta(t, dist)
	dir, env := npmProject(t, dist)

	bin := filepath.Join(dir, "node_modules", "intenthook", "bin", "intenthook")
	if nodeScript(t, bin) {
		t.Fatalf("%s is still the Node launcher after the install step", bin)
	}
	out, _ := run(t, dir, env, 0, "", "npx", "--offline", "intenthook", "version")
	if want := "intenthook " + meta.Version + " (commit " + meta.Commit; !strings.HasPrefix(out, want) {
		t.Fatalf("npx intenthook version = %q, want it to start %q", out, want)
	}

	run(t, dir, env, 0, "", "npx", "--offline", "intenthook", "init")
	settings, err := os.ReadFile(filepath.Join(dir, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	const program = `"$CLAUDE_PROJECT_DIR"/node_modules/intenthook/bin/intenthook`
	pre := hookCommand(t, settings, "PreToolUse")
	if pre != program+" pre" {
		t.Fatalf("PreToolUse command = %q, want %q", pre, program+" pre")
	}

	out, _ = run(t, dir, env, 0, "", "npx", "--offline", "intenthook", "doctor")
	// The command's program, expanded as Claude Code expands it.
	if want := "hook command: " + bin + "\n"; !strings.Contains(out, want) {
		t.Fatalf("doctor does not say which binary the wiring runs (%q):\n%s", want, out)
	}
	if want := "✓ hook binary: node_modules/intenthook/bin/intenthook, node_modules/intenthook/bin/intenthook-full are the files @intenthook/"; !strings.Contains(out, want) {
		t.Fatalf("doctor does not check the binaries against the shipped checksums (%q):\n%s", want, out)
	}

	// The wiring as Claude Code runs it: sh -c with the project's directory
	// in CLAUDE_PROJECT_DIR, from a subdirectory.
	sub := filepath.Join(dir, "src")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	event := `{"session_id":"npm1","transcript_path":"","cwd":"` + dir + `","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"` + filepath.Join(dir, "src", "a.go") + `","content":"package a\n"},"tool_use_id":"toolu_01"}`
	_, stderr := run(t, sub, append(env, "CLAUDE_PROJECT_DIR="+dir), 2, event, "sh", "-c", pre)
	if !strings.Contains(stderr, "intenthook: deny [intent_required] Write to \"src/a.go\"") {
		t.Fatalf("the hook's answer through the wiring:\n%s", stderr)
	}
}

// The agents whose hooks name no project directory (or one through a
// variable Cursor sets) get wiring that reaches the same binary: init
// writes it with no path of this system in it, doctor names the binary, and
// the agent's own event sent through it, from the directory the agent runs
// it in and with no intenthook on PATH, is answered by the project's binary
// (an edit with no intent: denied, in the agent's dialect).
func TestNPMAgentWiring(t *testing.T) {
	dist := distDir(t)
	dir, env := npmProject(t, dist)
	bin := filepath.Join(dir, "node_modules", "intenthook", "bin", "intenthook")
	sub := filepath.Join(dir, "src", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	read := func(rel string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), dir) || strings.Contains(string(data), runtime.GOOS+"-") {
			t.Fatalf("%s names a path of this system:\n%s", rel, data)
		}
		return string(data)
	}
	denied := "intenthook: deny [intent_required]"
	for _, tc := range []struct {
		agent, file string
		// run sends the agent's sample event through the wiring in file.
		run func(t *testing.T, wiring string, event string) (stdout, stderr string)
		// doctor's line for the binary the wiring runs.
		doctor string
		// the answer: in stdout or stderr, by dialect.
		stdout, stderr string
	}{
		{"codex", codex.HooksFile, func(t *testing.T, wiring, event string) (string, string) {
			// Codex runs a hook through the user's shell (-lc), from the
			// session's directory: here one below the project's, below a
			// binary and a link planted between it and the root, which
			// the wiring must not run.
			for _, rel := range []string{"src/" + hookconfig.NPMBinary, "src/" + hookconfig.NPMLink} {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("#!/bin/sh\ncat >/dev/null\nexit 0\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			var doc struct {
				Hooks map[string][]struct{ Hooks []struct{ Command string } }
			}
			mustJSON(t, wiring, &doc)
			return run(t, sub, append(env, "PWD="+sub), 2, event, "sh", "-c", doc.Hooks["PreToolUse"][0].Hooks[0].Command)
		}, "codex hook command: node_modules/intenthook/bin/intenthook → " + bin + "\n", "", denied},
		{"copilot", copilot.HooksFile, func(t *testing.T, wiring, event string) (string, string) {
			// Copilot CLI runs the bash command in the hook's cwd, relative
			// to the repository's root.
			var doc struct {
				Hooks map[string][]struct{ Bash, Cwd string }
			}
			mustJSON(t, wiring, &doc)
			h := doc.Hooks["preToolUse"][0]
			return run(t, filepath.Join(dir, h.Cwd), env, 0, event, "sh", "-c", h.Bash)
		}, "copilot hook command: node_modules/intenthook/bin/intenthook → " + bin + "\n", `"permissionDecision":"deny"`, ""},
		{"cursor", cursor.HooksFile, func(t *testing.T, wiring, event string) (string, string) {
			// Cursor sets CURSOR_PROJECT_DIR for its hooks.
			var doc struct {
				Hooks map[string][]struct{ Command string }
			}
			mustJSON(t, wiring, &doc)
			return run(t, filepath.Join(dir, ".cursor"), append(env, "CURSOR_PROJECT_DIR="+dir), 2, event, "sh", "-c", doc.Hooks["preToolUse"][0].Command)
		}, "cursor hook command: " + bin + "\n", `"permission":"deny"`, ""},
		{"cline", cline.HooksDir + "/PreToolUse", func(t *testing.T, _, event string) (string, string) {
			// Cline runs the executable by its path.
			return run(t, sub, env, 0, event, filepath.Join(dir, cline.HooksDir, "PreToolUse"))
		}, "cline hook command: " + bin + "\n", `"cancel":true`, ""},
		{"opencode", opencode.PluginFile, func(t *testing.T, wiring, event string) (string, string) {
			// Bun spawns import.meta.dir + the plugin's relative path, in
			// OpenCode's directory.
			const from = `import.meta.dir + "`
			i := strings.Index(wiring, from)
			if i < 0 {
				t.Fatalf("the plugin names no program beside itself:\n%s", wiring)
			}
			rel := wiring[i+len(from):]
			rel = rel[:strings.IndexByte(rel, '"')]
			return run(t, dir, env, 2, event, filepath.Join(dir, ".opencode", "plugin")+rel, "pre", "--agent", "opencode")
		}, "opencode hook command: " + bin + "\n", "", denied},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			run(t, dir, env, 0, "", "npx", "--offline", "intenthook", "init", "--agent", tc.agent)
			wiring := read(tc.file)
			ag, err := agent.Lookup(tc.agent)
			if err != nil {
				t.Fatal(err)
			}
			stdout, stderr := tc.run(t, wiring, string(ag.Sample(dir, "src/a.go", "npm-"+tc.agent, "call1")))
			if !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) || !strings.Contains(stdout+stderr, "src/a.go") {
				t.Fatalf("the hook's answer through the wiring:\nstdout: %s\nstderr: %s", stdout, stderr)
			}
			out, _ := run(t, dir, env, 0, "", "npx", "--offline", "intenthook", "doctor")
			if !strings.Contains(out, tc.doctor) {
				t.Fatalf("doctor does not say which binary the wiring runs (%q):\n%s", tc.doctor, out)
			}
		})
	}

	// Cline's plugin, run by Node as Cline 3 loads it, refuses the one
	// call through the project's binary.
	driver := filepath.Join(t.TempDir(), "driver.mjs")
	if err := os.WriteFile(driver, []byte(`const plugin = (await import(process.argv[2])).default
plugin.setup(null, { workspaceInfo: { rootPath: process.argv[3] } })
const r = plugin.hooks.beforeTool({ snapshot: { conversationId: "npm-plugin" }, toolCall: { toolCallId: "t1", toolName: "editor" }, input: { path: "src/a.go", new_text: "package a\n" } })
console.log(JSON.stringify(r))
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := run(t, sub, env, 0, "", "node", driver, filepath.Join(dir, filepath.FromSlash(cline.PluginFile)), dir)
	if !strings.Contains(out, `"skip":true`) || !strings.Contains(out, "intent_required") {
		t.Fatalf("the Cline plugin's answer: %s", out)
	}
}

func mustJSON(t *testing.T, data string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(data), v); err != nil {
		t.Fatalf("%v:\n%s", err, data)
	}
}

// What an agent tried against an npm install's hooks, with real npm
// --offline: a package of its own whose bin is named intenthook is a
// question, and once installed it repoints npm's link but not what the
// hooks run; a package.json that points intenthook at a local copy,
// installed by a bare npm install the agent may run, is found by the
// binary's stat in the guard's picture, and every later call is denied
// (hook_replaced) until a person reinstalls, which doctor says.
func TestNPMReplaced(t *testing.T) {
	dist := distDir(t)
	tarballs, err := HostTarballs(dist, runtime.GOOS, runtime.GOARCH)
	if err != nil {
		t.Fatal(err)
	}
	dir, env := npmProject(t, dist)
	run(t, dir, env, 0, "", filepath.Join(dir, filepath.FromSlash(hookconfig.NPMBinary)), "init")
	settings, err := os.ReadFile(filepath.Join(dir, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	pre, post := hookCommand(t, settings, "PreToolUse"), hookCommand(t, settings, "PostToolUse")
	hookEnv := append(env, "CLAUDE_PROJECT_DIR="+dir)
	hook := func(wiring, event, tool string, input map[string]any, id, code int) (string, string) {
		t.Helper()
		ev, err := json.Marshal(map[string]any{"session_id": "npm-agent", "transcript_path": "", "cwd": dir, "hook_event_name": event,
			"tool_name": tool, "tool_input": input, "tool_use_id": fmt.Sprintf("toolu_%d", id), "tool_response": map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		return run(t, dir, hookEnv, code, string(ev), "sh", "-c", wiring)
	}
	write := map[string]any{"file_path": filepath.Join(dir, "src", "a.go"), "content": "package a\n"}
	doctor := func() string {
		// The package's binary by its path: npx would run npm's link.
		cmd := exec.Command(filepath.Join(dir, filepath.FromSlash(hookconfig.NPMBinary)), "doctor")
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		out, _ := cmd.Output()
		return string(out)
	}
	put := func(rel, data string, mode os.FileMode) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
	}

	// A package of the agent's whose bin is named intenthook.
	put("src/fmtpkg/package.json", `{"name":"fmtpkg","version":"1.0.0","bin":{"intenthook":"run.sh"}}`+"\n", 0o644)
	put("src/fmtpkg/run.sh", "#!/bin/sh\ncat >/dev/null\nexit 0\n", 0o755)
	install := map[string]any{"command": "npm install --no-save --offline ./src/fmtpkg"}
	out, _ := hook(pre, "PreToolUse", "Bash", install, 1, 0)
	if !strings.Contains(out, `"permissionDecision":"ask"`) || !strings.Contains(out, "installs from a local path, a tarball or a git URL: ./src/fmtpkg") {
		t.Fatalf("an install from a local path is not asked: %s", out)
	}
	// A person approves it: npm's link now runs the package's script, the
	// hooks still run intenthook's binary.
	run(t, dir, env, 0, "", "npm", "install", "--no-save", "--offline", "--no-audit", "--no-fund", "./src/fmtpkg")
	if real, err := filepath.EvalSymlinks(filepath.Join(dir, filepath.FromSlash(hookconfig.NPMLink))); err != nil || !strings.HasSuffix(real, filepath.Join("fmtpkg", "run.sh")) {
		t.Fatalf("npm's link after the install: %s %v", real, err)
	}
	// (The backstop may judge what the install changed against the
	// session's intent; the hooks' program is the guard's.)
	if out, stderr := hook(post, "PostToolUse", "Bash", install, 1, 0); strings.Contains(out+stderr, "governance_tampered") {
		t.Fatalf("the install changed what the hooks run:\n%s%s", out, stderr)
	}
	if _, stderr := hook(pre, "PreToolUse", "Write", write, 2, 2); !strings.Contains(stderr, "deny [intent_required]") {
		t.Fatalf("the hooks no longer answer: %s", stderr)
	}
	if out := doctor(); !strings.Contains(out, "✓ hook binary:") {
		t.Fatalf("doctor after the install:\n%s", out)
	}

	// A local copy of the package (the real binaries: the hooks' post then
	// still runs intenthook), and package.json pointing intenthook at it.
	keep, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	run(t, dir, env, 0, "", "cp", "-R", filepath.Join(dir, filepath.FromSlash(hookconfig.NPMPackage)), filepath.Join(dir, "src", "fork"))
	put("src/fork/package.json", `{"name":"intenthook","version":"9.9.9","bin":{"intenthook":"bin/intenthook"}}`+"\n", 0o644)
	var pkg map[string]any
	mustJSON(t, string(keep), &pkg)
	for _, deps := range []string{"dependencies", "devDependencies"} {
		if m, ok := pkg[deps].(map[string]any); ok && m["intenthook"] != nil {
			m["intenthook"] = "file:./src/fork"
		}
	}
	edited, _ := json.Marshal(pkg)
	put("package.json", string(edited), 0o644)
	bare := map[string]any{"command": "npm install --offline"}
	if out, stderr := hook(pre, "PreToolUse", "Bash", bare, 3, 0); out != "" || stderr != "" {
		t.Fatalf("a bare npm install is not allowed: %s%s", out, stderr)
	}
	run(t, dir, env, 0, "", "npm", "install", "--offline", "--no-audit", "--no-fund")
	out, _ = hook(post, "PostToolUse", "Bash", bare, 3, 0)
	if !strings.Contains(out, "violation [governance_tampered]") || !strings.Contains(out, "node_modules/intenthook/bin/intenthook: replaced by the command") {
		t.Fatalf("the replaced binary is not found: %s", out)
	}
	if _, stderr := hook(pre, "PreToolUse", "Write", write, 4, 2); !strings.Contains(stderr, "deny [hook_replaced]") {
		t.Fatalf("a call after the replacement: %s", stderr)
	}
	if out := doctor(); !strings.Contains(out, "✗ hook program: node_modules/intenthook/bin/intenthook") || !strings.Contains(out, "replaced during session npm-agent's shell command `npm install --offline`") {
		t.Fatalf("doctor after the replacement:\n%s", out)
	}

	// A person reinstalls.
	put("package.json", string(keep), 0o644)
	run(t, dir, env, 0, "", "rm", "-rf", filepath.Join(dir, "node_modules", "intenthook"), filepath.Join(dir, "node_modules", "@intenthook"))
	run(t, dir, env, 0, "", "npm", append([]string{"install", "--offline", "--no-audit", "--no-fund"}, tarballs...)...)
	if _, stderr := hook(pre, "PreToolUse", "Write", write, 5, 2); !strings.Contains(stderr, "deny [intent_required]") {
		t.Fatalf("a call after the reinstall: %s", stderr)
	}
	if out := doctor(); strings.Contains(out, "hook program") || !strings.Contains(out, "✓ hook binary:") {
		t.Fatalf("doctor after the reinstall:\n%s", out)
	}
}

// With install scripts off the launchers stay: the commands work through
// Node, doctor warns that every hook call starts Node, and npm rebuild puts
// the native binary in place.
func TestNPMWithoutInstallScripts(t *testing.T) {
	dist := distDir(t)
	dir, env := npmProject(t, dist, "--ignore-scripts")
	bin := filepath.Join(dir, "node_modules", "intenthook", "bin", "intenthook")
	if !nodeScript(t, bin) {
		t.Fatalf("%s is not the Node launcher with install scripts off", bin)
	}
	run(t, dir, env, 0, "", "npx", "--offline", "intenthook", "version")
	run(t, dir, env, 0, "", "npx", "--offline", "intenthook", "init")
	out, _ := run(t, dir, env, 0, "", "npx", "--offline", "intenthook", "doctor")
	if !strings.Contains(out, "a Node launcher, not the native binary") || !strings.Contains(out, "npm rebuild intenthook") {
		t.Fatalf("doctor does not warn of the Node launcher:\n%s", out)
	}
	run(t, dir, env, 0, "", "npm", "rebuild", "--offline", "intenthook")
	if nodeScript(t, bin) {
		t.Fatalf("%s is still the Node launcher after npm rebuild", bin)
	}
}

func nodeScript(t *testing.T, path string) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.HasPrefix(data, []byte("#!/usr/bin/env node"))
}

// hookCommand is the command of the first hook of event in Claude-shaped
// settings.
func hookCommand(t *testing.T, settings []byte, event string) string {
	t.Helper()
	doc, err := hookconfig.Decode(settings)
	if err != nil {
		t.Fatal(err)
	}
	hs := hookconfig.Handlers(doc, event, nil)
	if len(hs) == 0 {
		t.Fatalf("no %s hook in\n%s", event, settings)
	}
	return hs[0].Command
}

// install.sh, pointed at a copy of dist/ served over http, installs the
// binaries side by side after checking the archive against the
// checksums; an archive that does not match installs nothing.
func TestInstallSh(t *testing.T) {
	dist := distDir(t)
	meta := distMeta(t, dist)
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("install.sh is for Linux and macOS")
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "install.sh"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dist)))
	defer srv.Close()

	into := filepath.Join(t.TempDir(), "bin")
	env := []string{"INTENTHOOK_BASE_URL=" + srv.URL, "INTENTHOOK_INSTALL_DIR=" + into, "HOME=" + t.TempDir()}
	_, stderr := run(t, t.TempDir(), env, 0, "", "sh", script)
	for _, b := range Binaries {
		if st, err := os.Stat(filepath.Join(into, b)); err != nil || st.Mode().Perm()&0o111 == 0 {
			t.Fatalf("%s not installed as an executable: %v", b, err)
		}
	}
	if !strings.Contains(stderr, "installed intenthook "+meta.Version) {
		t.Fatalf("install.sh output:\n%s", stderr)
	}
	out, _ := run(t, t.TempDir(), nil, 0, "", filepath.Join(into, "intenthook"), "version")
	if !strings.HasPrefix(out, "intenthook "+meta.Version+" (commit "+meta.Commit) {
		t.Fatalf("installed intenthook version = %q", out)
	}

	// A tampered archive: the checksums file no longer matches it.
	bad := filepath.Join(t.TempDir(), "dist")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	sums, err := os.ReadFile(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "checksums.txt"), sums, 0o644); err != nil {
		t.Fatal(err)
	}
	archive := "intenthook_" + meta.Version + "_" + runtime.GOOS + "_" + runtime.GOARCH + ".tar.gz"
	data, err := os.ReadFile(filepath.Join(dist, archive))
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(filepath.Join(bad, archive), data, 0o644); err != nil {
		t.Fatal(err)
	}
	badSrv := httptest.NewServer(http.FileServer(http.Dir(bad)))
	defer badSrv.Close()
	into2 := filepath.Join(t.TempDir(), "bin")
	_, stderr = run(t, t.TempDir(), []string{"INTENTHOOK_BASE_URL=" + badSrv.URL, "INTENTHOOK_INSTALL_DIR=" + into2}, 1, "", "sh", script)
	if !strings.Contains(stderr, "does not match checksums.txt") {
		t.Fatalf("install.sh on a tampered archive:\n%s", stderr)
	}
	if _, err := os.Stat(into2); err == nil {
		t.Fatal("install.sh installed from a tampered archive")
	}
}

// The npm packages are written from GoReleaser's artifacts.json: one per
// platform, with os and cpu, and the main package listing them all as
// optional dependencies of the same version.
func TestNPMPackages(t *testing.T) {
	root := t.TempDir()
	dist := filepath.Join(root, "dist")
	var arts []artifact
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, goarch := range []string{"amd64", "arm64"} {
			for _, b := range Binaries {
				name := b
				if goos == "windows" {
					name += ".exe"
				}
				rel := filepath.Join("dist", b+"_"+goos+"_"+goarch, name)
				if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, rel), []byte(b+" "+goos+" "+goarch), 0o755); err != nil {
					t.Fatal(err)
				}
				arts = append(arts, artifact{Name: name, Path: rel, Goos: goos, Goarch: goarch, Type: "Binary"})
			}
		}
	}
	writeJSON(t, filepath.Join(dist, "artifacts.json"), arts)
	writeJSON(t, filepath.Join(dist, "metadata.json"), metadata{Version: "1.2.3", Commit: "abc", Date: "2026-01-02T03:04:05Z"})
	paths, err := NPM(root, dist, filepath.Join("..", "..", "npm", "intenthook"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 7 || filepath.Base(paths[0]) != "intenthook-1.2.3.tgz" {
		t.Fatalf("tarballs: %v", paths)
	}
	if got := filepath.Base(paths[len(paths)-1]); got != "intenthook-win32-x64-1.2.3.tgz" {
		t.Fatalf("last tarball %s, want intenthook-win32-x64-1.2.3.tgz", got)
	}

	main := readTarball(t, paths[0])
	var pkg struct {
		Name     string            `json:"name"`
		Version  string            `json:"version"`
		Bin      map[string]string `json:"bin"`
		Scripts  map[string]string `json:"scripts"`
		Optional map[string]string `json:"optionalDependencies"`
	}
	if err := json.Unmarshal(main["package/package.json"].data, &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Name != "intenthook" || pkg.Version != "1.2.3" || pkg.Scripts["postinstall"] != "node install.js" || len(pkg.Bin) != len(Binaries) {
		t.Fatalf("main package.json: %+v", pkg)
	}
	for _, name := range []string{"linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"} {
		if pkg.Optional["@intenthook/"+name] != "1.2.3" {
			t.Fatalf("optionalDependencies %v lacks @intenthook/%s@1.2.3", pkg.Optional, name)
		}
	}
	for _, b := range Binaries {
		if f := main["package/bin/"+b]; !f.exec || !bytes.HasPrefix(f.data, []byte("#!/usr/bin/env node")) {
			t.Fatalf("main package's bin/%s is not an executable Node launcher", b)
		}
	}

	win := readTarball(t, paths[len(paths)-1])
	var wpkg struct {
		Name string   `json:"name"`
		OS   []string `json:"os"`
		CPU  []string `json:"cpu"`
	}
	if err := json.Unmarshal(win["package/package.json"].data, &wpkg); err != nil {
		t.Fatal(err)
	}
	if wpkg.Name != "@intenthook/win32-x64" || strings.Join(wpkg.OS, ",") != "win32" || strings.Join(wpkg.CPU, ",") != "x64" {
		t.Fatalf("win32-x64 package.json: %+v", wpkg)
	}
	for _, b := range Binaries {
		f := win["package/bin/"+b+".exe"]
		if !f.exec || string(f.data) != b+" windows amd64" {
			t.Fatalf("win32-x64 bin/%s.exe: %+v", b, f)
		}
	}
	// The checksums of every binary, and of the launcher.
	sums := ParseChecksums(win["package/"+ChecksumsFile].data)
	if len(sums) != len(Binaries)+1 || sums[LauncherName] != sha(main["package/bin/intenthook"].data) {
		t.Fatalf("win32-x64 %s: %v", ChecksumsFile, sums)
	}
	for _, b := range Binaries {
		if sums[b+".exe"] != sha(win["package/bin/"+b+".exe"].data) {
			t.Fatalf("win32-x64 %s: %s is %s", ChecksumsFile, b, sums[b+".exe"])
		}
	}
}

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func readTarball(t *testing.T, path string) map[string]file {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	out := map[string]file{}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[hdr.Name] = file{name: hdr.Name, data: data, exec: hdr.Mode&0o111 != 0}
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Each platform package ships the SHA-256 of its binaries and of the Node
// launcher; CheckInstalled holds an npm install's hook binaries to them:
// the native binary passes, the launcher passes when the platform's binary
// does, and a file of another content fails, naming it.
func TestCheckInstalled(t *testing.T) {
	native := map[string][]byte{"intenthook": []byte("hook"), "intenthook-full": []byte("full")}
	launcher := []byte("#!/usr/bin/env node\n")
	sums := checksums(map[string][]byte{"intenthook": native["intenthook"], "intenthook-full": native["intenthook-full"], LauncherName: launcher})
	if got := ParseChecksums(sums); len(got) != 3 || got["intenthook"] == "" || got[LauncherName] == "" {
		t.Fatalf("ParseChecksums(%q) = %v", sums, got)
	}
	layout := func(t *testing.T, bin map[string][]byte) string {
		root := t.TempDir()
		put := func(rel string, data []byte) {
			p := filepath.Join(root, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for name, data := range native {
			put("node_modules/@intenthook/linux-x64/bin/"+name, data)
		}
		put("node_modules/@intenthook/linux-x64/"+ChecksumsFile, sums)
		for name, data := range bin {
			put(NPMBinDir+"/"+name, data)
		}
		return root
	}
	for _, tc := range []struct {
		name     string
		bin      map[string][]byte
		launcher bool
		err      string
	}{
		{"native", native, false, ""},
		{"launchers", map[string][]byte{"intenthook": launcher, "intenthook-full": launcher}, true, ""},
		{"replaced", map[string][]byte{"intenthook": []byte("#!/bin/sh\nexit 0\n"), "intenthook-full": native["intenthook-full"]}, false, NPMBinDir + "/intenthook: not the file @intenthook/linux-x64 shipped"},
		{"full replaced", map[string][]byte{"intenthook": native["intenthook"], "intenthook-full": []byte("x")}, false, NPMBinDir + "/intenthook-full: not the file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := checkInstalled(layout(t, tc.bin), "linux", "amd64")
			switch {
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("err %v, want %q", err, tc.err)
			case in.Launcher != tc.launcher || in.Platform != "@intenthook/linux-x64":
				t.Fatalf("%+v", in)
			}
		})
	}
	// The launcher in place, the platform's binary replaced.
	root := layout(t, map[string][]byte{"intenthook": launcher, "intenthook-full": launcher})
	if err := os.WriteFile(filepath.Join(root, "node_modules/@intenthook/linux-x64/bin/intenthook"), []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := checkInstalled(root, "linux", "amd64"); err == nil || !strings.Contains(err.Error(), "node_modules/@intenthook/linux-x64/bin/intenthook:") {
		t.Fatalf("a replaced platform binary behind the launcher: %v", err)
	}
	if NPMBinDir+"/intenthook" != hookconfig.NPMBinary || NPMDir != hookconfig.NPMPackage {
		t.Fatalf("the binary checked (%s) is not the one the wiring runs (%s)", NPMBinDir+"/intenthook", hookconfig.NPMBinary)
	}
	if _, err := checkInstalled(t.TempDir(), "linux", "amd64"); err != ErrNotInstalled {
		t.Fatalf("no install: %v", err)
	}
	// No checksums: an older package.
	root = layout(t, native)
	os.Remove(filepath.Join(root, "node_modules/@intenthook/linux-x64", ChecksumsFile))
	if _, err := checkInstalled(root, "linux", "amd64"); err == nil || !strings.Contains(err.Error(), "no "+ChecksumsFile) {
		t.Fatalf("no checksums: %v", err)
	}
}
