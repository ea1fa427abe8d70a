package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/intenthook/intenthook/internal/e2e/mockmodel"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/safetext"
)

// RunTimeout bounds one headless client run.
const RunTimeout = 5 * time.Minute

// Workspace is a throw-away git repository governed by the real intenthook
// binary (scaffolded by `intenthook init --agent NAME`, as a user would),
// with a HOME of its own that the client's settings and sessions go to.
type Workspace struct {
	Root, Home string
	tmp        string
	intenthook string
	path       string // PATH with the intenthook binaries first
	runs       int
}

// NewWorkspace makes the repository and runs init for agent. The directory
// of intenthook must also hold intenthook-full and intenthook-mcp (make build
// puts all three in bin/).
func NewWorkspace(intenthook, agent string) (*Workspace, error) {
	tmp, err := os.MkdirTemp("", "e2e-"+agent+"-")
	if err != nil {
		return nil, err
	}
	w := &Workspace{Root: filepath.Join(tmp, "proj"), Home: filepath.Join(tmp, "home"), tmp: tmp, intenthook: intenthook,
		path: filepath.Dir(intenthook) + string(os.PathListSeparator) + os.Getenv("PATH")}
	// Codex runs shell commands in a login shell, which takes PATH from
	// /etc/profile: intenthook must be on the PATH a login shell builds,
	// as it is for a user who installed it.
	profile := fmt.Sprintf("PATH=%q:\"$PATH\"\n", filepath.Dir(intenthook))
	if err := writeFile(filepath.Join(w.Home, ".profile"), []byte(profile)); err != nil {
		w.Close()
		return nil, err
	}
	if out, err := w.command(tmp, "git", "init", "-q", w.Root).CombinedOutput(); err != nil {
		w.Close()
		return nil, fmt.Errorf("git init: %v: %s", err, out)
	}
	if out, err := w.Person("init", "--agent", agent); err != nil {
		w.Close()
		return nil, fmt.Errorf("intenthook init --agent %s: %v: %s", agent, err, out)
	}
	return w, nil
}

