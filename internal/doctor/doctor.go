// Package doctor checks that intenthook can govern a workspace: the binary,
// the root, the catalog and settings, state/ and its locks, the agent's hook
// wiring (evaluated with Claude Code's own matcher rules), the hook command
// resolving to an executable, git, the pre-commit backstop and the ledger.
// Each check says what it found and, when it fails, what to do. It writes
// only what the hooks would write anyway (state/ and a lock file); with
// Env.Hooks, a probe commit in a throwaway work tree, removed after.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/agent"
	"github.com/intenthook/intenthook/internal/agent/protocol"
	"github.com/intenthook/intenthook/internal/asks"
	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/confine"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/remoteclaims"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// Status is a check's outcome, printed as its mark.
type Status = protocol.Status

// Outcomes. Only Fail makes doctor fail: Warn is advice, Skip a check that
// could not run because an earlier one failed.
const (
	Pass = protocol.Pass
	Fail = protocol.Fail
	Warn = protocol.Warn
	Skip = protocol.Skip
)

// Check is one line of the report.
type Check = protocol.Check

// Env is what doctor looks at besides the file system.
type Env struct {
	Root     string              // --root: the root itself, not walked up from
	Start    string              // the working directory, walked up when Root is empty
	Getenv   func(string) string // the environment
	Version  string              // this binary's version
	LookPath func(string) (string, error)
	// Hooks adds the probe commit (doctor --hooks): the pre-commit chain
	// proved by a real commit in a throwaway work tree.
	Hooks bool
}

// lockTimeout is short: a lock that cannot be had in a second points at a
// hung hook, and doctor should not hang with it.
const lockTimeout = time.Second

// Run performs every check, in order.
func Run(ctx context.Context, env Env) []Check {
	checks := []Check{{Status: Pass, Name: "version", Detail: fmt.Sprintf("intenthook %s (%s %s/%s)", env.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)}}
	if runtime.GOOS == "windows" {
		checks = append(checks, windowsCheck)
	}
	root, err := workspace.Locate(env.Root, env.Start)
	if err != nil {
		checks = append(checks, Check{Status: Fail, Name: "workspace root", Detail: err.Error(), Hint: "run intenthook init at the top of the repository, or pass --root DIR"})
		for _, name := range []string{"catalog", "config", "state directory", "lock", "claude hooks", "ledger"} {
			checks = append(checks, Check{Status: Skip, Name: name, Detail: "no workspace root"})
		}
		checks = append(checks, checkGit(ctx, env))
		return append(checks, checkLeftovers(ctx, env)...)
	}
	checks = append(checks, Check{Status: Pass, Name: "workspace root", Detail: root})
	checks = append(checks, checkCatalog(root), checkConfig(root, env.Getenv), checkIgnore(root))
	stateCheck := checkState(root)
	checks = append(checks, stateCheck, checkLock(ctx, root, stateCheck.Status == Pass))
	checks = append(checks, checkClaims(root)...)
	checks = append(checks, checkRemoteClaims(ctx, root, env.Getenv)...)
	checks = append(checks, checkNotify(root, env.Getenv)...)
	checks = append(checks, checkChecksNetwork(root, env.Getenv))
	checks = append(checks, checkAgents(root, env)...)
	checks = append(checks, checkHookBinary(root)...)
	checks = append(checks, checkHookReplaced(root)...)
	checks = append(checks, checkCommandForm(root, env)...)
	checks = append(checks, checkMCPServers(root, env)...)
	checks = append(checks, checkMCP(root, env)...)
	checks = append(checks, checkUnclassifiedTools(root, env.Getenv)...)
	checks = append(checks, checkExport(root, env.Getenv)...)
	git := checkGit(ctx, env)
	checks = append(checks, git, checkPreCommit(ctx, root, git.Status == Pass))
	if env.Hooks {
		checks = append(checks, probeHooks(ctx, root, git.Status == Pass, ProbeTimeout))
	}
	checks = append(checks, checkLedger(root), checkLegacySize(root), checkAttributes(ctx, root, git.Status == Pass), checkSecondNames(root), checkUndone(root))
	return checks
}

