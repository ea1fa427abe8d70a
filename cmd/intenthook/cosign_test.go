package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"github.com/secure-systems-lab/go-securesystemslib/signerverifier"

	"github.com/intenthook/intenthook/internal/attest"
)

// The test keys of the attest testscripts (testdata/script/attest_*.txtar).
const (
	ecKey = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQglZh6pdkE1Q5uQSps
m8HPUhxjOIGOrJwY1Y1myCXLIHWhRANCAARmQx/+PrCQvOr48mc5MaHgqlIvhUEX
q6BEmIHV9pHULe3irg5cN2UBGoJY8hECeUSCTRno/eV5XNXAE+1GTkJp
-----END PRIVATE KEY-----
`
	ecPub = `-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEZkMf/j6wkLzq+PJnOTGh4KpSL4VB
F6ugRJiB1faR1C3t4q4OXDdlARqCWPIRAnlEgk0Z6P3leVzVwBPtRk5CaQ==
-----END PUBLIC KEY-----
`
	edKey = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIPhbBRJTHtao0j7oJSFy7ZC0n436dOwhWgv71cMNzrDj
-----END PRIVATE KEY-----
`
	edPub = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAsXcZPlv7IFxZD5BnVH/a4JHbIkZZcwe5TKjozhk1QBQ=
-----END PUBLIC KEY-----
`
)

// TestCosignVerifies has third parties check what intenthook attest
// --key signs, through the shipped binaries: cosign (pinned in
// tools/cosign/go.mod, a module of its own, run with go run: its first
// build takes minutes, so this is a test of make test-slow) verifies the
// DSSE envelope and the Sigstore bundle of an ECDSA P-256 and an Ed25519
// key against a build artifact the statement names, and refuses another
// key, another artifact and a changed statement; go-securesystemslib's
// DSSE verifier, a second implementation, checks the envelopes'
// signatures over the PAE.
func TestCosignVerifies(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cosign")
	}
	bin := filepath.Dir(buildShipped(t))
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	repo := filepath.Join(dir, "repo")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Dev", "GIT_AUTHOR_EMAIL=dev@example.com", "GIT_COMMITTER_NAME=Dev", "GIT_COMMITTER_EMAIL=dev@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(filepath.Join(repo, ".orchestration"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("repo/.orchestration/active_intents.yaml", "active_intents:\n  - id: INT-001\n    name: Work\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n")
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "catalog")
	os.MkdirAll(filepath.Join(repo, "src"), 0o755)
	write("repo/src/a.go", "package src\n")
	git("add", "-A")
	git("commit", "-q", "-m", "work")
	artifact := write("app.tar.gz", "the release")
	other := write("other.tar.gz", "another release")

	attestWith := func(key string, args ...string) string {
		t.Helper()
		out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(key), ".pem")+strings.Join(args, "")+".json")
		cmd := exec.Command(filepath.Join(bin, "intenthook"), append([]string{"attest", "HEAD~1..HEAD", "--key", key, "--subject", artifact, "-o", out}, args...)...)
		cmd.Dir = repo
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("intenthook attest --key %s %v: %v\n%s", filepath.Base(key), args, err, b)
		}
		return out
	}
	keys := []struct{ name, priv, pub string }{
		{"ecdsa", write("ec.pem", ecKey), write("ec.pub", ecPub)},
		{"ed25519", write("ed.pem", edKey), write("ed.pub", edPub)},
	}

	// The second library first: it is quick.
	for _, k := range keys {
		env := attestWith(k.priv)
		data, err := os.ReadFile(env)
		if err != nil {
			t.Fatal(err)
		}
		var e dsse.Envelope
		if err := json.Unmarshal(data, &e); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			pub string
			ok  bool
		}{{k.pub, true}, {keys[0].pub, k.name == "ecdsa"}, {keys[1].pub, k.name == "ed25519"}} {
			pemBytes, err := os.ReadFile(tt.pub)
			if err != nil {
				t.Fatal(err)
			}
			key, err := signerverifier.LoadKey(pemBytes)
			if err != nil {
				t.Fatal(err)
			}
			var v dsse.Verifier
			if k := key.KeyType; k == signerverifier.ED25519KeyType {
				v, err = signerverifier.NewED25519SignerVerifierFromSSLibKey(key)
			} else {
				v, err = signerverifier.NewECDSASignerVerifierFromSSLibKey(key)
			}
			if err != nil {
				t.Fatal(err)
			}
			ev, err := dsse.NewEnvelopeVerifier(v)
			if err != nil {
				t.Fatal(err)
			}
			_, payload, err := ev.VerifyAndDecode(context.Background(), &e)
			switch {
			case tt.ok && err != nil:
				t.Errorf("go-securesystemslib: the %s envelope with its key: %v", k.name, err)
			case !tt.ok && err == nil:
				t.Errorf("go-securesystemslib: the %s envelope verifies with %s", k.name, filepath.Base(tt.pub))
			case tt.ok && !strings.Contains(string(payload), `"predicateType":"`+attest.PredicateType+`"`):
				t.Errorf("go-securesystemslib: the %s envelope's payload is no statement of %s", k.name, attest.PredicateType)
			}
		}
	}

	// cosign, built once (go run caches the binary).
	start := time.Now()
	cosign := func(args ...string) (string, error) {
		cmd := exec.Command("go", append([]string{"run", "github.com/sigstore/cosign/v3/cmd/cosign"}, args...)...)
		cmd.Dir = "../../tools/cosign"
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := cosign("version"); err != nil {
		t.Fatalf("go run cosign (tools/cosign): %v\n%s", err, out)
	}
	t.Logf("cosign built and started in %s", time.Since(start).Round(time.Second))
	verify := func(pub, sigFlag, file, blob string) (string, error) {
		return cosign("verify-blob-attestation", "--key", pub, "--type", attest.PredicateType, sigFlag, file, "--insecure-ignore-tlog", blob)
	}
	for _, k := range keys {
		for _, form := range []struct{ flag, attestArg string }{{"--signature", ""}, {"--bundle", "--bundle"}} {
			var args []string
			if form.attestArg != "" {
				args = []string{form.attestArg}
			}
			file := attestWith(k.priv, args...)
			what := k.name + " " + strings.TrimPrefix(form.flag, "--")
			if out, err := verify(k.pub, form.flag, file, artifact); err != nil || !strings.Contains(out, "Verified OK") {
				t.Errorf("cosign does not verify the %s: %v\n%s", what, err, out)
			}
			if out, err := verify(k.pub, form.flag, file, other); err == nil {
				t.Errorf("cosign verifies the %s against an artifact it does not name:\n%s", what, out)
			}
			wrong := keys[0].pub
			if k.name == "ecdsa" {
				wrong = keys[1].pub
			}
			if out, err := verify(wrong, form.flag, file, artifact); err == nil {
				t.Errorf("cosign verifies the %s with another key:\n%s", what, out)
			}
		}
	}
	// A statement changed under the envelope's signature.
	env := attestWith(keys[0].priv)
	data, _ := os.ReadFile(env)
	var e attest.Envelope
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	payload, err := base64.StdEncoding.DecodeString(e.Payload)
	if err != nil || !strings.Contains(string(payload), `"paths":{"traced":0,"attributed":0,"untraced":1}`) {
		t.Fatalf("the statement: %v\n%s", err, payload)
	}
	payload = []byte(strings.Replace(string(payload), `"paths":{"traced":0,"attributed":0,"untraced":1}`, `"paths":{"traced":1,"attributed":0,"untraced":0}`, 1))
	e.Payload = base64.StdEncoding.EncodeToString(payload)
	changed, _ := json.Marshal(e)
	if out, err := verify(keys[0].pub, "--signature", write("changed.json", string(changed)), artifact); err == nil {
		t.Errorf("cosign verifies a changed statement:\n%s", out)
	}
	t.Logf("cosign: %s in all", time.Since(start).Round(time.Second))
}
