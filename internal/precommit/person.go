package precommit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/proc"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
	"github.com/intenthook/intenthook/internal/workspace"
)

// PersonTrailer is the trailer the commit-msg step writes on a person's
// commit under people.commits: free ("Intenthook-Person: Name <email>"),
// which audit reads: the changes such a commit does not trace are a
// person's, listed as warnings. A commit made with --no-verify runs no
// hook and can carry it forged: audit honours it only where the parent's
// settings say free.
const PersonTrailer = "Intenthook-Person"

// AsEnv is the variable that makes precommit judge the commit as an
// agent's whatever the process rule says: INTENTHOOK_PRECOMMIT_AS=agent
// (doctor --hooks sets it for its probe commit). It can only make the
// judgement stricter: an agent gains nothing by setting it, and unsetting
// it changes nothing for an agent's process, which the rule still finds.
const AsEnv = "INTENTHOOK_PRECOMMIT_AS"

// AsAgent is the value of AsEnv that judges a commit as an agent's; any
// other value is ignored.
const AsAgent = "agent"

// agentCommit asks the one process rule (state.AgentAct) whether this
// process, run by git's hook for the commit being made, is an agent's:
// "" for a person's, else the session and why. Its chain is the hook's
// (precommit, the hook's sh unless it execs, git) and then whoever ran
// git: a person's shell, or an agent's command. asAgent (AsEnv) makes it
// an agent's without asking.
func agentCommit(root string, asAgent bool) string {
	if asAgent {
		return AsEnv + "=" + AsAgent
	}
	now := time.Now()
	ss := state.Sessions{Root: root}
	w, why, ok := state.AgentAct(ss.Windows(now), proc.Chain(), now)
	if !ok {
		return ""
	}
	return "session " + safetext.Quote(w.Session) + ": " + why
}

// headPeople reads people.commits from HEAD's settings (a commit cannot
// loosen the rule it is judged by), with their warnings; scoped when HEAD
// has none or they do not parse.
func headPeople(data []byte, found bool) (string, []string) {
	if !found {
		return config.CommitsScoped, nil
	}
	c, err := config.Parse(data)
	if err != nil {
		return config.CommitsScoped, append(c.Warnings, "HEAD's "+config.File+": "+err.Error()+": people.commits: scoped is used")
	}
	return c.People.Commits, c.Warnings
}

// MarkOptions are the inputs of Mark.
type MarkOptions struct {
	Start   string // where the workspace root is looked for
	Message string // the commit message file git hands the commit-msg hook
	AsAgent bool   // AsEnv says agent: the commit is an agent's
}

// Mark is the commit-msg step: under HEAD's people.commits: free, a
// person's commit gets the PersonTrailer with the committer's name and
// email (replacing one the message carried); an agent's commit whose
// message carries the trailer is refused. It returns what it wrote, ""
// for nothing.
func Mark(ctx context.Context, opts MarkOptions) (string, error) {
	start, err := filepath.Abs(opts.Start)
	if err != nil {
		return "", err
	}
	root := workspace.FindRoot(start)
	if root == "" {
		return "", nil
	}
	g, rp, err := git.Locate(ctx, start, root)
	if err != nil {
		return "", err
	}
	var data []byte
	found := false
	if p, ok := rp.ToGit(config.File); ok {
		err := g.ReadObjects(ctx, []string{"HEAD:" + p}, func(_ int, obj *git.Object) error { return readAll(&data, &found)(obj) })
		if err != nil {
			return "", err
		}
	}
	if people, _ := headPeople(data, found); people != config.CommitsFree {
		return "", nil
	}
	file, err := filepath.Abs(opts.Message)
	if err != nil {
		return "", err
	}
	msg, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	if agent := agentCommit(root, opts.AsAgent); agent != "" {
		if hasTrailer(msg) {
			return "", fmt.Errorf("the commit message carries the %s trailer, a person's mark, but the commit runs in an agent's process (%s): refused", PersonTrailer, agent)
		}
		return "", nil
	}
	ident, err := g.Line(ctx, "var", "GIT_COMMITTER_IDENT")
	i := strings.LastIndex(ident, "> ")
	if err != nil || i < 0 {
		return "", fmt.Errorf("the committer's name and email: git var GIT_COMMITTER_IDENT: %v", err)
	}
	value := ident[:i+1]
	if _, err := g.Output(ctx, "interpret-trailers", "--in-place", "--if-exists", "replace", "--trailer", PersonTrailer+": "+value, file); err != nil {
		return "", fmt.Errorf("mark the commit message: %w", err)
	}
	return PersonTrailer + ": " + value, nil
}

// hasTrailer reports whether a message holds a line that starts with the
// trailer's key (git's own reading of trailers is looser than any one
// rule: any such line counts).
func hasTrailer(msg []byte) bool {
	for _, line := range bytes.Split(msg, []byte("\n")) {
		if k, _, ok := bytes.Cut(line, []byte(":")); ok && strings.EqualFold(strings.TrimSpace(string(k)), PersonTrailer) {
			return true
		}
	}
	return false
}