// checkSecondNames warns about a governance file with more than one name:
// a hard link made outside any agent's command (the guard puts back one a
// command makes), through which a program could write the file with no
// row to protect it.
func checkSecondNames(root string) Check {
	const name = "governance links"
	linked := workspace.SecondNames(root, workspace.Governance(append(agent.Governance(), agent.WorkspaceRows(root))))
	if len(linked) == 0 {
		return Check{Status: Pass, Name: name, Detail: "every governance file has one name"}
	}
	quoted := make([]string, len(linked))
	for i, rel := range linked {
		quoted[i] = safetext.Quote(rel)
	}
	return Check{Status: Warn, Name: name, Detail: "more than one name (a hard link elsewhere): " + strings.Join(quoted, ", "),
		Hint: "find the other names (find . -samefile PATH) and remove them, or give the file one name again: cp PATH PATH.tmp && mv PATH.tmp PATH"}
}

// checkUndone lists what the guard put back: a person's own edit made
// while an agent's command ran is among the displaced versions, never
// gone without a word.
func checkUndone(root string) Check {
	const name = "guard restores"
	undone := guard.Undone(root)
	if len(undone) == 0 {
		return Check{Status: Pass, Name: name, Detail: "nothing put back"}
	}
	return Check{Status: Warn, Name: name, Detail: fmt.Sprintf("%d displaced version(s) under %s, newest %s", len(undone), guard.UndoneDir, safetext.Quote(undone[0])),
		Hint: "intenthook status lists them; a change a person made on purpose is re-applied with cp <file> <path>, then the file can go"}
}

// windowsCheck says what is known of intenthook on Windows: it is built and
// vetted for it, and its Windows code paths (file identity, process
// liveness, locks, renames) are written to Windows' documented behaviour,
// but no test suite runs there.
var windowsCheck = Check{Status: Warn, Name: "platform", Detail: "Windows support is experimental: cross-built and vetted, not tested on Windows",
	Hint: "see docs/install.md#windows for what is and is not verified; report what you see"}

// Failed reports whether any check failed.
func Failed(checks []Check) bool {
	for _, c := range checks {
		if c.Status == Fail {
			return true
		}
	}
	return false
}

// Write prints the report: one line per check, its hint below it, and a
// summary.
func Write(w io.Writer, checks []Check) {
	failed := 0
	for _, c := range checks {
		fmt.Fprintf(w, "%s %s: %s\n", c.Status, c.Name, c.Detail)
		if c.Hint != "" && (c.Status == Fail || c.Status == Warn) {
			fmt.Fprintf(w, "    hint: %s\n", c.Hint)
		}
		if c.Status == Fail {
			failed++
		}
	}
	if failed == 0 {
		fmt.Fprintln(w, "doctor: every check passed")
		return
	}
	fmt.Fprintf(w, "doctor: %d check(s) failed\n", failed)
}

func checkCatalog(root string) Check {
	c, err := intents.Load(filepath.Join(root, filepath.FromSlash(intents.File)))
	if err != nil {
		return Check{Status: Fail, Name: "catalog", Detail: err.Error(), Hint: "fix " + intents.File + " (intenthook intents validate shows where)"}
	}
	var errs, warns []intents.Problem
	for _, p := range c.Problems {
		if p.Severity == intents.Error {
			errs = append(errs, p)
		} else {
			warns = append(warns, p)
		}
	}
	if len(errs) > 0 {
		return Check{Status: Fail, Name: "catalog", Detail: fmt.Sprintf("%d error(s), the first: %s", len(errs), errs[0].Format(intents.File)), Hint: "intenthook intents validate lists them; invalid intents cannot be selected or written under"}
	}
	active := 0
	for _, in := range c.All() {
		if in.Status == intents.InProgress {
			active++
		}
	}
	detail := fmt.Sprintf("%d intent(s), %d IN_PROGRESS", len(c.All()), active)
	if len(warns) > 0 {
		detail += fmt.Sprintf(", %d warning(s)", len(warns))
	}
	return Check{Status: Pass, Name: "catalog", Detail: detail}
}

func checkConfig(root string, getenv func(string) string) Check {
	c, err := config.Load(root, getenv)
	switch {
	case err != nil:
		return Check{Status: Fail, Name: "config", Detail: oneLine(err.Error()), Hint: "fix " + config.File + " (docs/workspace.md lists every setting and its values)"}
	case len(c.Warnings) > 0:
		// Unknown keys are warnings (SPEC §13): a newer version's setting
		// must not fail an older doctor.
		return Check{Status: Warn, Name: "config", Detail: strings.Join(c.Warnings, "; "), Hint: "remove or correct them: a misspelt key is silently ignored, a value out of range is clamped"}
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(config.File))); err != nil {
		return Check{Status: Pass, Name: "config", Detail: "no " + config.File + ": the defaults apply"}
	}
	return Check{Status: Pass, Name: "config", Detail: config.File + " is valid"}
}

