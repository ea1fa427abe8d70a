package remoteclaims

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/intenthook/intenthook/internal/guard"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
)

// RecordsDir is where, under a work tree's state/, its sessions' records
// of their claims on the remote lie, one file per intent.
const RecordsDir = "remote-claims"

// Records are a work tree's records of the claims its sessions took on
// the remote. They say what this work tree did, for a hook call's renewal
// and for status; nothing about another machine's claim is read from
// them: that is always read from the remote. Each write is journaled: a
// change an agent's command makes is put back (the governance row).
type Records struct{ Root string }

// RecordsOf returns the records of the work tree whose workspace root is
// root.
func RecordsOf(root string) Records { return Records{Root: root} }

func (rs Records) dir() string { return state.Path(rs.Root, RecordsDir) }

func (rs Records) path(intent string) string {
	return filepath.Join(rs.dir(), "claim."+RefKey(intent)+".json")
}

func (rs Records) rel(intent string) string {
	return filepath.ToSlash(filepath.Join(state.StateDir, RecordsDir, "claim."+RefKey(intent)+".json"))
}

// Get reads the record of intent; nil when there is none.
func (rs Records) Get(intent string) *Record {
	if rs.Root == "" {
		return nil
	}
	data, err := osfile.ReadFile(rs.path(intent))
	if err != nil {
		return nil
	}
	var r Record
	if json.Unmarshal(data, &r) != nil || r.Claim.Intent != intent {
		return nil
	}
	return &r
}

// Put writes rec.
func (rs Records) Put(rec Record) error {
	if err := state.Ensure(rs.Root, RecordsDir); err != nil {
		return fmt.Errorf("claim record: %w", err)
	}
	data, _ := json.Marshal(rec)
	guard.Journal(rs.Root, rs.rel(rec.Claim.Intent), data)
	if err := state.WriteFile(rs.path(rec.Claim.Intent), data, 0o644, false); err != nil {
		return fmt.Errorf("claim record: %w", err)
	}
	return nil
}

// Drop removes the record of intent.
func (rs Records) Drop(intent string) error {
	err := os.Remove(rs.path(intent))
	if err == nil {
		guard.JournalRemoved(rs.Root, rs.rel(intent))
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("claim record: %w", err)
	}
	return nil
}

// All lists the records, by intent.
func (rs Records) All() []Record {
	entries, _ := os.ReadDir(rs.dir())
	var out []Record
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, "claim.") || !strings.HasSuffix(name, ".json") {
			continue
		}
		data, err := osfile.ReadFile(filepath.Join(rs.dir(), name))
		var r Record
		if err != nil || json.Unmarshal(data, &r) != nil || r.Claim.Intent == "" || rs.path(r.Claim.Intent) != filepath.Join(rs.dir(), name) {
			continue
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Claim.Intent < out[j].Claim.Intent })
	return out
}
