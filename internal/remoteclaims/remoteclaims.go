// Package remoteclaims shares the sessions' claims with teammates'
// machines through a git remote they already push to (claims.remote in
// config.yaml): a claim on an intent is a ref,
// refs/intenthook/claims/<intent>, whose commit holds one file,
// <intent>.json, naming who holds it (git identity, session, machine) and
// until when. It is written by a compare-and-swap push
// (--force-with-lease), so that of two machines taking one intent exactly
// one wins. Where the remote refuses refs outside refs/heads/ and
// refs/tags/, the claims live as files of one branch, intenthook/claims,
// written the same way.
//
// It keeps, under the repository's common git directory, this clone's id
// and which form the remote accepts, and in each work tree's state/ a
// record of each claim its sessions took (what a hook call reads to know
// when to renew, and status to show a claim the remote did not take). It decides nothing about
// selections: package selection asks it.
package remoteclaims

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/randid"
	"github.com/intenthook/intenthook/internal/state"
)

const (
	// RefPrefix is where on the remote each intent's claim is a ref.
	RefPrefix = "refs/intenthook/claims/"
	// Branch holds the claims, one file per intent, on a remote that
	// refuses refs under RefPrefix.
	Branch = "refs/heads/intenthook/claims"
	// TTL is how long a claim holds from its writing: the live window of
	// a session's selection (selection.LiveWindow).
	TTL = 30 * time.Minute
	// Skew is how far machines' clocks may differ: a claim written on
	// another machine holds until its expiry plus Skew by this machine's
	// clock.
	Skew = 2 * time.Minute
	// Bound is what a selection may wait on the remote, every git
	// command together.
	Bound = 2 * time.Second
	// CloneFile is, under the common git directory, this clone's id, and
	// ModeFile the form of claims the remote takes, when not refs.
	CloneFile = "intenthook/clone"
	ModeFile  = "intenthook/claims-mode"
)

// Modes: where the remote keeps claims.
const (
	ModeRefs   = "refs"
	ModeBranch = "branch"
)

// WaitEnv names the variable that sets another bound than Bound on a
// selection's wait (a duration, at most MaxWait): for a slow link, and
// for tests on a loaded machine.
const (
	WaitEnv = "INTENTHOOK_CLAIMS_WAIT"
	MaxWait = 30 * time.Second
)

// Wait is what a selection may wait on the remote, as getenv sets it.
func Wait(getenv func(string) string) time.Duration {
	if d, err := time.ParseDuration(getenv(WaitEnv)); err == nil && d > 0 {
		return min(d, MaxWait)
	}
	return Bound
}

// emptyTree is git's empty tree, known to every git without being written.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// Claim is the content of a claim on the remote, format 1.
type Claim struct {
	V       int       `json:"v"`
	Intent  string    `json:"intent"`
	Who     string    `json:"who"`
	Session string    `json:"session_id"`
	Agent   string    `json:"agent,omitempty"`
	Machine string    `json:"machine"`
	Clone   string    `json:"clone"`
	At      time.Time `json:"at"`
	Expires time.Time `json:"expires"`
}

// Live reports whether c still holds at now, by this machine's clock:
// until its expiry, plus the clock skew allowed between machines.
func (c Claim) Live(now time.Time) bool { return now.Before(c.Expires.Add(Skew)) }

// Due reports whether its holder should renew c at now: within a third
// of TTL of its expiry.
func (c Claim) Due(now time.Time) bool { return !now.Before(c.Expires.Add(-TTL / 3)) }

// Holder names c's holder for a message.
func (c Claim) Holder() string {
	s := "session " + c.Session
	if c.Agent != "" {
		s += " agent " + c.Agent
	}
	who := c.Who
	if who == "" {
		who = "an unknown git identity"
	}
	return s + " of " + who + " on the machine " + c.Machine
}