// checkIgnore says which ignore files apply, in the order their patterns
// do.
func checkIgnore(root string) Check {
	var applied []string
	for _, f := range workspace.IgnoreFiles {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return Check{Status: Fail, Name: "intentignore", Detail: oneLine(err.Error()), Hint: "make " + f + " a readable file"}
		}
		n := workspace.ParseIgnore(data).Patterns()
		applied = append(applied, fmt.Sprintf("%s (%d pattern%s)", f, n, plural(n)))
	}
	if len(applied) == 0 {
		return Check{Status: Pass, Name: "intentignore", Detail: "no .intentignore: every path needs an intent"}
	}
	return Check{Status: Pass, Name: "intentignore", Detail: strings.Join(applied, ", then ")}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// checkState makes sure the hooks can keep sessions in state/: it creates
// state/ as a hook would, and a file in it.
func checkState(root string) Check {
	const name = "state directory"
	hint := "the hooks keep sessions and locks in " + state.StateDir + "/: make it a directory you can write (deleting it is safe)"
	if st, err := os.Lstat(state.Path(root)); err == nil && !st.IsDir() {
		// The hooks move it aside and rebuild; doctor reports it.
		return Check{Status: Fail, Name: name, Detail: "create state directory: " + state.StateDir + " is not a directory (the hooks move it aside and rebuild it)", Hint: hint}
	}
	if err := state.Ensure(root); err != nil {
		return Check{Status: Fail, Name: name, Detail: err.Error(), Hint: hint}
	}
	f, err := os.CreateTemp(state.Path(root), ".doctor-*")
	if err != nil {
		return Check{Status: Fail, Name: name, Detail: err.Error(), Hint: hint}
	}
	_ = f.Close()
	_ = os.Remove(f.Name())
	return Check{Status: Pass, Name: name, Detail: state.StateDir + "/ is writable"}
}

func checkLock(ctx context.Context, root string, stateOK bool) Check {
	if !stateOK {
		return Check{Status: Skip, Name: "lock", Detail: "state directory not writable"}
	}
	unlock, err := state.Lock(ctx, root, state.LockLedger, lockTimeout)
	if err != nil {
		return Check{Status: Fail, Name: "lock", Detail: err.Error(), Hint: "another process holds the ledger lock (a hung hook?), or this file system has no flock: the hooks would time out"}
	}
	unlock()
	return Check{Status: Pass, Name: "lock", Detail: "the ledger lock can be taken"}
}

func checkLedger(root string) Check {
	rep := ledger.Verify(root)
	if !rep.OK() {
		return Check{Status: Fail, Name: "ledger", Detail: fmt.Sprintf("%d error(s), the first: %s", len(rep.Errors), rep.Errors[0]), Hint: "intenthook ledger verify lists them; a commit is refused while the ledger does not verify"}
	}
	if rep.Lines == 0 {
		return Check{Status: Pass, Name: "ledger", Detail: "no records yet"}
	}
	return Check{Status: Pass, Name: "ledger", Detail: fmt.Sprintf("%d record(s) in %d segment(s), ledger tip seq %d, %d fork(s)", rep.Records, len(rep.Segments), rep.Head.Seq, len(rep.Forks))}
}

// legacyWarnBytes is the size past which the single-file ledger is worth
// splitting: git stores a changed file whole on every commit, and hosts
// refuse files past 100 MiB.
const legacyWarnBytes = 50 << 20

func checkLegacySize(root string) Check {
	st, err := os.Stat(filepath.Join(root, filepath.FromSlash(ledger.FileName)))
	switch {
	case err != nil:
		return Check{Status: Pass, Name: "ledger size", Detail: "records are in segments under " + ledger.SegmentDir + "/"}
	case st.Size() > legacyWarnBytes:
		return Check{Status: Warn, Name: "ledger size", Detail: fmt.Sprintf("%s is %d MiB: git stores it whole on every commit, and hosts refuse files past 100 MiB", ledger.FileName, st.Size()>>20),
			Hint: "run intenthook ledger split: it moves its lines, byte for byte, into segment-sized files under " + ledger.SegmentDir + "/legacy/ (audit accepts the commit)"}
	}
	return Check{Status: Pass, Name: "ledger size", Detail: fmt.Sprintf("%s is %d KiB; new records go to segments", ledger.FileName, st.Size()>>10)}
}

