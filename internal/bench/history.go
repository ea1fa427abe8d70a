package bench

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// History makes ws a packed git repository for the commit-time workloads:
// a Workspace of records ledger records committed on main, then commits
// more commits, each an edit in scope traced by one record appended to the
// ledger (what a session's commits are). They are written with git
// fast-import, which stores each ledger as a delta of the one before, as a
// repacked repository would.
func History(ws string, records, commits int) error {
	if err := Workspace(ws, 200, records); err != nil {
		return err
	}
	for name, content := range map[string]string{
		".gitignore":     ".orchestration/state/\n",
		".gitattributes": ".orchestration/agent_trace.jsonl merge=union\n",
	} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	if err := GitIn(ws, nil, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	if err := GitIn(ws, nil, "add", "-A"); err != nil {
		return err
	}
	if err := GitIn(ws, nil, "commit", "-qm", "base"); err != nil {
		return err
	}
	if commits == 0 {
		return nil
	}
	ledgerPath := filepath.Join(ws, ".orchestration", "agent_trace.jsonl")
	prev, err := lastDigest(ledgerPath)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(ledgerPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	// fast-import reads the stream from a pipe: each commit's ledger is the
	// whole file so far.
	pr, pw := io.Pipe()
	imp := exec.Command("git", "fast-import", "--quiet", "--force")
	imp.Dir, imp.Stdin = ws, pr
	imp.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null")
	imp.Stderr = os.Stderr
	if err := imp.Start(); err != nil {
		return err
	}
	werr := make(chan error, 1)
	go func() {
		werr <- writeCommits(pw, f, ledgerPath, ws, records, commits, prev)
	}()
	if err := <-werr; err != nil {
		pw.CloseWithError(err)
		imp.Wait()
		return err
	}
	if err := imp.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %w", err)
	}
	// The work tree follows main, as after a pull.
	return GitIn(ws, nil, "reset", "-q", "--hard", "main")
}

// writeCommits streams commits to fast-import, appending each one's record
// to the ledger file as it goes.
func writeCommits(pw *io.PipeWriter, f *os.File, ledgerPath, ws string, records, commits int, prev string) error {
	w := bufio.NewWriterSize(pw, 1<<20)
	for i := 1; i <= commits; i++ {
		mod := i%100 + 1 // src/mod1..100: owned by INT-101..200
		content := fmt.Sprintf("package mod%d // commit %d\n", mod, i)
		sum := sha256.Sum256([]byte(content))
		var line string
		line, prev = ledgerLine(records+i, prev, mod, `"sha256:`+hex.EncodeToString(sum[:])+`"`)
		if _, err := f.WriteString(line + "\n"); err != nil {
			return err
		}
		ledger, err := os.ReadFile(ledgerPath)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "commit refs/heads/main\ncommitter Bench <bench@example.com> %d +0000\ndata 0\n", 1_700_000_000+i)
		if i == 1 {
			fmt.Fprintf(w, "from refs/heads/main^0\n")
		}
		fmt.Fprintf(w, "M 100644 inline src/mod%d/file.go\ndata %d\n%s\n", mod, len(content), content)
		fmt.Fprintf(w, "M 100644 inline .orchestration/agent_trace.jsonl\ndata %d\n", len(ledger))
		w.Write(ledger)
		w.WriteString("\n")
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return pw.Close()
}

// lastDigest returns the quoted digest of the ledger's last line.
func lastDigest(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if len(data) == 0 {
		return "null", nil
	}
	data = data[:len(data)-1]
	start := 0
	for i := len(data) - 1; i >= 0; i-- {
		if data[i] == '\n' {
			start = i + 1
			break
		}
	}
	sum := sha256.Sum256(data[start:])
	return `"sha256:` + hex.EncodeToString(sum[:]) + `"`, nil
}

// GitIn runs git args in dir with a bench identity.
func GitIn(dir string, env []string, args ...string) error {
	cmd := exec.Command("git", append([]string{"-c", "user.email=bench@example.com", "-c", "user.name=Bench"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %v: %v: %s", args, err, out)
	}
	return nil
}
