package workspace

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/osfile"
)

// SecondNames lists the governance files of t under root that have more
// than one name (a link count above 1): a hard link elsewhere (src/x) is a
// name no row protects, through which a program can write the file later.
// A command that makes one is put back by the guard; one found outside a
// command is for precommit and doctor to warn about. Rows that are one
// file, and the files directly in a "dir/**" row's directory, are looked
// at (not the ledger's segments, two levels down); git's own files are not (git makes no second names, and .git/**
// would be a walk of the history), nor node_modules' (pnpm links every
// package file from its store; the programs the hooks run are pictured by
// their inode). Nothing is found where link counts are not known
// (Windows).
func SecondNames(root string, t governed.Table) []string {
	var out []string
	seen := map[string]bool{}
	look := func(rel string) {
		if seen[rel] {
			return
		}
		seen[rel] = true
		st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		if err == nil && st.Mode().IsRegular() && osfile.Links(st) > 1 {
			out = append(out, rel)
		}
	}
	for _, f := range t {
		if f.Use&(governed.Protected|governed.Guarded) == 0 || strings.HasPrefix(f.Path, ".git/") || strings.HasPrefix(f.Path, "**") || strings.HasPrefix(f.Path, "node_modules/") {
			continue
		}
		if dir, ok := strings.CutSuffix(f.Path, "/**"); ok && !strings.ContainsAny(dir, "*?[") {
			entries, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
			for _, e := range entries {
				if e.Type().IsRegular() {
					look(dir + "/" + e.Name())
				}
			}
			continue
		}
		if !strings.ContainsAny(f.Path, "*?[") {
			look(f.Path)
		}
	}
	return out
}
