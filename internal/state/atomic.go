package state

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/intenthook/intenthook/internal/osfile"
)

// WriteFile replaces path with data atomically: a uniquely named temporary file
// in the same directory, then a rename (osfile.Replace). With durable set
// (files people own: catalog, map, lessons) the file and its directory are
// fsynced; without it (state that can be rebuilt), a file replaced just
// before a power cut may read empty after it, as on any file system that
// does not write back on rename (XFS; ext4 does, for a rename, not for
// Replace's exchange): a damaged session file reads as a new session.
func WriteFile(path string, data []byte, perm os.FileMode, durable bool) (err error) {
	// A symlinked file (a settings file shared between repositories, say)
	// is written where it points, and stays a link.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	dir := filepath.Dir(path)
	tmp, err := osfile.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if durable {
		if err = tmp.Sync(); err != nil {
			_ = tmp.Close()
			return fmt.Errorf("sync %s: %w", path, err)
		}
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Chmod(tmp.Name(), perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = osfile.Replace(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if durable {
		if d, derr := osfile.Open(dir); derr == nil {
			_ = d.Sync()
			_ = d.Close()
		}
	}
	return nil
}
