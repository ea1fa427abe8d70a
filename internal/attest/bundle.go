package attest

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/sign"
	"github.com/sigstore/sigstore-go/pkg/verify"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
	"github.com/sigstore/sigstore/pkg/signature"
	"google.golang.org/protobuf/encoding/protojson"
)

// BundleMediaType is the Sigstore bundle version written.
const BundleMediaType = "application/vnd.dev.sigstore.bundle.v0.3+json"

// keypair lets sigstore-go sign with a PEM key: the bundle's verification
// material is then a public-key hint (the key's id), with no certificate,
// no transparency-log entry and no timestamp.
type keypair struct{ k *pemKey }

func (p keypair) details() protocommon.PublicKeyDetails {
	if _, ok := p.k.priv.(ed25519.PrivateKey); ok {
		return protocommon.PublicKeyDetails_PKIX_ED25519
	}
	return protocommon.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256
}

func (p keypair) GetHashAlgorithm() protocommon.HashAlgorithm {
	d, err := signature.GetAlgorithmDetails(p.details())
	if err != nil {
		return protocommon.HashAlgorithm_HASH_ALGORITHM_UNSPECIFIED
	}
	return d.GetProtoHashType()
}

func (p keypair) GetSigningAlgorithm() protocommon.PublicKeyDetails { return p.details() }
func (p keypair) GetHint() []byte                                   { return []byte(p.k.pub.id()) }
func (p keypair) GetPublicKey() crypto.PublicKey                    { return p.k.pub.key }

func (p keypair) GetKeyAlgorithm() string {
	if p.details() == protocommon.PublicKeyDetails_PKIX_ED25519 {
		return "ED25519"
	}
	return "ECDSA"
}

func (p keypair) GetPublicKeyPem() (string, error) {
	b, err := cryptoutils.MarshalPublicKeyToPEM(p.k.pub.key)
	return string(b), err
}

// SignData signs data (a DSSE PAE) and returns what was signed: its
// SHA-256 for ECDSA, the data itself for Ed25519.
func (p keypair) SignData(_ context.Context, data []byte) ([]byte, []byte, error) {
	switch priv := p.k.priv.(type) {
	case *ecdsa.PrivateKey:
		sum := sha256.Sum256(data)
		sig, err := ecdsa.SignASN1(rand.Reader, priv, sum[:])
		return sig, sum[:], err
	case ed25519.PrivateKey:
		return ed25519.Sign(priv, data), data, nil
	}
	return nil, nil, errors.New("not a key sigstore-go signs with")
}

// signBundle signs statement as a Sigstore bundle v0.3 holding a DSSE
// envelope.
func signBundle(s signer, statement []byte) ([]byte, error) {
	k, ok := s.(*pemKey)
	if !ok {
		return nil, withHint(errors.New("--bundle signs with a PEM key: a Sigstore bundle has no SSH signature"), "drop --bundle for an SSH-signed DSSE envelope, which attest verify checks (cosign does not)")
	}
	pb, err := sign.Bundle(&sign.DSSEData{Data: statement, PayloadType: PayloadType}, keypair{k}, sign.BundleOptions{})
	if err != nil {
		return nil, fmt.Errorf("sign the bundle: %w", err)
	}
	b, err := protojson.Marshal(pb)
	if err != nil {
		return nil, err
	}
	// protojson varies its white space on purpose; the file is written
	// compact, the same way each time.
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// isBundle reports whether data is a Sigstore bundle (by its mediaType).
func isBundle(data []byte) bool {
	var probe struct {
		MediaType string `json:"mediaType"`
	}
	return json.Unmarshal(data, &probe) == nil && strings.HasPrefix(probe.MediaType, "application/vnd.dev.sigstore.bundle")
}

// verifyBundle checks a key-signed bundle with sigstore-go: its DSSE
// envelope's signature by key, with no transparency log and no timestamp
// required (a key-signed bundle has neither). It returns the statement.
func verifyBundle(data []byte, key publicKey) ([]byte, error) {
	var b bundle.Bundle
	if err := b.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("not a Sigstore bundle: %w", err)
	}
	env, err := b.Envelope()
	if err != nil {
		return nil, withHint(errors.New("the bundle holds no DSSE envelope: it signs no attestation"), "intenthook attest --bundle writes one")
	}
	if vc, err := b.VerificationContent(); err == nil && vc.Certificate() != nil {
		return nil, withHint(errors.New("the bundle is signed keyless (a certificate, as actions/attest makes): --key does not check it"), "check it against a trusted root: attest verify FILE --trusted-root trusted_root.json --certificate-identity ID --certificate-oidc-issuer ISSUER (see docs/attest.md)")
	}
	if key.ssh != nil {
		return nil, withHint(errors.New("a Sigstore bundle is checked with a PEM public key, not an SSH key"), keyHint)
	}
	v, err := signature.LoadVerifier(key.key, crypto.SHA256)
	if err != nil {
		return nil, err
	}
	trusted := root.NewTrustedPublicKeyMaterial(func(string) (root.TimeConstrainedVerifier, error) {
		return root.NewExpiringKey(v, time.Time{}, time.Time{}), nil
	})
	ver, err := verify.NewVerifier(trusted, verify.WithNoObserverTimestamps())
	if err != nil {
		return nil, err
	}
	if _, err := ver.Verify(&b, verify.NewPolicy(verify.WithoutArtifactUnsafe(), verify.WithKey())); err != nil {
		return nil, fmt.Errorf("%w (sigstore-go: %v)", errBadSignature, err)
	}
	if env.PayloadType != PayloadType {
		return nil, fmt.Errorf("the envelope's payload is %q, not an in-toto statement", env.PayloadType)
	}
	return env.DecodeB64Payload()
}