// Record is what this clone remembers of a claim it took or tried to.
type Record struct {
	Claim Claim `json:"claim"`
	// Commit is the claim's commit on the remote; "" when the remote was
	// not reached (Error says why): the claim is this machine's only.
	Commit string `json:"commit,omitempty"`
	Mode   string `json:"mode,omitempty"`
	Remote string `json:"remote"`
	Error  string `json:"error,omitempty"`
	// Renewing is when a hook call last started a renewal.
	Renewing time.Time `json:"renewing,omitzero"`
}

// Remote is one clone's view of the claims on one of its remotes.
type Remote struct {
	Name   string // the git remote
	Root   string // the work tree git runs in
	Common string // the repository's common git directory
	Env    []string
}

// Open returns the remote name of the repository holding root; ok is
// false outside git.
func Open(root, name string) (Remote, bool) {
	common, ok := git.CommonDir(root)
	if !ok || name == "" {
		return Remote{}, false
	}
	return Remote{Name: name, Root: root, Common: common, Env: Env(os.Environ())}, true
}

// Env is env for git commands that reach a remote: nothing may prompt (a
// credential prompt counts as an unreachable remote), no askpass program,
// ssh in batch mode.
func Env(env []string) []string {
	out := make([]string, 0, len(env)+4)
	ssh := "ssh"
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_TERMINAL_PROMPT", "GIT_ASKPASS", "SSH_ASKPASS", "GCM_INTERACTIVE":
			continue
		case "GIT_SSH_COMMAND":
			if v != "" {
				ssh = v
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=", "GCM_INTERACTIVE=never",
		"GIT_SSH_COMMAND="+ssh+" -o BatchMode=yes")
}

// RefKey names intent in a ref and a file name: its id when git takes it
// as one path component, else a hash of it.
func RefKey(intent string) string {
	k := state.Key(intent)
	if strings.HasPrefix(k, ".") || strings.HasSuffix(k, ".") || strings.Contains(k, "..") || strings.HasSuffix(k, ".lock") {
		sum := sha256.Sum256([]byte(intent))
		return "h-" + hex.EncodeToString(sum[:])
	}
	return k
}

// Ref is the remote ref of intent's claim.
func Ref(intent string) string { return RefPrefix + RefKey(intent) }

func (r Remote) git(ctx context.Context, input []byte, args ...string) ([]byte, error) {
	return git.OutputFed(ctx, r.Root, r.Env, input, args...)
}

// Clone returns this clone's id, made on the first call: what tells this
// clone's claims from another's on one machine.
func (r Remote) Clone() (string, error) {
	path := filepath.Join(r.Common, filepath.FromSlash(CloneFile))
	if b, err := osfile.ReadFile(path); err == nil {
		if id := strings.TrimSpace(string(b)); id != "" {
			return id, nil
		}
	}
	id := randid.Hex(8)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("clone id: %w", err)
	}
	if err := state.WriteFile(path, []byte(id+"\n"), 0o644, false); err != nil {
		return "", fmt.Errorf("clone id: %w", err)
	}
	return id, nil
}

// Identity is the git identity claims name: user.name <user.email>.
func (r Remote) Identity(ctx context.Context) string { return git.Identity(ctx, r.Root, r.Env) }

// Machine is this machine's name in claims.
func Machine() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown"
	}
	return h
}

// tips reads the remote's tips of intent's ref and the claims branch
// ("" for one that does not exist).
func (r Remote) tips(ctx context.Context, intent string) (ref, branch string, err error) {
	out, err := r.git(ctx, nil, "ls-remote", "--", r.Name, Ref(intent), Branch)
	if err != nil {
		return "", "", err
	}
	for _, line := range strings.Split(string(out), "\n") {
		sha, name, ok := strings.Cut(line, "\t")
		switch {
		case !ok:
		case name == Ref(intent):
			ref = sha
		case name == Branch:
			branch = sha
		}
	}
	return ref, branch, nil
}

