package export

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/osfile"
	"github.com/intenthook/intenthook/internal/state"
)

// State files, under state/export/. What was sent is kept per endpoint
// (Store): an export to another collector sends every record there, and
// one pointed elsewhere, by mistake or by an agent's shell, moves nothing
// for the collector the workspace is configured for.
const (
	stateDir = "export"
	logName  = "otlp.log" // the outcome of the last exports started by a hook
	lockName = "export-otlp"
)

// Store names the state files of one endpoint: otlp-<digest of its URL>
// with .json (the cursor), .sent (ids of the records sent: 8 bytes each)
// and .rejected (records the collector rejected on their own, skipped).
type Store struct{ root, base string }

// StoreFor is the store of the endpoint url in the workspace at root.
func StoreFor(root, url string) Store {
	sum := sha256.Sum256([]byte(url))
	return Store{root: root, base: fmt.Sprintf("otlp-%x", sum[:6])}
}

func (s Store) path(ext string) string { return state.Path(s.root, stateDir, s.base+ext) }

// CursorPath is where the cursor is kept.
func (s Store) CursorPath() string { return s.path(".json") }

// Cursor says what was sent: per ledger file, how many of its bytes, and
// the digest of the last line sent, which must still end there for the
// next export to go on from there.
type Cursor struct {
	Version int          `json:"version"`
	Files   []FileCursor `json:"files"`
}

// FileCursor is one ledger file's part of the Cursor.
type FileCursor struct {
	Name    string `json:"name"`    // root-relative, "/" separators
	Bytes   int64  `json:"bytes"`   // sent up to here: the end of a line
	Last    string `json:"last"`    // digest of the line that ends at Bytes
	Records int64  `json:"records"` // records sent from the file, all runs together
	// Rejected marks the batch that starts at Bytes as taken only in part
	// by the collector last time: the next export sends it one record per
	// request, and skips a record rejected on its own (Store's .rejected).
	Rejected bool `json:"rejected,omitempty"`
}

// LoadCursor reads the cursor; a missing one has sent nothing.
func (s Store) LoadCursor() (*Cursor, error) {
	data, err := osfile.ReadFile(s.CursorPath())
	if errors.Is(err, fs.ErrNotExist) {
		return &Cursor{Version: 1}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read export cursor: %w", err)
	}
	var c Cursor
	if err := json.Unmarshal(data, &c); err != nil || c.Version != 1 {
		return nil, fmt.Errorf("export cursor %s is unreadable: remove it to send every record again (backends drop duplicates by log.record.uid)", s.CursorPath())
	}
	return &c, nil
}

// Of returns the file's cursor, the zero one (nothing sent) when it has none.
func (c *Cursor) Of(name string) FileCursor {
	for _, f := range c.Files {
		if f.Name == name {
			return f
		}
	}
	return FileCursor{Name: name}
}

func (c *Cursor) set(fc FileCursor) {
	for i, f := range c.Files {
		if f.Name == fc.Name {
			c.Files[i] = fc
			return
		}
	}
	c.Files = append(c.Files, fc)
}

// save replaces the cursor file atomically and durably: it is what keeps
// the next export from sending a batch again.
func (s Store) save(c *Cursor) error {
	if err := state.Ensure(s.root, stateDir); err != nil {
		return err
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return state.WriteFile(s.CursorPath(), append(data, '\n'), 0o644, true)
}

// lineDigest is the digest the cursor keeps of a line (without its newline).
func lineDigest(line []byte) string { return digest.Bytes(line) }

// sentKey is the sent log's form of a record id.
func sentKey(uid string) uint64 {
	sum := sha256.Sum256([]byte(uid))
	return binary.LittleEndian.Uint64(sum[:8])
}

// appendSent adds the ids of a batch the collector accepted to the sent
// log. It is read only when a ledger file changed under the cursor.
func (s Store) appendSent(uids []string) error {
	if err := state.Ensure(s.root, stateDir); err != nil {
		return err
	}
	f, err := osfile.OpenFile(s.path(".sent"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("export sent log: %w", err)
	}
	buf := make([]byte, 0, 8*len(uids))
	for _, u := range uids {
		buf = binary.LittleEndian.AppendUint64(buf, sentKey(u))
	}
	_, err = f.Write(buf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("export sent log: %w", err)
	}
	return nil
}

// loadSent reads the sent log as a set.
func (s Store) loadSent() (map[uint64]bool, error) {
	data, err := osfile.ReadFile(s.path(".sent"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("export sent log: %w", err)
	}
	set := make(map[uint64]bool, len(data)/8)
	for i := 0; i+8 <= len(data); i += 8 {
		set[binary.LittleEndian.Uint64(data[i:])] = true
	}
	return set, nil
}

// RejectedPath is where records the collector rejected on their own are kept.
func (s Store) RejectedPath() string { return s.path(".rejected") }

// appendRejected keeps a record the collector rejected on its own, with
// its reason, before the export skips it.
func (s Store) appendRejected(name, uid string, reason error) error {
	if err := state.Ensure(s.root, stateDir); err != nil {
		return err
	}
	f, err := osfile.OpenFile(s.RejectedPath(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("export rejected log: %w", err)
	}
	line, _ := json.Marshal(map[string]string{"file": name, "uid": uid, "reason": reason.Error()})
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
