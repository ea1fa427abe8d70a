package precommit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/intenthook/intenthook/internal/git"
)

// CodeLedgerUnstaged is the finding of a staged ledger file that is not
// the work tree's (nor the work tree's before the hooks appended to it):
// what precommit verifies and indexes is the work tree's ledger, so the
// commit must hold that.
const CodeLedgerUnstaged = "ledger_unstaged"

// ledgerFile is a staged ledger file: its path in git and in the
// workspace.
type ledgerFile struct{ gitPath, rel string }

// checkStaged makes sure the staged content of each ledger file is the
// work tree's, or a prefix of it ending at a line (records the hooks
// appended since it was staged). A ledger staged by plumbing (git
// hash-object -w, git update-index --cacheinfo) with lines the work tree
// lacks would otherwise be committed unverified. One git process asks
// which of them differ (git's stat comparison, hashing only a file whose
// stat does not match its index entry); only those are compared byte by
// byte with the file's start.
func checkStaged(ctx context.Context, g *git.Repo, files []ledgerFile, root string) []Finding {
	if len(files) == 0 {
		return nil
	}
	args := []string{"--name-only", "-z", "--"}
	for _, f := range files {
		args = append(args, f.gitPath)
	}
	out, err := g.Output(ctx, git.ByteDiff("diff", args...)...)
	if err != nil {
		return []Finding{{Error, CodeLedgerUnstaged, files[0].rel, "cannot compare the staged ledger with the work tree's: " + err.Error()}}
	}
	differ := git.NulList(out)
	var fs []Finding
	for _, f := range files {
		if slices.Contains(differ, f.gitPath) {
			fs = append(fs, checkPrefix(ctx, g, f.gitPath, f.rel, root)...)
		}
	}
	return fs
}

// checkPrefix compares one staged ledger file with the work tree's.
func checkPrefix(ctx context.Context, g *git.Repo, gitPath, rel, root string) []Finding {
	unstaged := func(why string) []Finding {
		return []Finding{{Error, CodeLedgerUnstaged, rel, why + ": stage the ledger the hooks wrote (git add " + rel + ")"}}
	}
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return unstaged("the commit stages a ledger file the work tree does not have")
	}
	if err != nil {
		return unstaged("cannot read the work tree's ledger: " + err.Error())
	}
	defer f.Close()
	var problem string
	err = g.ReadObjects(ctx, []string{":0:" + gitPath}, func(_ int, obj *git.Object) error {
		if obj == nil {
			return nil // a deletion: checkExtends judges it
		}
		problem = prefixProblem(obj.Body, bufio.NewReader(f))
		return nil
	})
	if err != nil {
		return unstaged("cannot read the staged ledger: " + err.Error())
	}
	if problem != "" {
		return unstaged(problem)
	}
	return nil
}

// prefixProblem says how staged is not a prefix of work ending at a line
// end, or "" when it is.
func prefixProblem(staged io.Reader, work io.Reader) string {
	a, b := make([]byte, 64<<10), make([]byte, 64<<10)
	var at int64
	var last byte = '\n'
	for {
		n, err := io.ReadFull(staged, a)
		if n > 0 {
			m, _ := io.ReadFull(work, b[:n])
			if m < n || !bytes.Equal(a[:n], b[:n]) {
				k := int64(0)
				for k < int64(min(m, n)) && a[k] == b[k] {
					k++
				}
				return fmt.Sprintf("the staged ledger differs from the work tree's at byte %d", at+k)
			}
			at += int64(n)
			last = a[n-1]
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return "cannot read the staged ledger: " + err.Error()
		}
	}
	if last != '\n' {
		return "the staged ledger ends inside a line of the work tree's"
	}
	return ""
}
