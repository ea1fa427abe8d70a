package attest

import (
	"errors"
	"fmt"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/fulcio/certificate"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"

	"github.com/intenthook/intenthook/internal/safetext"
)

// trustedRootHint says where an auditor gets a trusted root.
const trustedRootHint = "gh attestation trusted-root > trusted_root.json writes GitHub's and Sigstore's public-good roots (keep it with the audit records); see docs/attest.md"

// identity is the certificate a keyless bundle must carry: who signed it
// (the certificate's subject alternative name, exactly or by a regular
// expression) and the OIDC issuer that vouched for them.
type identity struct {
	san, sanRegexp, issuer string
}

// describe names the identity as the flags gave it.
func (id identity) describe() string {
	san := id.san
	if san == "" {
		san = "matching " + safetext.Quote(id.sanRegexp)
	} else {
		san = safetext.Quote(san)
	}
	return san + " from " + safetext.Quote(id.issuer)
}

// loadTrustedRoot reads a Sigstore trusted root (trusted_root.json, the
// protobuf TrustedRoot in JSON): the certificate authorities, the
// transparency logs and the timestamp authorities a keyless bundle is
// checked against, with no network.
func loadTrustedRoot(path string) (root.TrustedMaterial, error) {
	tr, err := root.NewTrustedRootFromPath(path)
	if err != nil {
		return nil, withHint(fmt.Errorf("read the trusted root %s: %s", safetext.Quote(path), safetext.OneLine(err.Error())), trustedRootHint)
	}
	return tr, nil
}

// verifyKeylessBundle checks a keyless Sigstore bundle (a certificate, as
// actions/attest makes) against trusted and id, offline, and returns the
// statement and who signed it.
func verifyKeylessBundle(data []byte, trusted root.TrustedMaterial, id identity) ([]byte, string, error) {
	var b bundle.Bundle
	if err := b.UnmarshalJSON(data); err != nil {
		return nil, "", fmt.Errorf("not a Sigstore bundle: %s", safetext.OneLine(err.Error()))
	}
	if _, err := b.Envelope(); err != nil {
		return nil, "", withHint(errors.New("the bundle holds no DSSE envelope: it signs no attestation"), "actions/attest and intenthook attest --bundle write one")
	}
	return verifyKeyless(&b, trusted, id)
}

// verifyKeyless checks a keyless signed entity: its certificate chains to
// trusted, it is the identity asked for, its signature over the DSSE
// envelope holds, and it was signed while the certificate was valid, as a
// transparency-log entry (and a timestamp) the trusted root vouches for
// shows; a bundle with no log entry (GitHub's private-repository
// attestations) must carry a signed timestamp instead. All of it offline.
func verifyKeyless(e verify.SignedEntity, trusted root.TrustedMaterial, id identity) ([]byte, string, error) {
	vc, err := e.VerificationContent()
	if err != nil {
		return nil, "", fmt.Errorf("the bundle's verification material: %w", err)
	}
	cert := vc.Certificate()
	if cert == nil {
		return nil, "", withHint(errors.New("it is key-signed (a public-key hint, no certificate): a trusted root does not check it"), "check it with --key PUB, the public key of the key that signed it")
	}
	summary, err := certificate.SummarizeCertificate(cert)
	if err != nil {
		return nil, "", fmt.Errorf("the bundle's certificate: %w", err)
	}
	signer := safetext.Quote(summary.SubjectAlternativeName) + " (issuer " + safetext.Quote(summary.Extensions.Issuer) + ")"
	want, err := verify.NewShortCertificateIdentity(id.issuer, "", id.san, id.sanRegexp)
	if err != nil {
		return nil, "", withHint(fmt.Errorf("the certificate identity: %s", safetext.OneLine(err.Error())), "--certificate-identity-regexp is a Go regular expression")
	}

	entries, err := e.TlogEntries()
	if err != nil {
		return nil, "", fmt.Errorf("the bundle's transparency-log entries: %w", err)
	}
	opts := []verify.VerifierOption{verify.WithSignedTimestamps(1)}
	if len(entries) > 0 {
		opts = []verify.VerifierOption{verify.WithTransparencyLog(1), verify.WithObserverTimestamps(1)}
	}
	v, err := verify.NewVerifier(trusted, opts...)
	if err != nil {
		return nil, "", err
	}
	if _, err := v.Verify(e, verify.NewPolicy(verify.WithoutArtifactUnsafe(), verify.WithCertificateIdentity(want))); err != nil {
		if want.Verify(summary) != nil {
			return nil, "", withHint(fmt.Errorf("signed by %s, not %s", signer, id.describe()), "--certificate-identity and --certificate-oidc-issuer name who must have signed (for actions/attest, the workflow's URL at its ref and https://token.actions.githubusercontent.com)")
		}
		return nil, "", fmt.Errorf("the signature does not verify against the trusted root (the certificate names %s): %s", signer, safetext.OneLine(err.Error()))
	}

	sc, err := e.SignatureContent()
	if err != nil || sc.EnvelopeContent() == nil {
		return nil, "", errors.New("the bundle holds no DSSE envelope: it signs no attestation")
	}
	env := sc.EnvelopeContent().RawEnvelope()
	if env.PayloadType != PayloadType {
		return nil, "", fmt.Errorf("the envelope's payload is %s, not an in-toto statement (%s)", safetext.Quote(env.PayloadType), PayloadType)
	}
	payload, err := env.DecodeB64Payload()
	if err != nil {
		return nil, "", fmt.Errorf("the envelope's payload: %w", err)
	}
	how := "keyless by " + signer
	if len(entries) > 0 {
		how += fmt.Sprintf(", transparency-log entries: %d", len(entries))
	} else {
		how += ", a signed timestamp, no transparency-log entry"
	}
	return payload, how, nil
}
