package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/intenthook/intenthook/internal/config"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/governed"
	"github.com/intenthook/intenthook/internal/intents"
	"github.com/intenthook/intenthook/internal/ledger"
	"github.com/intenthook/intenthook/internal/state"
)

// ErrNotGoverned is the answer of Locate where no governed workspace is.
var ErrNotGoverned = errors.New("no governed workspace")

// notGoverned says where no governed workspace was found; it is an
// ErrNotGoverned.
type notGoverned string

func (e notGoverned) Error() string      { return string(e) }
func (notGoverned) Is(target error) bool { return target == ErrNotGoverned }

// Workspace is one governed workspace as every command sees it: its root,
// settings, catalog, protected paths, ignore file and state. Hooks load it
// once per call; people's commands load it once per command.
type Workspace struct {
	Root string
	// Governance is the governance table the workspace was loaded with
	// (Governance), set even when loading failed: its protected paths,
	// the guard's watch list, its sidecars.
	Governance governed.Table
	Config     *config.Config
	Catalog    *intents.Catalog
	Protected  *Protected
	Ignore     *Ignore
	Sessions   state.Sessions
	Getenv     func(string) string
	Now        func() time.Time
	// Warnings are what failed to load without switching governance off
	// (a bad protected glob, an unreadable .intentignore).
	Warnings []error

	defaultID *string
	rev       *string
	claims    *state.Claims
}

// Claims returns the repository's claims (state.Claims), its common git
// directory resolved on the first call: only selections, resumes and
// people's commands ask, so a hook call that does not select reads
// nothing for it.
func (w *Workspace) Claims() state.Claims {
	if w.claims == nil {
		c := state.RepoClaims(w.Root)
		w.claims = &c
	}
	return *w.claims
}

// Locate applies the root rule of every command a person runs: an explicit
// --root names the workspace root itself, and it must be governed (it is
// never replaced by the working directory's workspace, nor by one above it);
// without --root, the working directory is walked up to the nearest governed
// root.
func Locate(flagRoot, wd string) (string, error) {
	if flagRoot != "" {
		abs, err := filepath.Abs(flagRoot)
		if err != nil {
			return "", err
		}
		if !IsRoot(abs) {
			return "", notGoverned(fmt.Sprintf("--root %s is not a governed workspace: no %s there", flagRoot, Marker))
		}
		return abs, nil
	}
	if root := FindRoot(wd); root != "" {
		return root, nil
	}
	return "", notGoverned(fmt.Sprintf("no %s in %s or above", Marker, wd))
}

// Load reads the workspace at root, governed by governance (Governance).
// On an error the returned Workspace still carries Config when it could be
// read, so that the fail mode is known.
func Load(root string, governance governed.Table, getenv func(string) string, now func() time.Time) (*Workspace, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if now == nil {
		now = time.Now
	}
	w := &Workspace{Root: root, Governance: governance, Getenv: getenv, Now: now}
	cfg, err := config.Load(root, getenv)
	w.Config = cfg
	if err != nil {
		return w, err
	}
	if w.Catalog, err = intents.LoadCached(root, filepath.Join(root, filepath.FromSlash(intents.File))); err != nil {
		return w, err
	}
	// A bad extra protected glob or an unreadable .intentignore must not
	// switch governance off: the rest applies, and the user is told.
	if w.Protected, err = NewProtected(governance, cfg.ProtectGovernanceFiles, cfg.ProtectedPaths); err != nil {
		w.Warnings = append(w.Warnings, err)
	}
	if w.Ignore, err = LoadIgnore(root); err != nil {
		w.Warnings = append(w.Warnings, err)
	}
	w.Sessions = state.Sessions{Root: root, Timeout: cfg.LockTimeout}
	return w, nil
}

// Budget is the cap on every string handed to an agent.
func (w *Workspace) Budget() int {
	if w == nil || w.Config == nil || w.Config.ContextBudgetBytes <= 0 {
		return config.Default().ContextBudgetBytes
	}
	return w.Config.ContextBudgetBytes
}

// Default returns the workspace default intent (state/default.json), read
// once.
func (w *Workspace) Default() string {
	if w.defaultID == nil {
		id := state.ReadDefault(w.Root)
		w.defaultID = &id
	}
	return *w.defaultID
}

// SetDefault makes id the workspace default ("" clears it).
func (w *Workspace) SetDefault(id string) error {
	if err := state.WriteDefault(w.Root, id, w.Now()); err != nil {
		return err
	}
	w.defaultID = &id
	return nil
}

// Revision is the git commit records name, read once, without running git.
func (w *Workspace) Revision() string {
	if w.rev == nil {
		rev := git.Revision(w.Root)
		w.rev = &rev
	}
	return *w.rev
}

// Resolver resolves paths named from cwd against the root.
func (w *Workspace) Resolver(cwd string) *Resolver {
	return NewResolver(w.Root, cwd, w.Config.OutsideAllow, w.Getenv)
}

// Ledger is the workspace's ledger; toolVersion is stamped on its records.
func (w *Workspace) Ledger(toolVersion string) *ledger.Ledger {
	return &ledger.Ledger{Root: w.Root, LockTimeout: w.Config.LockTimeout, Fsync: w.Config.Ledger.Fsync, Now: w.Now, ToolVersion: toolVersion, SegmentBytes: int64(w.Config.Ledger.SegmentBytes)}
}
