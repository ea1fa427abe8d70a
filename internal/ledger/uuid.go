package ledger

import (
	"crypto/rand"
	"encoding/hex"
)

// newID returns a random (version 4, RFC 9562) UUID in its canonical text
// form. Written here rather than imported: the usual package pulls net and
// database/sql/driver into every hook's start-up for features records
// never use.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])  // never fails (crypto/rand)
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // variant 10
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}
