// Package scopereq keeps the scope changes agents ask for
// (.orchestration/state/scope_requests.json): pending amendments that a
// person approves or rejects. Filing one never changes the catalog; applying
// an approved one is the lifecycle editor's job.
package scopereq

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/safetext"
	"github.com/intenthook/intenthook/internal/state"
)

// File is the pending requests' file name under state/.
const File = "scope_requests.json"

// Request is one pending amendment.
type Request struct {
	N        int      `json:"n"`
	IntentID string   `json:"intent_id"`
	Add      []string `json:"add,omitempty"`
	Remove   []string `json:"remove,omitempty"`
	Reason   string   `json:"reason"`
	Session  string   `json:"session,omitempty"`
	At       string   `json:"at"`
}

// Change is the request's patterns as a person reads them: +added,
// -removed, each quoted when it holds what a terminal would act on.
func (r Request) Change() []string {
	var change []string
	for _, p := range r.Add {
		change = append(change, "+"+safetext.Quote(p))
	}
	for _, p := range r.Remove {
		change = append(change, "-"+safetext.Quote(p))
	}
	return change
}

type doc struct {
	Next     int       `json:"next"`
	Requests []Request `json:"requests"`
}

// CommonFile is where a git repository keeps its requests, relative to
// its common git directory: one file for all its work trees, so that a
// person decides from any of them.
const CommonFile = "intenthook/scope_requests.json"

// Store is one repository's requests (a workspace's own outside git).
type Store struct {
	Root    string
	Timeout time.Duration
	file    string // the requests' file, absolute ("" for Root's state/)
	lock    string // its lock, absolute
}

// For resolves the requests of the repository holding the workspace root:
// one read of a linked work tree's .git file and its commondir, no git
// process.
func For(root string, timeout time.Duration) Store {
	s := Store{Root: root, Timeout: timeout}
	if abs, err := filepath.Abs(root); err == nil {
		if common, ok := git.CommonDir(abs); ok {
			s.file = filepath.Join(common, filepath.FromSlash(CommonFile))
			s.lock = filepath.Join(common, "intenthook", "locks", "scope_requests.lock")
		}
	}
	return s
}

// path is the requests' file.
func (s Store) path() string {
	if s.file != "" {
		return s.file
	}
	return state.Path(s.Root, File)
}

// Add files r and returns it numbered. Its reason's line breaks become
// spaces; a pattern or reason holding a control character is refused: a
// person reads them on a terminal.
func (s Store) Add(ctx context.Context, r Request, now time.Time) (Request, error) {
	if len(r.Add) == 0 && len(r.Remove) == 0 {
		return Request{}, errors.New("a scope change must add or remove at least one pattern")
	}
	r.Reason = strings.TrimSpace(safetext.Flat(r.Reason))
	if r.Reason == "" {
		return Request{}, errors.New("a scope change needs a reason a person can judge")
	}
	if safetext.Unsafe(r.Reason) {
		return Request{}, fmt.Errorf("reason %q holds a control character or invalid UTF-8: write it as plain text", r.Reason)
	}
	if err := CheckPatterns(r); err != nil {
		return Request{}, err
	}
	err := s.update(ctx, func(d *doc) error {
		d.Next++
		r.N, r.At = d.Next, now.UTC().Format(time.RFC3339)
		d.Requests = append(d.Requests, r)
		return nil
	})
	return r, err
}

// CheckPatterns refuses a request whose added or removed patterns hold a
// control character, a line break or invalid UTF-8 (a pattern that could
// redraw the listing a person approves from). Whether each is a glob of
// the catalog's dialect is the filer's check (the MCP server's), and the
// catalog editor's when it is applied.
func CheckPatterns(r Request) error {
	for _, set := range [][]string{r.Add, r.Remove} {
		for _, p := range set {
			if safetext.Unsafe(p) {
				return fmt.Errorf("pattern %q holds a control character, a line break or invalid UTF-8", p)
			}
		}
	}
	return nil
}

// List returns the pending requests, oldest first; intentID, when set,
// keeps that intent's.
func (s Store) List(intentID string) ([]Request, error) {
	d, err := read(s.path())
	if err != nil {
		return nil, err
	}
	var out []Request
	for _, r := range d.Requests {
		if intentID == "" || r.IntentID == intentID {
			out = append(out, r)
		}
	}
	return out, nil
}

// Take removes request n of intentID once apply succeeds; a failed apply
// leaves it pending.
func (s Store) Take(ctx context.Context, intentID string, n int, apply func(Request) error) error {
	return s.update(ctx, func(d *doc) error {
		for i, r := range d.Requests {
			if r.N != n {
				continue
			}
			if r.IntentID != intentID {
				return fmt.Errorf("scope request %d is for %s, not %s", n, r.IntentID, intentID)
			}
			if err := apply(r); err != nil {
				return err
			}
			d.Requests = append(d.Requests[:i], d.Requests[i+1:]...)
			return nil
		}
		return fmt.Errorf("no pending scope request %d (intenthook intents show %s lists them)", n, intentID)
	})
}

func (s Store) update(ctx context.Context, edit func(*doc) error) error {
	var unlock state.Unlock
	var err error
	if s.file != "" {
		unlock, err = state.LockFile(ctx, s.lock, "scope_requests", s.Timeout)
	} else if err = state.Ensure(s.Root); err == nil {
		unlock, err = state.Lock(ctx, s.Root, "scope_requests", s.Timeout)
	}
	if err != nil {
		return err
	}
	defer unlock()
	d, err := read(s.path())
	if err != nil {
		return err
	}
	if err := edit(&d); err != nil {
		return err
	}
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	return state.WriteFile(s.path(), append(data, '\n'), 0o644, true)
}

func read(path string) (doc, error) {
	var d doc
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return d, err
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return d, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}
