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

	"github.com/intenthook/intenthook/internal/ledger"
)

// History makes ws a packed git repository for the commit-time workloads:
// a Workspace of records ledger records (in segments) committed on main,
// then commits more commits, each an edit in scope traced by one record in
// a new segment (HEAD moved: the writer's segment before it is sealed), as
// a session's commits are. They are written with git fast-import.
func History(ws string, records, commits int) error {
	if err := Workspace(ws, 200, records); err != nil {
		return err
	}
	for name, content := range map[string]string{
		".gitignore":     ".orchestration/state/\n",
		".gitattributes": ".orchestration/** -text\n",
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
	if records > 0 {
		// The work tree is the writer of the segments, on main at HEAD.
		if err := ledger.Continue(ws, Writer); err != nil {
			return err
		}
	}
	if commits == 0 {
		return nil
	}
	segs := (records + SegmentRecords - 1) / SegmentRecords
	prev := "null"
	if segs > 0 {
		var err error
		if prev, err = lastDigest(segmentPath(ws, segs)); err != nil {
			return err
		}
	}
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
		werr <- writeCommits(pw, ws, records, segs, commits, prev)
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

// writeCommits streams commits to fast-import, each adding a segment of
// one record chained to the record before.
func writeCommits(pw *io.PipeWriter, ws string, records, segs, commits int, prev string) error {
	w := bufio.NewWriterSize(pw, 1<<20)
	for i := 1; i <= commits; i++ {
		mod := i%100 + 1 // src/mod1..100: owned by INT-101..200
		content := fmt.Sprintf("package mod%d // commit %d\n", mod, i)
		sum := sha256.Sum256([]byte(content))
		var line string
		line, prev = ledgerLine(records+i, prev, mod, `"sha256:`+hex.EncodeToString(sum[:])+`"`)
		rel, _ := filepath.Rel(ws, segmentPath(ws, segs+i))
		fmt.Fprintf(w, "commit refs/heads/main\ncommitter Bench <bench@example.com> %d +0000\ndata 0\n", 1_700_000_000+i)
		if i == 1 {
			fmt.Fprintf(w, "from refs/heads/main^0\n")
		}
		fmt.Fprintf(w, "M 100644 inline src/mod%d/file.go\ndata %d\n%s\n", mod, len(content), content)
		fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s\n\n", filepath.ToSlash(rel), len(line)+1, line)
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
