package attest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"golang.org/x/crypto/ssh"
)

// SSHNamespace is the SSHSIG namespace of an attestation's signature: a
// signature made for git commits or for files (ssh-keygen's other
// namespaces) is not one of these, nor the reverse.
const SSHNamespace = "attest@intenthook.dev"

const sshsigMagic = "SSHSIG"

// isSSHKey reports whether data is an OpenSSH private key or an SSH public
// key line.
func isSSHKey(data []byte) bool {
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("-----BEGIN OPENSSH PRIVATE KEY-----")) {
		return true
	}
	_, _, _, _, err := ssh.ParseAuthorizedKey(data)
	return err == nil
}

// isSSHSIG reports whether a signature is an SSHSIG blob.
func isSSHSIG(sig []byte) bool { return bytes.HasPrefix(sig, []byte(sshsigMagic)) }

// sshSigner signs through ssh-keygen -Y sign: the key's passphrase, a
// security key's touch and ssh-agent are ssh-keygen's to handle.
type sshSigner struct{ path string }

func (s *sshSigner) describe() string { return "SSH key " + s.path }

// sign returns the SSHSIG blob (ssh-keygen's armour taken off), and the
// fingerprint of the key it names.
func (s *sshSigner) sign(ctx context.Context, pae []byte) ([]byte, string, error) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		return nil, "", withHint(errors.New("signing with an SSH key runs ssh-keygen -Y sign, and ssh-keygen is not on PATH"), "install OpenSSH's client (8.1 or later), or sign with a PEM key")
	}
	cmd := exec.CommandContext(ctx, "ssh-keygen", "-Y", "sign", "-f", s.path, "-n", SSHNamespace)
	cmd.Stdin = bytes.NewReader(pae)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, "", withHint(fmt.Errorf("ssh-keygen -Y sign -f %s: %v: %s", s.path, err, strings.TrimSpace(stderr.String())), "a private key file must be readable by you alone (chmod 600); a public key's private half must be in ssh-agent")
	}
	blob, err := dearmor(stdout.Bytes())
	if err != nil {
		return nil, "", fmt.Errorf("ssh-keygen -Y sign: %w", err)
	}
	sig, err := parseSSHSIG(blob)
	if err != nil {
		return nil, "", fmt.Errorf("ssh-keygen -Y sign: %w", err)
	}
	return blob, ssh.FingerprintSHA256(sig.key), nil
}

// dearmor takes the base64 between ssh-keygen's BEGIN and END SSH
// SIGNATURE lines.
func dearmor(armored []byte) ([]byte, error) {
	const begin, end = "-----BEGIN SSH SIGNATURE-----", "-----END SSH SIGNATURE-----"
	s := string(armored)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		return nil, errors.New("no SSH signature in its output")
	}
	b64 := strings.Join(strings.Fields(s[i+len(begin):j]), "")
	return base64.StdEncoding.DecodeString(b64)
}

// sshsig is an SSHSIG blob, read.
type sshsig struct {
	key       ssh.PublicKey
	namespace string
	reserved  string
	hashAlg   string
	sig       *ssh.Signature
}

// parseSSHSIG reads the blob: "SSHSIG", then version 1, the public key,
// the namespace, a reserved string, the hash algorithm and the signature,
// each an SSH wire string but the version.
func parseSSHSIG(blob []byte) (*sshsig, error) {
	rest, ok := bytes.CutPrefix(blob, []byte(sshsigMagic))
	if !ok {
		return nil, errors.New("not an SSHSIG signature")
	}
	var wire struct {
		Version   uint32
		PublicKey []byte
		Namespace string
		Reserved  string
		HashAlg   string
		Signature []byte
	}
	if err := ssh.Unmarshal(rest, &wire); err != nil {
		return nil, fmt.Errorf("a malformed SSHSIG signature: %w", err)
	}
	if wire.Version != 1 {
		return nil, fmt.Errorf("SSHSIG version %d: only 1 is known", wire.Version)
	}
	key, err := ssh.ParsePublicKey(wire.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("the SSHSIG signature's key: %w", err)
	}
	sig := new(ssh.Signature)
	if err := ssh.Unmarshal(wire.Signature, sig); err != nil {
		return nil, fmt.Errorf("the SSHSIG signature: %w", err)
	}
	return &sshsig{key: key, namespace: wire.Namespace, reserved: wire.Reserved, hashAlg: wire.HashAlg, sig: sig}, nil
}

// verifySSHSIG checks an SSHSIG blob over message with key: the blob
// names the key and the namespace, and signs "SSHSIG", the namespace, the
// reserved string, the hash algorithm and the message's digest.
func verifySSHSIG(key ssh.PublicKey, message, blob []byte) error {
	if !isSSHSIG(blob) {
		return errors.New("the envelope is signed with a PEM key, the key given is an SSH key")
	}
	s, err := parseSSHSIG(blob)
	if err != nil {
		return err
	}
	if !bytes.Equal(s.key.Marshal(), key.Marshal()) {
		return fmt.Errorf("signed by the SSH key %s, not by %s", ssh.FingerprintSHA256(s.key), ssh.FingerprintSHA256(key))
	}
	if s.namespace != SSHNamespace {
		return fmt.Errorf("an SSH signature for %q, not for %q: made for something else", s.namespace, SSHNamespace)
	}
	if s.sig.Format == ssh.KeyAlgoRSA {
		return errors.New("an SSH signature with ssh-rsa (SHA-1), which SSHSIG does not allow")
	}
	var digest []byte
	switch s.hashAlg {
	case "sha256":
		sum := sha256.Sum256(message)
		digest = sum[:]
	case "sha512":
		sum := sha512.Sum512(message)
		digest = sum[:]
	default:
		return fmt.Errorf("an SSH signature over a %q digest: SSHSIG has sha256 and sha512", s.hashAlg)
	}
	signed := append([]byte(sshsigMagic), ssh.Marshal(struct {
		Namespace string
		Reserved  string
		HashAlg   string
		Hash      []byte
	}{s.namespace, s.reserved, s.hashAlg, digest})...)
	if err := key.Verify(signed, s.sig); err != nil {
		return errBadSignature
	}
	return nil
}