// Close stops what the clients left running in the workspace (Cline's hub
// daemon outlives the cline process) and removes the workspace, unless
// INTENTHOOK_E2E_KEEP is set (then it says where it is, with each run's
// requests to the model in requests-N.json).
func (w *Workspace) Close() {
	for _, pid := range leftBehind(w.Home) {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
	if os.Getenv("INTENTHOOK_E2E_KEEP") != "" {
		fmt.Fprintln(os.Stderr, "e2e: kept", w.tmp)
		return
	}
	_ = os.RemoveAll(w.tmp)
}

// leftBehind lists the processes whose environment has HOME=home: every
// process a client of this workspace started and left running (no
// process group catches a daemon that starts its own session). It reads
// /proc, so elsewhere it finds none.
func leftBehind(home string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	want := []byte("HOME=" + home + "\x00")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && (bytes.HasPrefix(env, want) || bytes.Contains(env, append([]byte{0}, want...))) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// command runs in dir with the workspace's PATH and HOME and the caller's
// environment otherwise.
func (w *Workspace) command(dir, name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Dir, c.Env = dir, append(inDir(os.Environ(), dir), "PATH="+w.path, "HOME="+w.Home)
	return c
}

// Person runs intenthook as a person would, in the workspace.
func (w *Workspace) Person(args ...string) ([]byte, error) {
	return w.command(w.Root, w.intenthook, args...).CombinedOutput()
}

// PersonElsewhere runs intenthook as a person at a terminal of their own
// would, while a headless client runs: in a kernel session of its own
// (setsid), not the run's, whose processes count as the client's.
func (w *Workspace) PersonElsewhere(args ...string) ([]byte, error) {
	return w.command(w.Root, "setsid", append([]string{"-w", w.intenthook}, args...)...).CombinedOutput()
}

// Session is what one headless run left behind.
type Session struct {
	Output   []byte              // the client's stdout and stderr
	Err      error               // the client's exit, or its set-up
	Requests []mockmodel.Request // what the client sent the model
}

// Saw reports whether any request to the model contained text.
func (s Session) Saw(text string) bool {
	for _, r := range s.Requests {
		if strings.Contains(r.Body, text) {
			return true
		}
	}
	return false
}

// Run runs the client once, headless, in the workspace, against a fresh
// mock model playing turns.
func (w *Workspace) Run(c Client, cache string, turns []mockmodel.Turn) Session {
	return w.RunWith(c, cache, turns)
}

// RunWith is Run with args after the client's own (Claude Code's
// --add-dir DIR).
func (w *Workspace) RunWith(c Client, cache string, turns []mockmodel.Turn, args ...string) Session {
	return w.play(c, turns, func(srv *mockmodel.Server) ([]byte, error) {
		return c.Run(c.Bin(cache), w.Root, w.Home, w.path, srv.URL, args...)
	})
}

// Outside makes the directory name beside the repository, in the
// workspace's temporary tree: outside the governed root, removed with it.
func (w *Workspace) Outside(name string) (string, error) {
	dir := filepath.Join(w.tmp, name)
	return dir, os.MkdirAll(dir, 0o755)
}

// Resume continues the session the client saved last in the workspace,
// headless, against a fresh mock model playing turns; ID is that session's
// id. A client the harness cannot resume gives an error.
func (w *Workspace) Resume(c Client, cache string, turns []mockmodel.Turn) (id string, s Session) {
	if c.resume == nil {
		return "", Session{Err: fmt.Errorf("%s: the harness does not resume its sessions", c.Name)}
	}
	id, err := c.lastSession(w.Home)
	if err != nil {
		return "", Session{Err: err}
	}
	return id, w.play(c, turns, func(srv *mockmodel.Server) ([]byte, error) {
		return c.inTerminal(c.resume(c.Bin(cache), id, ""), w.Root, w.Home, w.path, srv, len(turns), "go on with the scripted task")
	})
}

// play runs the client through run against a fresh mock model playing turns.
func (w *Workspace) play(c Client, turns []mockmodel.Turn, run func(srv *mockmodel.Server) ([]byte, error)) Session {
	srv := mockmodel.New(turns)
	defer srv.Close()
	out, err := run(srv)
	s := Session{Output: out, Err: err, Requests: srv.Requests()}
	if os.Getenv("INTENTHOOK_E2E_KEEP") != "" {
		w.runs++
		b, _ := json.MarshalIndent(s.Requests, "", "  ")
		_ = os.WriteFile(filepath.Join(w.tmp, fmt.Sprintf("requests-%d.json", w.runs)), b, 0o644)
		_ = os.WriteFile(filepath.Join(w.tmp, fmt.Sprintf("output-%d.txt", w.runs)), out, 0o644)
	}
	return s
}

// Run runs the client's executable bin once, headless, in dir, with HOME
// home and PATH path, against the model at url, after writing the user
// settings that point it there, args after its own. It returns the
// client's output.
func (c Client) Run(bin, dir, home, path, url string, args ...string) ([]byte, error) {
	return c.exec(append(c.argv(bin, "do the scripted task"), args...), dir, home, path, url)
}

// exec runs argv as Run runs the client.
func (c Client) exec(argv []string, dir, home, path, url string) ([]byte, error) {
	if err := c.configure(home, dir, url); err != nil {
		return nil, fmt.Errorf("configure %s: %w", c.Name, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(inDir(os.Environ(), dir), "PATH="+path)
	cmd.Env = append(cmd.Env, c.env(home, url)...)
	out, err := cmd.CombinedOutput()
	if os.Getenv("INTENTHOOK_E2E_VERBOSE") != "" {
		fmt.Fprintf(os.Stderr, "--- %s output:\n%s\n", c.Name, out)
	}
	if err != nil {
		err = fmt.Errorf("%s: %v: %s", c.Name, err, lastLines(out, 3))
	}
	return out, err
}

// lastLines is the end of a client's output, for a one-line reason.
func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	s := strings.Join(lines, " | ")
	return safetext.Clip(s, 300+len(safetext.Ellipsis))
}

// inTerminal runs argv as Run runs the client, but in a terminal (script(1)
// makes one), for a client that takes a resumed session only in its
// interactive interface: once its screen shows c.ready, prompt is typed and
// sent; once the model has played its turns and the client has been quiet
// for a while, it is interrupted.
func (c Client) inTerminal(argv []string, dir, home, path string, srv *mockmodel.Server, turns int, prompt string) ([]byte, error) {
	if err := c.configure(home, dir, srv.URL); err != nil {
		return nil, fmt.Errorf("configure %s: %w", c.Name, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "script", "-q", "-e", "-f", "-c", shellQuote(argv), "/dev/null")
	cmd.Dir = dir
	cmd.Env = append(inDir(os.Environ(), dir), "PATH="+path, "TERM=xterm-256color", "COLUMNS=120", "LINES=40")
	cmd.Env = append(cmd.Env, c.env(home, srv.URL)...)
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	drive := func() error {
		quiet := func(d time.Duration) bool {
			n, seen := out.Len(), len(srv.Requests())
			select {
			case <-time.After(d):
				return out.Len() == n && len(srv.Requests()) == seen
			case <-ctx.Done():
				return true
			}
		}
		for !bytes.Contains(out.Bytes(), []byte(c.ready)) || !quiet(2*time.Second) {
			if ctx.Err() != nil {
				return fmt.Errorf("no %q on its screen", c.ready)
			}
			time.Sleep(500 * time.Millisecond)
		}
		for _, r := range prompt + "\r" {
			if _, err := io.WriteString(in, string(r)); err != nil {
				return err
			}
			time.Sleep(20 * time.Millisecond)
		}
		// Played, or stopped short (a task a hook file cancelled): no
		// request for long.
		for last, since := len(srv.Requests()), time.Now(); ; {
			switch n := len(srv.Requests()); {
			case ctx.Err() != nil:
				return ctx.Err()
			case n >= turns && quiet(5*time.Second), time.Since(since) > 30*time.Second:
				return nil
			case n != last:
				last, since = n, time.Now()
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	derr := drive()
	_, _ = io.WriteString(in, "\x03")
	time.Sleep(time.Second)
	_, _ = io.WriteString(in, "\x03")
	_ = in.Close()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
	b := out.Bytes()
	if os.Getenv("INTENTHOOK_E2E_VERBOSE") != "" {
		fmt.Fprintf(os.Stderr, "--- %s output:\n%s\n", c.Name, b)
	}
	if derr != nil {
		return b, fmt.Errorf("%s: %v: %s", c.Name, derr, lastLines(b, 3))
	}
	return b, nil
}

// shellQuote is argv as one sh command line.
func shellQuote(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// lockedBuffer is a buffer one goroutine writes while another reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]byte(nil), l.b.Bytes()...)
}

// Records reads the workspace's ledger.
func (w *Workspace) Records() ([]ledger.Record, error) {
	var recs []ledger.Record
	err := ledger.Scan(w.Root, func(_ []byte, rec *ledger.Record, err error) error {
		if err != nil {
			return err
		}
		recs = append(recs, *rec)
		return nil
	})
	return recs, err
}

// Written finds the ledger record of a successful write to rel (a
// root-relative path) and returns it, or nil.
func Written(recs []ledger.Record, rel string) *ledger.Record {
	for i := len(recs) - 1; i >= 0; i-- {
		m := recs[i].Metadata.Intenthook
		if !m.Success || m.Event != ledger.EventPostToolUse {
			continue
		}
		for _, f := range recs[i].Files {
			if f.Path == rel {
				return &recs[i]
			}
		}
	}
	return nil
}

// ClientKnows reports whether the client's own files under HOME (its
// sessions, transcripts, logs) name id, in a file name or in a file: the
// proof that a session id in the ledger is the client's, not one made up.
func (w *Workspace) ClientKnows(id string) bool {
	if id == "" {
		return false
	}
	needle := []byte(id)
	found := errors.New("found")
	err := filepath.WalkDir(w.Home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if strings.Contains(d.Name(), id) {
			return found
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 8<<20 {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, needle) {
			return found
		}
		return nil
	})
	return errors.Is(err, found)
}

// ReadFile is a workspace file's content ("" when it cannot be read) and
// whether it exists.
func (w *Workspace) ReadFile(rel string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(w.Root, filepath.FromSlash(rel)))
	return string(b), err == nil
}

// Abs is the absolute path of a root-relative path.
func (w *Workspace) Abs(rel string) string { return filepath.Join(w.Root, filepath.FromSlash(rel)) }

// Decode reads a JSON value from the workspace, for scenario checks.
func (w *Workspace) Decode(rel string, v any) error {
	b, err := os.ReadFile(w.Abs(rel))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