// checkAttributes looks for .orchestration/** -text in effect: a checkout
// that converts line ends (Git for Windows' default) would change ledger
// bytes and break their hashes.
func checkAttributes(ctx context.Context, root string, haveGit bool) Check {
	const name = "gitattributes"
	if !haveGit {
		return Check{Status: Skip, Name: name, Detail: "no git"}
	}
	out, err := git.Output(ctx, root, nil, "check-attr", "text", "--", ".orchestration/config.yaml")
	if err != nil {
		return Check{Status: Skip, Name: name, Detail: "not a git work tree"}
	}
	if !strings.HasSuffix(strings.TrimSpace(string(out)), ": text: unset") {
		return Check{Status: Warn, Name: name, Detail: "line-end conversion is not turned off under .orchestration/", Hint: "add the line " + workspace.TextAttribute + " to .gitattributes (intenthook init does): a core.autocrlf checkout would change ledger bytes"}
	}
	return Check{Status: Pass, Name: name, Detail: workspace.TextAttribute}
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", "; ") }

// checkAgents checks every agent whose hooks are configured here; with none
// configured, the default agent's checks say what is missing.
func checkAgents(root string, env Env) []Check {
	cenv := protocol.CheckEnv{Getenv: env.Getenv, LookPath: env.LookPath, SandboxReadOnly: workspace.SandboxReadOnlyAt(workspace.Governance(agent.Governance()), root), Run: probe, Output: probeOutput}
	var checks, fallback []Check
	var wait time.Duration
	if cfg, err := config.Load(root, env.Getenv); err == nil && cfg.Ask.Waits() {
		wait = cfg.Ask.Timeout
	}
	for _, a := range agent.All() {
		configured, cs := a.Check(root, cenv)
		if configured && wait > 0 {
			if c, short := protocol.CheckPreTimeout(root, a, wait); short {
				cs = append(cs, c)
			}
		}
		switch {
		case configured:
			checks = append(checks, cs...)
			checks = append(checks, protocol.GradeLine(a, cs))
		case a.Name == agent.Default:
			fallback = cs
		}
	}
	// The workspace's own agents: a description that does not load is a
	// failure (its agent's hooks answer by the fail mode).
	for _, name := range agent.WorkspaceAgents(root) {
		a, err := agent.LookupIn(root, name)
		if err != nil {
			checks = append(checks, protocol.Check{Status: protocol.Fail, Name: name + " description", Detail: oneLine(err.Error()),
				Hint: "fix .orchestration/agents/" + name + ".json (docs/agents.md, \"An agent as a data file\"): every hook of that agent fails meanwhile"})
			continue
		}
		configured, cs := a.Check(root, cenv)
		if !configured {
			cs = []protocol.Check{{Status: protocol.Warn, Name: name + " hooks", Detail: "described in .orchestration/agents/" + name + ".json, not wired", Hint: "run intenthook init --agent " + name}}
		}
		checks = append(checks, cs...)
		if configured {
			checks = append(checks, protocol.GradeLine(a, cs))
		}
	}
	if len(checks) == 0 {
		return fallback
	}
	return checks
}

// checkChecksNetwork says how an intent's checks are kept off the network
// on this machine (checks.network).
func checkChecksNetwork(root string, getenv func(string) string) Check {
	const name = "checks network"
	if cfg, err := config.Load(root, getenv); err == nil && cfg.Checks.Network == config.NetworkAllow {
		return Check{Status: Pass, Name: name, Detail: "checks.network: allow: an intent's checks reach the network, as the person who runs them does"}
	}
	how := confine.Network()
	if how == confine.NetNone {
		return Check{Status: Warn, Name: name, Detail: "an intent's checks run off the network through " + how,
			Hint: "a kernel with user namespaces (or Landlock ABI 4) keeps them off it; docs/threat-model.md"}
	}
	return Check{Status: Pass, Name: name, Detail: "an intent's checks run off the network through " + how}
}

// checkNotify says, when notify.webhook_url_env is set, whether this
// environment holds the URL, and how the last message went.
func checkNotify(root string, getenv func(string) string) []Check {
	cfg, err := config.Load(root, getenv)
	if err != nil || cfg.Notify.WebhookURLEnv == "" {
		return nil
	}
	const name = "notify"
	v := cfg.Notify.WebhookURLEnv
	var checks []Check
	if getenv(v) == "" {
		checks = append(checks, Check{Status: Warn, Name: name, Detail: "notify.webhook_url_env names $" + safetext.Quote(v) + ", which is empty here: intenthook ask serve-notify and the console send nothing from this environment",
			Hint: "set it to the webhook's URL in the shell you run them from"})
	}
	last, ok := asks.For(root).LastNotified()
	switch {
	case ok && last.Error != "":
		checks = append(checks, Check{Status: Warn, Name: name, Detail: fmt.Sprintf("the last pending ask sent, %s at %s, failed: %s", last.Ask, last.At.UTC().Format(time.RFC3339), oneLine(last.Error)),
			Hint: "check the webhook's URL and that this machine reaches it; the asks still wait in intenthook ask and the console"})
	case ok:
		checks = append(checks, Check{Status: Pass, Name: name, Detail: fmt.Sprintf("the last pending ask sent, %s at %s, was delivered", last.Ask, last.At.UTC().Format(time.RFC3339))})
	case len(checks) == 0:
		checks = append(checks, Check{Status: Pass, Name: name, Detail: "$" + v + " is set; no pending ask sent yet"})
	}
	return checks
}

// probeTimeout bounds a probe doctor runs (bwrap, for Claude Code's
// sandbox): a program that hangs must not hang doctor.
const probeTimeout = 5 * time.Second

// probe runs path with args, no input, within probeTimeout; a failure
// carries the first line the program printed.
func probe(path string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.WaitDelay = time.Second // a child left holding the output must not hold doctor
	out, err := cmd.CombinedOutput()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("no answer in %s", probeTimeout)
	}
	if line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n"); line != "" {
		return fmt.Errorf("%w: %s", err, safetext.Flat(line))
	}
	return err
}