// have makes sure the commits are in this clone, fetching by ref name
// those that are not (one cat-file for all of them).
func (r Remote) have(ctx context.Context, commits, refs []string) error {
	if len(commits) == 0 {
		return nil
	}
	out, _ := r.git(ctx, []byte(strings.Join(commits, "\n")+"\n"), "cat-file", "--batch-check")
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	var missing []string
	for i, ref := range refs {
		// "<sha> commit <size>", or "<sha> missing"
		if i >= len(lines) || len(strings.Fields(lines[i])) != 3 || strings.Fields(lines[i])[1] != "commit" {
			missing = append(missing, ref)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	args := append([]string{"-c", "gc.auto=0", "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules", "--", r.Name}, missing...)
	_, err := r.git(ctx, nil, args...)
	return err
}

// read returns the claim on intent a commit holds (nil when it holds
// none).
func (r Remote) read(ctx context.Context, commit, intent string) *Claim {
	if commit == "" {
		return nil
	}
	data, err := r.git(ctx, nil, "cat-file", "blob", commit+":"+RefKey(intent)+".json")
	if err != nil {
		return nil
	}
	var c Claim
	if json.Unmarshal(data, &c) != nil || c.Intent != intent || c.Session == "" {
		return nil
	}
	return &c
}

// commit writes a commit whose tree is base's (a commit, "" for none)
// with intent's file set to c (nil: taken out), and returns it.
func (r Remote) commit(ctx context.Context, base, intent string, c *Claim) (string, error) {
	name := RefKey(intent) + ".json"
	var entries []string
	if base != "" {
		out, err := r.git(ctx, nil, "ls-tree", "-z", base)
		if err != nil {
			return "", err
		}
		for _, e := range git.NulList(out) {
			if _, file, _ := strings.Cut(e, "\t"); file != name {
				entries = append(entries, e)
			}
		}
	}
	if c != nil {
		var data bytes.Buffer
		enc := json.NewEncoder(&data)
		enc.SetEscapeHTML(false) // who reads "Name <email>" as written
		_ = enc.Encode(c)
		blob, err := r.git(ctx, data.Bytes(), "hash-object", "-w", "--stdin")
		if err != nil {
			return "", err
		}
		entries = append(entries, "100644 blob "+strings.TrimSpace(string(blob))+"\t"+name)
	}
	tree := emptyTree
	if len(entries) > 0 {
		sort.Slice(entries, func(i, j int) bool { return entryName(entries[i]) < entryName(entries[j]) })
		out, err := r.git(ctx, []byte(strings.Join(entries, "\x00")+"\x00"), "mktree", "-z")
		if err != nil {
			return "", err
		}
		tree = strings.TrimSpace(string(out))
	}
	when := time.Now().Unix()
	if c != nil {
		when = c.At.Unix()
	}
	sig := "intenthook <intenthook@localhost> " + strconv.FormatInt(when, 10) + " +0000"
	msg := "intenthook: claims of " + intent
	obj := "tree " + tree + "\nauthor " + sig + "\ncommitter " + sig + "\n\n" + msg + "\n"
	out, err := r.git(ctx, []byte(obj), "hash-object", "-t", "commit", "-w", "--stdin")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

func entryName(e string) string { _, n, _ := strings.Cut(e, "\t"); return n }

// Push outcomes.
var (
	// ErrStale: the remote's ref was not what the lease expected: another
	// machine wrote it first.
	ErrStale = errors.New("another machine wrote the claim first")
	// errRefused: the remote refused the ref (a hook, a host's rule).
	errRefused = errors.New("the remote refused the ref")
)

// push sets ref on the remote to commit ("" deletes it) if it is old
// there now ("" for absent).
func (r Remote) push(ctx context.Context, ref, old, commit string) error {
	out, err := r.runPush(ctx, "--porcelain", "--no-verify", "--force-with-lease="+ref+":"+old, "--", r.Name, commit+":"+ref)
	for _, line := range strings.Split(out, "\n") {
		if !strings.Contains(line, ":"+ref+"\t") {
			continue
		}
		switch {
		case strings.HasPrefix(line, "!") && strings.Contains(line, "[rejected] (stale info)"):
			return ErrStale
		case strings.HasPrefix(line, "!") && lockLost(line):
			// Another push updated the ref between the lease's check
			// and this one's update: as stale, read the tips again.
			return ErrStale
		case strings.HasPrefix(line, "!") && strings.Contains(line, "[remote rejected]"):
			return fmt.Errorf("%w: %s", errRefused, strings.TrimSpace(line[strings.Index(line, "[remote rejected]"):]))
		case strings.HasPrefix(line, "!"):
			return fmt.Errorf("push %s: %s", ref, strings.TrimSpace(line[strings.LastIndex(line, "\t")+1:]))
		}
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("push %s: git said nothing of it", ref)
}

// lockLost reports whether a push's refusal says another update held or
// moved the ref at the same moment (git's receive-pack: "failed to update
// ref", "failed to lock", "cannot lock ref"), not that the remote refuses
// such refs.
func lockLost(line string) bool {
	for _, s := range []string{"(failed to update ref)", "(failed to lock)", "cannot lock ref"} {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

func (r Remote) runPush(ctx context.Context, args ...string) (string, error) {
	cmd := git.Open(r.Root).Command(ctx, append([]string{"push"}, args...)...)
	cmd.Env = r.Env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		line, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if line == "" {
			line = err.Error()
		}
		return "", fmt.Errorf("git push: %s", line)
	}
	return string(out), nil
}

// Outcome is what a Take found and did.
type Outcome struct {
	// Held is another clone's live claim on the intent: the take lost.
	Held *Claim
	// Commit is this clone's claim on the remote after a win, in Mode.
	Commit, Mode string
}

// Take claims c.Intent on the remote for c's session: it wins when the
// remote holds no live claim of another clone on it, writing c with a
// compare-and-swap push, and loses (Held) when it does. An error means
// the remote was not reached or would not take it: the claim is this
// machine's only.
func (r Remote) Take(ctx context.Context, c Claim, now time.Time) (Outcome, error) {
	for range 4 {
		ref, branch, err := r.tips(ctx, c.Intent)
		if err != nil {
			return Outcome{}, err
		}
		var tips, names []string
		if ref != "" {
			tips, names = append(tips, ref), append(names, Ref(c.Intent))
		}
		if branch != "" {
			tips, names = append(tips, branch), append(names, Branch)
		}
		if err := r.have(ctx, tips, names); err != nil {
			return Outcome{}, err
		}
		for _, tip := range []string{ref, branch} {
			if cur := r.read(ctx, tip, c.Intent); cur != nil && cur.Clone != c.Clone && cur.Live(now) {
				return Outcome{Held: cur}, nil
			}
		}
		mode := r.Mode()
		if mode == ModeRefs {
			commit, err := r.commit(ctx, "", c.Intent, &c)
			if err != nil {
				return Outcome{}, err
			}
			err = r.push(ctx, Ref(c.Intent), ref, commit)
			switch {
			case err == nil:
				return Outcome{Commit: commit, Mode: ModeRefs}, nil
			case errors.Is(err, ErrStale):
				continue
			case errors.Is(err, errRefused):
				// A lost race is refused too: only a ref still as it was
				// says the remote refuses the form.
				if again, _, terr := r.tips(ctx, c.Intent); terr != nil || again != ref {
					continue
				}
				r.setMode(ModeBranch)
			default:
				return Outcome{}, err
			}
		}
		commit, err := r.commit(ctx, branch, c.Intent, &c)
		if err != nil {
			return Outcome{}, err
		}
		switch err := r.push(ctx, Branch, branch, commit); {
		case err == nil:
			return Outcome{Commit: commit, Mode: ModeBranch}, nil
		case errors.Is(err, ErrStale), errors.Is(err, errRefused):
			continue
		default:
			return Outcome{}, err
		}
	}
	return Outcome{}, errors.New("the remote's claims kept changing")
}

// Release takes this clone's claim of session on intent off the remote:
// only a claim that is still this clone's session's is taken out.
func (r Remote) Release(ctx context.Context, intent, clone, session string) error {
	return r.drop(ctx, intent, func(c *Claim) bool { return c.Clone == clone && c.Session == session })
}

// Clear takes any claim on intent off the remote: a person's command.
func (r Remote) Clear(ctx context.Context, intent string) error {
	return r.drop(ctx, intent, func(*Claim) bool { return true })
}

func (r Remote) drop(ctx context.Context, intent string, mine func(*Claim) bool) error {
	for range 4 {
		ref, branch, err := r.tips(ctx, intent)
		if err != nil {
			return err
		}
		var tips, names []string
		if ref != "" {
			tips, names = append(tips, ref), append(names, Ref(intent))
		}
		if branch != "" {
			tips, names = append(tips, branch), append(names, Branch)
		}
		if err := r.have(ctx, tips, names); err != nil {
			return err
		}
		retry := false
		if c := r.read(ctx, ref, intent); c != nil && mine(c) || ref != "" && c == nil && mine(&Claim{}) {
			if err := r.push(ctx, Ref(intent), ref, ""); errors.Is(err, ErrStale) {
				retry = true
			} else if err != nil {
				return err
			}
		}
		if c := r.read(ctx, branch, intent); c != nil && mine(c) {
			commit, err := r.commit(ctx, branch, intent, nil)
			if err != nil {
				return err
			}
			if err := r.push(ctx, Branch, branch, commit); errors.Is(err, ErrStale) {
				retry = true
			} else if err != nil {
				return err
			}
		}
		if !retry {
			return nil
		}
	}
	return errors.New("the remote's claims kept changing")
}

// Listed is a claim on the remote and the form it was found in.
type Listed struct {
	Claim
	Mode string
}

// List reads every claim on the remote, by intent.
func (r Remote) List(ctx context.Context) ([]Listed, error) {
	out, err := r.git(ctx, nil, "ls-remote", "--", r.Name, RefPrefix+"*", Branch)
	if err != nil {
		return nil, err
	}
	var tips, names []string
	for _, line := range strings.Split(string(out), "\n") {
		if sha, name, ok := strings.Cut(line, "\t"); ok && (strings.HasPrefix(name, RefPrefix) || name == Branch) {
			tips, names = append(tips, sha), append(names, name)
		}
	}
	if err := r.have(ctx, tips, names); err != nil {
		return nil, err
	}
	var cs []Listed
	for i, tip := range tips {
		files, err := r.git(ctx, nil, "ls-tree", "-z", "--name-only", tip)
		if err != nil {
			continue
		}
		for _, f := range git.NulList(files) {
			data, err := r.git(ctx, nil, "cat-file", "blob", tip+":"+f)
			var c Claim
			if err != nil || json.Unmarshal(data, &c) != nil || c.Intent == "" || RefKey(c.Intent)+".json" != f {
				continue
			}
			mode := ModeBranch
			if names[i] != Branch {
				if Ref(c.Intent) != names[i] {
					continue
				}
				mode = ModeRefs
			}
			cs = append(cs, Listed{Claim: c, Mode: mode})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Intent < cs[j].Intent })
	return cs, nil
}

// Mode is the form of claims the remote takes, as this clone last found.
func (r Remote) Mode() string {
	b, _ := osfile.ReadFile(filepath.Join(r.Common, filepath.FromSlash(ModeFile)))
	if strings.TrimSpace(string(b)) == ModeBranch {
		return ModeBranch
	}
	return ModeRefs
}

func (r Remote) setMode(mode string) {
	path := filepath.Join(r.Common, filepath.FromSlash(ModeFile))
	if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		_ = state.WriteFile(path, []byte(mode+"\n"), 0o644, false)
	}
}
