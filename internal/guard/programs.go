package guard

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/intenthook/intenthook/internal/osfile"
)

// A program the hook wiring runs (an npm install's binary under
// node_modules/intenthook/bin/) is pictured by a stat of it alone: a copy
// or a hash of a large binary around every command would cost more than
// the hook; and since it cannot be put back, what matters is only whether
// it is still the same file. The picture follows links on the way (npm
// may link the package's directory, pnpm always does), so a directory
// repointed elsewhere changes it too.

// ProgramPrint is a program's stat fingerprint: device, inode, size and
// change time (which touch cannot set back), "device:inode:size:ctime";
// "" when there is none. Any write, chmod, rename over it or link swap
// changes it.
func ProgramPrint(path string) string {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		return "!" + err.Error()
	}
	return strconv.FormatUint(osfile.DeviceID(st), 10) + ":" + strconv.FormatUint(osfile.FileID(path, st), 10) + ":" +
		strconv.FormatInt(st.Size(), 10) + ":" + strconv.FormatInt(osfile.ChangeTime(st), 10)
}

// takePrograms pictures the Program targets.
func takePrograms(root string, targets []Target) map[string]string {
	var out map[string]string
	for _, t := range targets {
		if t.Kind != Program {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[t.Rel] = ProgramPrint(abs(root, t.Rel))
	}
	return out
}

// ProgramChange is a program the hooks run that the command replaced,
// changed or removed (or put where there was none): Before and After are
// its fingerprints.
type ProgramChange struct {
	Rel           string
	Before, After string
}

// ComparePrograms lists the pictured programs whose fingerprint is not
// the picture's, sorted.
func ComparePrograms(root string, s *Snapshot) []ProgramChange {
	var out []ProgramChange
	for rel, before := range s.Programs {
		if now := ProgramPrint(abs(root, rel)); now != before {
			out = append(out, ProgramChange{Rel: rel, Before: before, After: now})
		}
	}
	slices.SortFunc(out, func(a, b ProgramChange) int {
		if a.Rel < b.Rel {
			return -1
		}
		if a.Rel > b.Rel {
			return 1
		}
		return 0
	})
	return out
}

// Replaced is the note a hook leaves when a command changed a program the
// hooks run (workspace.HookReplacedFile): which programs, as the command
// left them, and whose command it was. While a program is still as the
// note has it, pre denies every call that may change anything; a person's
// reinstall gives the file another fingerprint and ends it.
type Replaced struct {
	Programs map[string]string `json:"programs"` // root-relative → fingerprint after the command
	Session  string            `json:"session,omitempty"`
	Command  string            `json:"command,omitempty"`
	At       time.Time         `json:"at"`
}

// WriteReplaced writes the note to path (a link there is replaced, never
// followed) and returns its bytes, for the journal.
func WriteReplaced(path string, r Replaced) ([]byte, error) {
	data, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	data = append(data, '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return data, writeAtomic(path, data, 0o644)
}

// ReadReplaced reads the note at path; ok is false when there is none (or
// it does not parse: the guard puts back a note a program rewrote).
func ReadReplaced(path string) (r Replaced, ok bool) {
	data, err := osfile.ReadFile(path)
	if err != nil || json.Unmarshal(data, &r) != nil {
		return Replaced{}, false
	}
	return r, len(r.Programs) > 0
}

// Still lists the note's programs that are still as the command left them
// under root, sorted.
func (r Replaced) Still(root string) []string {
	var out []string
	for rel, fp := range r.Programs {
		if ProgramPrint(abs(root, rel)) == fp {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return out
}
