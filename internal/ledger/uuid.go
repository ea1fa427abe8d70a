package ledger

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
)

// newID returns a random (version 4, RFC 9562) UUID in its canonical text
// form. Written here rather than imported: the usual package pulls net and
// database/sql/driver into every hook's start-up for features records
// never use. The bits come from math/rand/v2's top-level source (the
// runtime's ChaCha8, seeded from the system's entropy): an id must be
// unique, not secret, and crypto/rand would link math/big and the FIPS
// DRBG into the start-up of every hook.
func newID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[0:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:16], rand.Uint64())
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
