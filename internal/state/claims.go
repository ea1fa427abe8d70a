package state

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/osfile"
)

// ClaimsDir is where, under the repository's common git directory, the
// sessions of every work tree leave their claims: one directory per intent
// id, one file per work tree, session and agent. It is one per repository
// (git worktree add makes checkouts that share it); everything else of a
// session's state stays in its work tree's state/.
const ClaimsDir = "intenthook/claims"

// claimsLock is the lock, beside the claims, that a selection with
// exclusive_intents holds across work trees, after the catalog lock of
// its own.
const claimsLock = "intenthook/locks/claims.lock"

// Claim says that a session (or one agent in it) of the work tree whose
// workspace root is Root selected Intent. It is a pointer: whether it
// holds is read from that session's state in Root (Claims.Holder), so a
// file planted by a program claims nothing.
type Claim struct {
	Intent  string    `json:"intent"`
	Session string    `json:"session_id"`
	Agent   string    `json:"agent,omitempty"`
	Root    string    `json:"root"`
	At      time.Time `json:"at"`
}

// Claims is the repository-wide store of claims, seen from one work tree's
// workspace root. Dir is "" outside git: there, claims are the work tree's
// session state alone.
type Claims struct {
	Dir  string // <common>/intenthook/claims, absolute
	Root string // this work tree's workspace root, absolute
	// By names the hook call writing (guard.By), for the journal; "" for
	// a person's command.
	By string
}

// RepoClaims resolves the claims of the repository holding root: one read
// of a linked work tree's .git file and its commondir, nothing in a
// repository's main work tree but a stat.
func RepoClaims(root string) Claims {
	abs, err := filepath.Abs(root)
	if err != nil {
		return Claims{}
	}
	common, ok := git.CommonDir(abs)
	if !ok {
		return Claims{Root: abs}
	}
	return Claims{Dir: filepath.Join(common, filepath.FromSlash(ClaimsDir)), Root: abs}
}

// rootKey names a work tree's root in claim file names.
func rootKey(root string) string {
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:6])
}

// File is where c lies.
func (cs Claims) File(c Claim) string {
	name := rootKey(c.Root) + "." + SessionKey(c.Session)
	if c.Agent != "" {
		name += "." + Key(c.Agent)
	}
	return filepath.Join(cs.Dir, Key(c.Intent), name+".json")
}

// Put records that session (agent) of this work tree selected intent,
// and takes back its claim on before, the intent it held until now ("" for
// none).
func (cs Claims) Put(session, agent, before, intent string, now time.Time) error {
	if cs.Dir == "" {
		return nil
	}
	if before != "" && before != intent {
		if err := cs.Drop(session, agent, before); err != nil {
			return err
		}
	}
	if intent == "" {
		return nil
	}
	c := Claim{Intent: intent, Session: session, Agent: agent, Root: cs.Root, At: now.UTC()}
	path := cs.File(c)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("claims: %w", err)
	}
	data, _ := json.Marshal(c)
	if err := WriteFile(path, data, 0o644, false); err != nil {
		return fmt.Errorf("claims: %w", err)
	}
	return nil
}

// Drop takes back this work tree's claim of session (agent) on intent.
func (cs Claims) Drop(session, agent, intent string) error {
	if cs.Dir == "" || intent == "" {
		return nil
	}
	err := os.Remove(cs.File(Claim{Intent: intent, Session: session, Agent: agent, Root: cs.Root}))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("claims: %w", err)
	}
	return nil
}

// Of lists the claims on intent made in other work trees than this one
// (this one's sessions are its own state). A file that does not read as a
// claim of intent is left out.
func (cs Claims) Of(intent string) []Claim {
	if cs.Dir == "" {
		return nil
	}
	dir := filepath.Join(cs.Dir, Key(intent))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []Claim
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) != ".json" {
			continue
		}
		data, err := osfile.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		var c Claim
		if json.Unmarshal(data, &c) != nil || c.Intent != intent || c.Session == "" || !filepath.IsAbs(c.Root) || c.Root == cs.Root {
			continue
		}
		out = append(out, c)
	}
	return out
}

// Any reports whether the repository holds any claim file: doctor's
// question for mixed versions.
func (cs Claims) Any() bool {
	if cs.Dir == "" {
		return false
	}
	intents, _ := os.ReadDir(cs.Dir)
	for _, d := range intents {
		if files, _ := os.ReadDir(filepath.Join(cs.Dir, d.Name())); len(files) > 0 {
			return true
		}
	}
	return false
}

// Holder returns the state of c's session in its work tree, its last
// activity as List reads it; nil when the work tree or the session is
// gone.
func (cs Claims) Holder(c Claim) *Session {
	ss := Sessions{Root: c.Root}
	if _, err := os.Stat(ss.path(c.Session)); err != nil {
		return nil
	}
	s, err := ss.Read(c.Session)
	if err != nil {
		return nil
	}
	s.LastSeen = ss.lastActivity(s)
	return s
}

// Lock takes the repository's claims lock: a selection with
// exclusive_intents holds it, after its work tree's catalog lock, while
// it looks for holders and binds, so that two work trees selecting at
// once cannot both win. Outside git it takes nothing.
func (cs Claims) Lock(ctx context.Context, timeout time.Duration) (Unlock, error) {
	if cs.Dir == "" {
		return func() {}, nil
	}
	path := filepath.Join(filepath.Dir(filepath.Dir(cs.Dir)), filepath.FromSlash(claimsLock))
	return LockFile(ctx, path, "claims", timeout)
}
