// Package randid makes the random ids of files the hooks write: asks,
// standing answers, a clone's id for remote claims, a work tree's ledger
// writer.
//
// It draws from math/rand/v2's global generator, not crypto/rand: since Go
// 1.22 that generator is ChaCha8, per thread, seeded from the operating
// system's entropy, so its output is unpredictable; and crypto/rand would
// link its DRBG, AES-GCM, SHA-3 and math/big into the hook binary, whose
// initialisers every hook call would run (docs/performance.md).
package randid

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
)

// Hex returns n random bytes, hexadecimal (2n characters).
func Hex(n int) string {
	b := make([]byte, 0, n+8)
	for len(b) < n {
		b = binary.LittleEndian.AppendUint64(b, rand.Uint64())
	}
	return hex.EncodeToString(b[:n])
}
