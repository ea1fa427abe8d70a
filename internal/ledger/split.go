package ledger

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
)

// LegacyDir holds the legacy file's lines once `ledger split` moved them
// into parts under the size git and hosts handle well: <nnnnnn>.jsonl, in
// order. The parts, then the legacy file if an older version wrote it
// again, are read as one legacy file (its rules, forks accepted).
const LegacyDir = SegmentDir + "/legacy"

// IsLegacyPart reports whether rel names a part of a split legacy file.
func IsLegacyPart(rel string) bool {
	name, ok := strings.CutPrefix(rel, LegacyDir+"/")
	if !ok || len(name) != len("000001.jsonl") || !strings.HasSuffix(name, ".jsonl") {
		return false
	}
	return strings.Trim(name[:6], "0123456789") == "" && name[:6] != "000000"
}

// legacyParts lists the parts of a split legacy file, in order.
func legacyParts(root string) []string {
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(LegacyDir)))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if rel := path.Join(LegacyDir, e.Name()); IsLegacyPart(rel) && e.Type().IsRegular() {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return out
}

// legacyFiles lists what the legacy ledger is read from, in order: the
// parts of a split, then the legacy file.
func legacyFiles(root string) []string {
	out := legacyParts(root)
	if _, err := os.Lstat(ledgerPath(root)); err == nil {
		out = append(out, FileName)
	}
	return out
}

// openLegacy opens the legacy ledger as one stream; closing it closes
// every file. A ledger with no legacy file is fs.ErrNotExist.
func openLegacy(root string) (io.ReadCloser, error) {
	files := legacyFiles(root)
	if len(files) == 0 {
		return nil, fs.ErrNotExist
	}
	var rs []io.Reader
	var cs multiCloser
	for _, rel := range files {
		f, err := osfile.Open(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			cs.Close()
			return nil, err
		}
		rs = append(rs, f)
		cs = append(cs, f)
	}
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(rs...), cs}, nil
}

type multiCloser []io.Closer

func (m multiCloser) Close() error {
	var errs []error
	for _, c := range m {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// lastLegacy is the file the legacy ledger ends in ("" when none).
func lastLegacy(root string) string {
	files := legacyFiles(root)
	if len(files) == 0 {
		return ""
	}
	return files[len(files)-1]
}

// Split moves the legacy file's lines, byte for byte and in order, into
// parts of at most maxBytes under LegacyDir (a line longer than that has a
// part of its own), then removes the file; it returns the parts written.
// The parts read back as the same legacy ledger: every hash and published
// checkpoint holds. A torn last line is refused: verify and repair first.
func Split(ctx context.Context, root string, maxBytes int64, lockTimeout time.Duration) ([]string, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultSegmentBytes
	}
	if lockTimeout <= 0 {
		lockTimeout = DefaultLockTimeout
	}
	unlock, err := state.Lock(ctx, root, state.LockLedger, lockTimeout)
	if err != nil {
		return nil, fmt.Errorf("split ledger: %w", err)
	}
	defer unlock()
	data, err := os.ReadFile(ledgerPath(root))
	if err != nil {
		return nil, fmt.Errorf("split ledger: %w", err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		return nil, fmt.Errorf("split ledger: %s ends in a torn line: run intenthook ledger verify, and let the next hook repair it first", FileName)
	}
	next := len(legacyParts(root)) + 1
	var parts []string
	for len(data) > 0 {
		n := 0
		for n < len(data) {
			i := bytes.IndexByte(data[n:], '\n')
			if n > 0 && int64(n+i+1) > maxBytes {
				break
			}
			n += i + 1
		}
		rel := fmt.Sprintf("%s/%06d.jsonl", LegacyDir, next)
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return parts, err
		}
		f, err := os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return parts, fmt.Errorf("split ledger: %w", err)
		}
		_, err = f.Write(data[:n])
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return parts, fmt.Errorf("split ledger: %w", err)
		}
		parts = append(parts, rel)
		data = data[n:]
		next++
	}
	return parts, os.Remove(ledgerPath(root))
}
