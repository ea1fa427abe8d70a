// Package digest names content the way every intenthook file does:
// "sha256:" followed by the lowercase hex SHA-256 of the bytes.
package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"

	"github.com/intenthook/intenthook/internal/osfile"
)

// Prefix starts every digest string.
const Prefix = "sha256:"

// Bytes returns the digest of b.
func Bytes(b []byte) string {
	sum := sha256.Sum256(b)
	return Prefix + hex.EncodeToString(sum[:])
}

// String returns the digest of s.
func String(s string) string { return Bytes([]byte(s)) }

// File returns the digest of the file at path, or "" when it does not exist.
// A directory or other non-regular file is not content: it also gives "".
func File(path string) (string, error) {
	h := sha256.New()
	err := osfile.ReadTo(h, path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, osfile.ErrNotRegular) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return Prefix + hex.EncodeToString(h.Sum(nil)), nil
}