// probeOutput runs path with args like probe and returns the first line
// it printed (a version), flattened.
func probeOutput(path string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return "", fmt.Errorf("no answer in %s", probeTimeout)
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return safetext.Flat(line), err
}

// checkClaims warns, when the repository has more than one work tree and
// its common git directory holds claims, that they are shared by its work trees only among intenthook
// versions that read them: an older intenthook wired in another work tree
// reads only its own state/ (docs/workspace.md, mixed versions).
func checkClaims(root string) []Check {
	cl := state.RepoClaims(root)
	if !cl.Any() || len(git.WorkTrees(filepath.Dir(filepath.Dir(cl.Dir)))) < 2 {
		return nil
	}
	return []Check{{Status: Warn, Name: "claims", Detail: "the repository's claims are shared by its work trees under " + safetext.Quote(cl.Dir) + ": an intenthook from before shared claims, wired in another work tree, reads only its own state/ and lets its sessions select intents held here",
		Hint: "upgrade intenthook in every work tree and clone together (docs/workspace.md#many-work-trees-one-repository)"}}
}

// checkRemoteClaims says, with claims.remote set, where teammates'
// machines find this clone's claims: refs/intenthook/claims/<intent>, or
// the branch intenthook/claims on a remote that refused those refs (as
// this clone last found). It does not reach the remote.
func checkRemoteClaims(ctx context.Context, root string, getenv func(string) string) []Check {
	c, err := config.Load(root, getenv)
	if err != nil || c.Claims.Remote == "" {
		return nil
	}
	name := c.Claims.Remote
	r, ok := remoteclaims.Open(root, name)
	if !ok {
		return []Check{{Status: Warn, Name: "remote claims", Detail: "claims.remote is " + safetext.Quote(name) + ", but the workspace is not in a git repository: claims stay on this machine"}}
	}
	if url, err := git.Line(ctx, root, "config", "--get", "remote."+name+".url"); err != nil || url == "" {
		return []Check{{Status: Warn, Name: "remote claims", Detail: "claims.remote is " + safetext.Quote(name) + ", which is no remote of this repository: every selection's claim stays on this machine",
			Hint: "git remote add " + name + " URL, or set claims.remote to a remote git remote -v lists"}}
	}
	where := "as refs " + remoteclaims.RefPrefix + "<intent>"
	if r.Mode() == remoteclaims.ModeBranch {
		where = "as files of the branch " + strings.TrimPrefix(remoteclaims.Branch, "refs/heads/") + " (the remote refused " + remoteclaims.RefPrefix + "*)"
	}
	detail := "claims are shared with teammates' machines through the remote " + safetext.Quote(name) + " " + where
	for _, rec := range remoteclaims.RecordsOf(root).All() {
		if rec.Error != "" {
			return []Check{{Status: Warn, Name: "remote claims", Detail: detail + "; the claim on " + safetext.Quote(rec.Claim.Intent) + " is this machine's only: " + safetext.Quote(rec.Error),
				Hint: "check that git push " + name + " works from this terminal without a prompt; a later hook call takes it on the remote"}}
		}
	}
	return []Check{{Status: Pass, Name: "remote claims", Detail: detail}}
}
