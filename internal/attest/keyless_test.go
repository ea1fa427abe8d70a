package attest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	protobundle "github.com/sigstore/protobuf-specs/gen/pb-go/bundle/v1"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	protodsse "github.com/sigstore/protobuf-specs/gen/pb-go/dsse"
	protorekor "github.com/sigstore/protobuf-specs/gen/pb-go/rekor/v1"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/testing/ca"
	"google.golang.org/protobuf/encoding/protojson"
)

const (
	ciIdentity = "ci@example.com"
	ciIssuer   = "https://issuer.example.com"
)

// keylessBundle signs statement keyless with the virtual Sigstore (a
// certificate for san from issuer, a transparency-log entry with its
// inclusion proof, a signed timestamp) and writes it as actions/attest
// does: a Sigstore bundle v0.3 in JSON.
func keylessBundle(t *testing.T, vs *ca.VirtualSigstore, san, issuer string, statement []byte) []byte {
	t.Helper()
	ent, err := vs.AttestAtTime(san, issuer, statement, time.Now().Add(5*time.Minute), true)
	if err != nil {
		t.Fatal(err)
	}
	vc, _ := ent.VerificationContent()
	sc, _ := ent.SignatureContent()
	env := sc.EnvelopeContent().RawEnvelope()
	payload, _ := base64.StdEncoding.DecodeString(env.Payload)
	sig, _ := base64.StdEncoding.DecodeString(env.Signatures[0].Sig)
	stamps, _ := ent.Timestamps()
	entries, _ := ent.TlogEntries()
	vm := &protobundle.VerificationMaterial{
		Content:                   &protobundle.VerificationMaterial_Certificate{Certificate: &protocommon.X509Certificate{RawBytes: vc.Certificate().Raw}},
		TimestampVerificationData: &protobundle.TimestampVerificationData{},
	}
	for _, s := range stamps {
		vm.TimestampVerificationData.Rfc3161Timestamps = append(vm.TimestampVerificationData.Rfc3161Timestamps, &protocommon.RFC3161SignedTimestamp{SignedTimestamp: s})
	}
	for _, e := range entries {
		tle := e.TransparencyLogEntry()
		tle.KindVersion = &protorekor.KindVersion{Kind: "dsse", Version: "0.0.1"}
		vm.TlogEntries = append(vm.TlogEntries, tle)
	}
	b, err := protojson.Marshal(&protobundle.Bundle{
		MediaType:            BundleMediaType,
		VerificationMaterial: vm,
		Content: &protobundle.Bundle_DsseEnvelope{DsseEnvelope: &protodsse.Envelope{
			Payload: payload, PayloadType: env.PayloadType, Signatures: []*protodsse.Signature{{Sig: sig}},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// trustedRootJSON writes the virtual Sigstore's keys and certificates as a
// trusted_root.json, the file an auditor keeps.
func trustedRootJSON(t *testing.T, vs *ca.VirtualSigstore) []byte {
	t.Helper()
	// The virtual Sigstore keys its logs by the hex of their ids; the
	// trusted root holds the ids themselves.
	logs := func(m map[string]*root.TransparencyLog) map[string]*root.TransparencyLog {
		out := map[string]*root.TransparencyLog{}
		for k, l := range m {
			c := *l
			if id, err := hex.DecodeString(string(l.ID)); err == nil {
				c.ID = id
			}
			out[k] = &c
		}
		return out
	}
	tr, err := root.NewTrustedRoot(root.TrustedRootMediaType01, vs.FulcioCertificateAuthorities(), logs(vs.CTLogs()), vs.TimestampingAuthorities(), logs(vs.RekorLogs()))
	if err != nil {
		t.Fatal(err)
	}
	b, err := tr.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func signedStatement(t *testing.T) []byte {
	t.Helper()
	st, err := NewStatement(NewPredicate(sampleResult(), false, "1"), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, err := marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// A keyless bundle verifies against the trusted root that issued its
// certificate and logged it, for the identity it names, offline; another
// identity, a changed statement, another root or a key-signed bundle fail,
// each saying why.
func TestVerifyKeyless(t *testing.T) {
	vs, err := ca.NewVirtualSigstore()
	if err != nil {
		t.Fatal(err)
	}
	statement := signedStatement(t)
	good := keylessBundle(t, vs, ciIdentity, ciIssuer, statement)
	want := identity{san: ciIdentity, issuer: ciIssuer}

	payload, how, err := verifyKeylessBundle(good, vs, want)
	if err != nil {
		t.Fatalf("a good bundle: %v", err)
	}
	if !bytes.Equal(payload, statement) {
		t.Errorf("the payload is not the statement signed")
	}
	if !strings.Contains(how, "ci@example.com (issuer https://issuer.example.com)") || !strings.Contains(how, "transparency-log entries: 1") {
		t.Errorf("how: %s", how)
	}
	if _, _, err := verifyKeylessBundle(good, vs, identity{sanRegexp: `^ci@example\.com$`, issuer: ciIssuer}); err != nil {
		t.Errorf("the identity by regexp: %v", err)
	}

	// The trusted root as a file says the same.
	dir := t.TempDir()
	rootFile := filepath.Join(dir, "trusted_root.json")
	os.WriteFile(rootFile, trustedRootJSON(t, vs), 0o644)
	trusted, err := loadTrustedRoot(rootFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := verifyKeylessBundle(good, trusted, want); err != nil {
		t.Errorf("against trusted_root.json: %v", err)
	}

	for _, c := range []struct {
		name string
		id   identity
		want string
	}{
		{"another signer", identity{san: "someone@example.com", issuer: ciIssuer}, "signed by ci@example.com (issuer https://issuer.example.com), not someone@example.com from https://issuer.example.com"},
		{"another issuer", identity{san: ciIdentity, issuer: "https://token.actions.githubusercontent.com"}, "signed by ci@example.com (issuer https://issuer.example.com), not ci@example.com from https://token.actions.githubusercontent.com"},
		{"a regexp that does not match", identity{sanRegexp: `^https://github\.com/`, issuer: ciIssuer}, `not matching ^https://github\.com/ from`},
	} {
		if _, _, err := verifyKeylessBundle(good, vs, c.id); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}

	// A statement changed after signing.
	var b map[string]any
	json.Unmarshal(good, &b)
	env := b["dsseEnvelope"].(map[string]any)
	var st map[string]any
	json.Unmarshal(statement, &st)
	st["predicate"].(map[string]any)["intenthook"].(map[string]any)["version"] = "2"
	changed, _ := json.Marshal(st)
	env["payload"] = base64.StdEncoding.EncodeToString(changed)
	tampered, _ := json.Marshal(b)
	if _, _, err := verifyKeylessBundle(tampered, vs, want); err == nil || !strings.Contains(err.Error(), "the signature does not verify against the trusted root") {
		t.Errorf("a changed statement: %v", err)
	}

	// Another Sigstore's root does not vouch for this one's certificate.
	other, _ := ca.NewVirtualSigstore()
	if _, _, err := verifyKeylessBundle(good, other, want); err == nil || !strings.Contains(err.Error(), "the signature does not verify against the trusted root") {
		t.Errorf("another root: %v", err)
	}

	// A key-signed bundle is not checked by a trusted root.
	k := newTestKey(t)
	keyed, err := signBundle(k, statement)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := verifyKeylessBundle(keyed, vs, want); err == nil || !strings.Contains(err.Error(), "it is key-signed (a public-key hint, no certificate)") {
		t.Errorf("a key-signed bundle: %v", err)
	}
	// And a keyless one is not checked by a key.
	if _, err := checkSignature("att.json", good, k.pub); err == nil || !strings.Contains(err.Error(), "signed keyless") {
		t.Errorf("a keyless bundle with --key: %v", err)
	}
}

func newTestKey(t *testing.T) *pemKey {
	t.Helper()
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	k, err := newPEMKey(ed)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// attest verify's command line checks a keyless bundle of a range against
// a trusted_root.json and the identity, then the range as with a key; the
// flags it lacks, or a key and a root together, are named.
func TestVerifyKeylessCommand(t *testing.T) {
	g, _ := gitRepo(t)
	dir := g.Dir
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Dev", "GIT_AUTHOR_EMAIL=dev@example.com", "GIT_COMMITTER_NAME=Dev", "GIT_COMMITTER_EMAIL=dev@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("checkout", "-q", "-b", "work")
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("b\n"), 0o644)
	git("add", "b.txt")
	git("commit", "-q", "-m", "b")

	out := t.TempDir()
	stmt := filepath.Join(out, "statement.json")
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"--root", dir, "main..work", "-o", stmt}, &stdout, &stderr, "1"); code != 0 {
		t.Fatalf("attest: %d\n%s", code, stderr.String())
	}
	statement, err := os.ReadFile(stmt)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := ca.NewVirtualSigstore()
	if err != nil {
		t.Fatal(err)
	}
	bundleFile := filepath.Join(out, "att.sigstore.json")
	rootFile := filepath.Join(out, "trusted_root.json")
	os.WriteFile(bundleFile, keylessBundle(t, vs, ciIdentity, ciIssuer, statement), 0o644)
	os.WriteFile(rootFile, trustedRootJSON(t, vs), 0o644)

	run := func(args ...string) (int, string, string) {
		stdout.Reset()
		stderr.Reset()
		code := Main(append([]string{"verify", bundleFile, "--root", dir}, args...), &stdout, &stderr, "1")
		return code, stdout.String(), stderr.String()
	}
	code, so, se := run("--trusted-root", rootFile, "--certificate-identity", ciIdentity, "--certificate-oidc-issuer", ciIssuer, "main..work")
	if code != 0 {
		t.Fatalf("verify: %d\n%s", code, se)
	}
	for _, want := range []string{
		"signature: good: Sigstore bundle signed keyless by ci@example.com (issuer https://issuer.example.com), transparency-log entries: 1, chained to the trusted root " + rootFile + "\n",
		"subjects: the 1 commit(s) of main..work, in order",
		"intenthook: attest verify: ok\n",
	} {
		if !strings.Contains(so, want) {
			t.Errorf("stdout lacks %q:\n%s", want, so)
		}
	}

	// As actions/attest signs it: the subject is the range file, the
	// predicate attest --predicate's.
	predFile, rangeFile := filepath.Join(out, "predicate.json"), filepath.Join(out, "range.json")
	if code := Main([]string{"--root", dir, "main..work", "--predicate", "-o", predFile, "--range-file", rangeFile}, &stdout, &stderr, "1"); code != 0 {
		t.Fatalf("attest --predicate: %d\n%s", code, stderr.String())
	}
	pred, _ := os.ReadFile(predFile)
	sub, err := FileSubject(rangeFile)
	if err != nil {
		t.Fatal(err)
	}
	byAction, _ := marshal(Statement{Type: StatementType, Subject: []Subject{sub}, PredicateType: PredicateType, Predicate: pred})
	os.WriteFile(bundleFile, keylessBundle(t, vs, ciIdentity, ciIssuer, byAction), 0o644)
	code, so, se = run("--trusted-root", rootFile, "--certificate-identity-regexp", `^ci@`, "--certificate-oidc-issuer", ciIssuer, "main..work")
	if code != 0 || !strings.Contains(so, "statement: its subject is the range file of the commits and segment heads its predicate lists") || !strings.Contains(so, "subjects: the 1 commit(s) of main..work, in order") {
		t.Fatalf("verify the range file's attestation: %d\n%s\n%s", code, so, se)
	}
	// Another range file (another history) is no subject of it.
	other, _ := marshal(Statement{Type: StatementType, Subject: []Subject{{Name: "range.json", Digest: map[string]string{SHA256: hash("another range")}}}, PredicateType: PredicateType, Predicate: pred})
	os.WriteFile(bundleFile, keylessBundle(t, vs, ciIdentity, ciIssuer, other), 0o644)
	if code, _, se := run("--trusted-root", rootFile, "--certificate-identity", ciIdentity, "--certificate-oidc-issuer", ciIssuer, "main..work"); code != 1 || !strings.Contains(se, "the statement names neither the commits its predicate lists (gitCommit subjects) nor their range file") {
		t.Errorf("another range file: %d\n%s", code, se)
	}
	os.WriteFile(bundleFile, keylessBundle(t, vs, ciIdentity, ciIssuer, statement), 0o644)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--trusted-root", rootFile, "--certificate-identity", "someone@example.com", "--certificate-oidc-issuer", ciIssuer, "main..work"},
			"intenthook: error: the bundle " + bundleFile + ": signed by ci@example.com (issuer https://issuer.example.com), not someone@example.com from https://issuer.example.com\nintenthook: hint: --certificate-identity and --certificate-oidc-issuer name who must have signed"},
		{[]string{"--trusted-root", rootFile, "--certificate-identity", ciIdentity, "--certificate-oidc-issuer", ciIssuer, "main..work~1"},
			"intenthook: error: the range main..work~1 ends after 0 commit(s): the attestation's commit 1 of 1"},
		{[]string{"--trusted-root", rootFile, "--certificate-oidc-issuer", ciIssuer},
			"intenthook: error: attest verify --trusted-root needs --certificate-identity ID or --certificate-identity-regexp RE"},
		{[]string{"--trusted-root", rootFile, "--certificate-identity", ciIdentity},
			"intenthook: error: attest verify --trusted-root needs --certificate-oidc-issuer ISSUER"},
		{[]string{"--certificate-identity", ciIdentity, "--certificate-oidc-issuer", ciIssuer},
			"intenthook: error: attest verify needs --trusted-root JSON"},
		{[]string{"--trusted-root", rootFile, "--key", rootFile, "--certificate-identity", ciIdentity, "--certificate-oidc-issuer", ciIssuer},
			"intenthook: error: attest verify takes --key or --trusted-root"},
		{[]string{"--trusted-root", stmt, "--certificate-identity", ciIdentity, "--certificate-oidc-issuer", ciIssuer},
			"intenthook: error: read the trusted root " + stmt},
		{nil, "intenthook: error: attest verify needs --key PUB"},
	} {
		code, _, se := run(c.args...)
		if code != 1 || !strings.Contains(se, c.want) {
			t.Errorf("verify %v: exit %d, want 1 and %q:\n%s", c.args, code, c.want, se)
		}
	}
}
