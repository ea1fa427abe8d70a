package precommit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/state"
)

// CodeLedgerRewritten is the finding of a staged ledger that does not keep
// every line HEAD's ledger has.
const CodeLedgerRewritten = "ledger_rewritten"

// extendsCache remembers, under state/precommit/, the last staged ledger
// found to extend HEAD's: its blob, size and the digest of its last line.
// Once committed it is HEAD's ledger, and the next check only looks at the
// staged ledger's bytes where HEAD's ended (the hash chain pins everything
// before that line).
type extendsCache struct {
	Blobs []knownBlob `json:"blobs"` // the newest last, a few kept
}

// knownBlob is a staged ledger that passed: its size and the digest of its
// last line.
type knownBlob struct {
	Blob string `json:"blob"`
	Head string `json:"head"` // the HEAD ledger blob it was checked against
	Size int64  `json:"size"`
	Last string `json:"last"` // sha256 hex of the line ending at Size
}

// keepBlobs is how many passed ledgers are remembered: HEAD's, and the one
// staged now, checked again when the commit is retried.
const keepBlobs = 4

func (c *extendsCache) find(blob string) (knownBlob, bool) {
	for _, b := range c.Blobs {
		if b.Blob == blob {
			return b, true
		}
	}
	return knownBlob{}, false
}

func extendsPath(root string) string { return state.Path(root, "precommit", "extends.json") }

// checkExtends makes sure the staged ledger keeps every line of HEAD's, in
// order (lines may be added, by appends or by a union merge): a commit
// cannot drop or rewrite committed history. Cheap when the previous check
// remembered HEAD's ledger (one git rev-parse, one git diff --quiet, a read
// of one line); else one git diff of the two blobs, whose output is only
// what changed.
func checkExtends(ctx context.Context, g *git.Repo, rp git.Paths, gitPath, root string) []Finding {
	out, err := g.Output(ctx, "rev-parse", "-q", "--verify", "HEAD:"+gitPath)
	head := strings.TrimSpace(string(out))
	if err != nil || head == "" {
		return nil // no ledger committed yet: nothing to keep
	}
	out, err = g.Output(ctx, "rev-parse", "-q", "--verify", ":0:"+gitPath)
	staged := strings.TrimSpace(string(out))
	if err != nil || staged == "" {
		if splitKeeps(ctx, g, rp, head) {
			return nil // moved into the parts of a split, byte for byte
		}
		return []Finding{{Error, CodeLedgerRewritten, ledger.FileName, "the commit deletes the ledger HEAD has: its history must stay (intenthook ledger split moves it into smaller files)"}}
	}
	if staged == head {
		return nil
	}
	file := filepath.Join(root, filepath.FromSlash(ledger.FileName))
	// The working file is the staged blob when git sees no change between
	// them (a stat comparison): then its bytes can be read at any offset.
	_, dirty := g.Output(ctx, git.ByteDiff("diff", "--quiet", "--", gitPath)...)
	worktreeIsStaged := dirty == nil
	var c extendsCache
	fast := false
	if data, err := os.ReadFile(extendsPath(root)); err == nil && json.Unmarshal(data, &c) == nil && worktreeIsStaged {
		if b, ok := c.find(staged); ok && b.Head == head {
			return nil // this staged ledger passed against this HEAD already
		}
		if known, ok := c.find(head); ok {
			last, ok := lastLineDigest(root, known.Size)
			fast = ok && last == known.Last
		}
	}
	// Not known, or HEAD's last line is not where HEAD's ledger ended (a
	// union merge may put the other branch's lines first): git compares.
	if !fast {
		diff, err := g.Output(ctx, git.ByteDiff("diff", "--cached", "-U0", "HEAD", "--", gitPath)...)
		if err != nil {
			return []Finding{{Error, CodeLedgerRewritten, ledger.FileName, "cannot compare the staged ledger with HEAD's: " + err.Error()}}
		}
		if n, removed := git.FirstRemoved(diff); removed {
			return []Finding{{Error, CodeLedgerRewritten, ledger.FileName, fmt.Sprintf("line %d of HEAD's ledger is removed or rewritten in the staged one: the ledger only grows (restore it: git checkout HEAD -- %s, then append)", n, ledger.FileName)}}
		}
	}
	// Remember the staged ledger: after the commit it is HEAD's.
	if worktreeIsStaged {
		if st, err := os.Stat(file); err == nil {
			if last, ok := lastLineDigest(root, st.Size()); ok && state.Ensure(root, "precommit") == nil {
				c.Blobs = append(c.Blobs, knownBlob{Blob: staged, Head: head, Size: st.Size(), Last: last})
				c.Blobs = c.Blobs[max(len(c.Blobs)-keepBlobs, 0):]
				data, _ := json.Marshal(c)
				writeCache(root, extendsPath(root), data)
			}
		}
	}
	return nil
}

// lastLineDigest returns the sha256 of the legacy ledger's line whose
// newline is the byte before end.
func lastLineDigest(root string, end int64) (string, bool) {
	line, ok, err := ledger.LineBefore(root, ledger.FileName, end)
	if err != nil || !ok {
		return "", false
	}
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:]), true
}
