package ledger

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/intenthook/intenthook/internal/digest"
)

// Pin names one ledger line by its seq and the digest of its bytes: what
// audit prints as a range's verified head, kept outside the repository so a
// later rewrite of history that drops or edits that line can be told.
type Pin struct {
	Seq  int64
	Hash string
}

func (p Pin) String() string { return fmt.Sprintf("%d:%s", p.Seq, p.Hash) }

// ParsePin reads SEQ:HASH, HASH being sha256:<64 hex digits>.
func ParsePin(s string) (Pin, error) {
	seq, hash, ok := strings.Cut(s, ":")
	n, err := strconv.ParseInt(seq, 10, 64)
	if !ok || err != nil || n < 0 {
		return Pin{}, fmt.Errorf("checkpoint %q: want SEQ:sha256:HEX", s)
	}
	hex, ok := strings.CutPrefix(hash, digest.Prefix)
	if !ok || len(hex) != 64 || strings.Trim(hex, "0123456789abcdef") != "" {
		return Pin{}, fmt.Errorf("checkpoint %q: want SEQ:sha256:HEX", s)
	}
	return Pin{Seq: n, Hash: hash}, nil
}

// Holds reports whether line is the pinned line: its digest is the pin's
// hash and its seq the pin's seq.
func (p Pin) Holds(line []byte) bool {
	if digest.Bytes(line) != p.Hash {
		return false
	}
	c, err := chainFields(line)
	return err == nil && c.Metadata.Intenthook.Seq != nil && *c.Metadata.Intenthook.Seq == p.Seq
}
