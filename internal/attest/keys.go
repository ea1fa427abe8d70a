package attest

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/crypto/ssh"
)

// keyHint is said wherever a key is refused.
const keyHint = "a key is an unencrypted PEM file, ECDSA P-256 or Ed25519 (openssl genpkey -algorithm ed25519 -out attest.pem; openssl pkey -in attest.pem -pubout -out attest.pub), or an SSH key (ssh-keygen -t ed25519 -f attest_ssh)"

// A signer signs the PAE of an envelope.
type signer interface {
	// sign returns the signature and the key's id (its fingerprint).
	sign(ctx context.Context, pae []byte) (sig []byte, keyID string, err error)
	// describe names the key for people: "ECDSA P-256 key SHA256:…".
	describe() string
}

// loadSigner reads a signing key: a PEM private key (PKCS #8, or SEC 1
// for ECDSA), or an SSH key, private or public (ssh-keygen then signs
// with the private key beside it, or the one ssh-agent holds).
func loadSigner(path string) (signer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, withHint(fmt.Errorf("read the key: %w", err), keyHint)
	}
	if isSSHKey(data) {
		return &sshSigner{path: path}, nil
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, withHint(fmt.Errorf("%s is neither a PEM key nor an SSH key", path), keyHint)
	}
	var key any
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "PUBLIC KEY":
		return nil, withHint(fmt.Errorf("%s is a public key: signing takes the private key", path), "attest verify takes the public key")
	default:
		if strings.Contains(block.Type, "ENCRYPTED") {
			return nil, withHint(fmt.Errorf("%s is an encrypted key (%s), which intenthook does not decrypt", path, block.Type), "decrypt it into a file only CI can read (openssl pkey -in KEY -out attest.pem), or use an SSH key, which ssh-keygen asks the passphrase of", keyHint)
		}
		return nil, withHint(fmt.Errorf("%s holds a %s, not a private key intenthook signs with", path, block.Type), keyHint)
	}
	if err != nil {
		return nil, withHint(fmt.Errorf("read the key %s: %w", path, err), keyHint)
	}
	pk, err := newPEMKey(key)
	if err != nil {
		return nil, withHint(fmt.Errorf("%s: %w", path, err), keyHint)
	}
	return pk, nil
}

// pemKey is an ECDSA P-256 or Ed25519 private key.
type pemKey struct {
	priv crypto.Signer
	pub  publicKey
}

func newPEMKey(key any) (*pemKey, error) {
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		if k.Curve != elliptic.P256() {
			return nil, fmt.Errorf("an ECDSA key on %s: only P-256 is taken", k.Curve.Params().Name)
		}
		return &pemKey{priv: k, pub: publicKey{key: &k.PublicKey}}, nil
	case ed25519.PrivateKey:
		return &pemKey{priv: k, pub: publicKey{key: k.Public()}}, nil
	}
	return nil, fmt.Errorf("a %T key: only ECDSA P-256 and Ed25519 are taken", key)
}

// sign signs as DSSE's verifiers expect: ECDSA over the PAE's SHA-256,
// ASN.1 DER; Ed25519 over the PAE itself.
func (k *pemKey) sign(_ context.Context, pae []byte) ([]byte, string, error) {
	var sig []byte
	var err error
	switch priv := k.priv.(type) {
	case *ecdsa.PrivateKey:
		sum := sha256.Sum256(pae)
		sig, err = ecdsa.SignASN1(rand.Reader, priv, sum[:])
	case ed25519.PrivateKey:
		sig = ed25519.Sign(priv, pae)
	}
	return sig, k.pub.id(), err
}

func (k *pemKey) describe() string { return k.pub.describe() }

// publicKey is a key signatures are checked against: a PEM public key
// (*ecdsa.PublicKey on P-256, ed25519.PublicKey) or an SSH key.
type publicKey struct {
	key crypto.PublicKey
	ssh ssh.PublicKey
}

// loadPublicKey reads a verification key: a PEM public key (PKIX), or an
// SSH public key (one authorized_keys line).
func loadPublicKey(path string) (publicKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return publicKey{}, withHint(fmt.Errorf("read the key: %w", err), keyHint)
	}
	if pub, _, _, _, err := ssh.ParseAuthorizedKey(data); err == nil {
		return publicKey{ssh: pub}, nil
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return publicKey{}, withHint(fmt.Errorf("%s is neither a PEM public key nor an SSH public key", path), keyHint)
	}
	if block.Type != "PUBLIC KEY" {
		return publicKey{}, withHint(fmt.Errorf("%s holds a %s: verify takes the public key", path, block.Type), "openssl pkey -in attest.pem -pubout -out attest.pub; for an SSH key, its .pub file")
	}
	key, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return publicKey{}, withHint(fmt.Errorf("read the key %s: %w", path, err), keyHint)
	}
	switch k := key.(type) {
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return publicKey{}, withHint(fmt.Errorf("%s: an ECDSA key on %s: only P-256 is taken", path, k.Curve.Params().Name), keyHint)
		}
	case ed25519.PublicKey:
	default:
		return publicKey{}, withHint(fmt.Errorf("%s: a %T key: only ECDSA P-256 and Ed25519 are taken", path, key), keyHint)
	}
	return publicKey{key: key}, nil
}

// errBadSignature: the signature does not verify with the key.
var errBadSignature = errors.New("the signature does not verify with the key")

// verify checks sig over the PAE.
func (k publicKey) verify(pae, sig []byte) error {
	if k.ssh != nil {
		return verifySSHSIG(k.ssh, pae, sig)
	}
	if isSSHSIG(sig) {
		return errors.New("the envelope is signed with an SSH key, the key given is a PEM key")
	}
	ok := false
	switch pub := k.key.(type) {
	case *ecdsa.PublicKey:
		sum := sha256.Sum256(pae)
		ok = ecdsa.VerifyASN1(pub, sum[:], sig)
	case ed25519.PublicKey:
		ok = ed25519.Verify(pub, pae, sig)
	}
	if !ok {
		return errBadSignature
	}
	return nil
}

// id is the key's id for people and for a bundle's public-key hint: its
// OpenSSH fingerprint (SHA256: and the unpadded base64 of the digest of its
// SSH encoding), for a PEM key as for an SSH key; what go-securesystemslib
// computes for a key given without an id.
func (k publicKey) id() string {
	if k.ssh != nil {
		return ssh.FingerprintSHA256(k.ssh)
	}
	pub, err := ssh.NewPublicKey(k.key)
	if err != nil {
		return ""
	}
	return ssh.FingerprintSHA256(pub)
}

func (k publicKey) describe() string {
	switch k.key.(type) {
	case *ecdsa.PublicKey:
		return "ECDSA P-256 key " + k.id()
	case ed25519.PublicKey:
		return "Ed25519 key " + k.id()
	}
	if k.ssh != nil {
		return "SSH " + k.ssh.Type() + " key " + k.id()
	}
	return "no key"
}
