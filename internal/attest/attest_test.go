package attest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/intenthook/intenthook/internal/audit"
	"github.com/intenthook/intenthook/internal/digest"
	"github.com/intenthook/intenthook/internal/git"
	"github.com/intenthook/intenthook/internal/ledger"
)

// The DSSE specification's own example.
func TestPAE(t *testing.T) {
	got := string(PAE("http://example.com/HelloWorld", []byte("hello world")))
	if want := "DSSEv1 29 http://example.com/HelloWorld 11 hello world"; got != want {
		t.Errorf("PAE = %q, want %q", got, want)
	}
	if got := string(PAE("", nil)); got != "DSSEv1 0  0 " {
		t.Errorf("PAE of nothing = %q", got)
	}
}

func TestPEMKeysSignAndVerify(t *testing.T) {
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pae := PAE(PayloadType, []byte(`{"_type":"x"}`))
	keys := map[string]*pemKey{}
	for name, priv := range map[string]any{"ed25519": ed, "ecdsa": ec} {
		k, err := newPEMKey(priv)
		if err != nil {
			t.Fatal(err)
		}
		keys[name] = k
	}
	for name, k := range keys {
		sig, id, err := k.sign(context.Background(), pae)
		if err != nil {
			t.Fatal(err)
		}
		if id != k.pub.id() || !strings.HasPrefix(id, "SHA256:") {
			t.Errorf("%s: key id %q", name, id)
		}
		if err := k.pub.verify(pae, sig); err != nil {
			t.Errorf("%s: its own signature: %v", name, err)
		}
		if err := k.pub.verify(append(slices.Clone(pae), ' '), sig); !errors.Is(err, errBadSignature) {
			t.Errorf("%s: a changed payload: %v", name, err)
		}
		for other, o := range keys {
			if other != name {
				if err := o.pub.verify(pae, sig); err == nil {
					t.Errorf("%s's signature verifies with the %s key", name, other)
				}
			}
		}
	}
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if _, err := newPEMKey(p384); err == nil || !strings.Contains(err.Error(), "only P-256") {
		t.Errorf("a P-384 key: %v", err)
	}
}

// writePEM writes a key as openssl would.
func writePEM(t *testing.T, dir, name, typ string, der []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadKeys(t *testing.T) {
	dir := t.TempDir()
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(ec)
	sec1, _ := x509.MarshalECPrivateKey(ec)
	pub, _ := x509.MarshalPKIXPublicKey(&ec.PublicKey)
	for _, path := range []string{writePEM(t, dir, "pkcs8.pem", "PRIVATE KEY", pkcs8), writePEM(t, dir, "sec1.pem", "EC PRIVATE KEY", sec1)} {
		s, err := loadSigner(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !strings.HasPrefix(s.describe(), "ECDSA P-256 key SHA256:") {
			t.Errorf("%s: %s", path, s.describe())
		}
	}
	pubPath := writePEM(t, dir, "pub.pem", "PUBLIC KEY", pub)
	if k, err := loadPublicKey(pubPath); err != nil || k.id() != (&pemKey{pub: publicKey{key: &ec.PublicKey}}).pub.id() {
		t.Errorf("the public key: %v", err)
	}
	refused := map[string]string{
		writePEM(t, dir, "enc.pem", "ENCRYPTED SIGSTORE PRIVATE KEY", []byte{1}): "encrypted key",
		pubPath: "is a public key",
		writePEM(t, dir, "rsa.pem", "RSA PRIVATE KEY", []byte{1}): "not a private key intenthook signs with",
		filepath.Join(dir, "missing.pem"):                         "read the key",
	}
	for path, want := range refused {
		_, err := loadSigner(path)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", filepath.Base(path), err, want)
		}
		var h hinted
		if !errors.As(err, &h) || len(h.hints) == 0 {
			t.Errorf("%s: no hint", filepath.Base(path))
		}
	}
	if _, err := loadPublicKey(writePEM(t, dir, "priv.pem", "PRIVATE KEY", pkcs8)); err == nil || !strings.Contains(err.Error(), "verify takes the public key") {
		t.Errorf("a private key to verify with: %v", err)
	}
}

// sshKeygen makes an SSH key with ssh-keygen, which signing runs.
func sshKeygen(t *testing.T, typ string) string {
	t.Helper()
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("no ssh-keygen")
	}
	path := filepath.Join(t.TempDir(), "id_"+typ)
	if out, err := exec.Command("ssh-keygen", "-q", "-t", typ, "-N", "", "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	return path
}

// SSHSIG signatures made by ssh-keygen verify with the Go reader, and only
// for the message, the key and the namespace they were made for.
func TestSSHSIG(t *testing.T) {
	for _, typ := range []string{"ed25519", "ecdsa", "rsa"} {
		t.Run(typ, func(t *testing.T) {
			key := sshKeygen(t, typ)
			pae := PAE(PayloadType, []byte(`{"a":1}`))
			sig, id, err := (&sshSigner{path: key}).sign(context.Background(), pae)
			if err != nil {
				t.Fatal(err)
			}
			pub, err := loadPublicKey(key + ".pub")
			if err != nil {
				t.Fatal(err)
			}
			if id != pub.id() || !strings.HasPrefix(id, "SHA256:") {
				t.Errorf("key id %q, want %q", id, pub.id())
			}
			if err := pub.verify(pae, sig); err != nil {
				t.Fatalf("ssh-keygen's signature: %v", err)
			}
			if err := pub.verify(append(slices.Clone(pae), 'x'), sig); !errors.Is(err, errBadSignature) {
				t.Errorf("a changed message: %v", err)
			}
			// The same message signed for another namespace.
			cmd := exec.Command("ssh-keygen", "-Y", "sign", "-f", key, "-n", "file")
			cmd.Stdin = bytes.NewReader(pae)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			blob, err := dearmor(out)
			if err != nil {
				t.Fatal(err)
			}
			if err := pub.verify(pae, blob); err == nil || !strings.Contains(err.Error(), `"file"`) {
				t.Errorf("a signature for the file namespace: %v", err)
			}
			// A public key file is taken too: ssh-keygen signs with the
			// private key beside it, or the one ssh-agent holds.
			if _, err := loadSigner(key + ".pub"); err != nil {
				t.Errorf("an SSH public key as the signing key: %v", err)
			}
		})
	}
}

// The range file is canonical JSON: sorted keys, no white space.
func TestRangeFile(t *testing.T) {
	p := &Predicate{
		Commits: []Commit{{Commit: strings.Repeat("a", 40)}, {Commit: strings.Repeat("b", 40)}},
		Ledger:  Ledger{Digest: "sha256:" + strings.Repeat("c", 64), Heads: []ledger.FileHead{{File: ".orchestration/ledger/w/2026-11/000001.jsonl", Records: 3, Seq: 3, Hash: "sha256:" + strings.Repeat("d", 64)}}},
	}
	got, err := NewRangeFile(p).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"commits":["` + strings.Repeat("a", 40) + `","` + strings.Repeat("b", 40) + `"],"ledger_digest":"sha256:` + strings.Repeat("c", 64) + `","ledger_heads":[{"file":".orchestration/ledger/w/2026-11/000001.jsonl","hash":"sha256:` + strings.Repeat("d", 64) + `","records":3,"seq":3}]}`
	if string(got) != want {
		t.Errorf("range file\n got %s\nwant %s", got, want)
	}
	empty, _ := NewRangeFile(&Predicate{}).Bytes()
	if string(empty) != `{"commits":[],"ledger_digest":"","ledger_heads":[]}` {
		t.Errorf("empty range file: %s", empty)
	}
}

func id(c byte) string { return strings.Repeat(string(c), 40) }

func hash(s string) string { return digest.Bytes([]byte(s)) }

// write is a PostToolUse record of path going from pre to post.
func write(seq int64, session, path, pre, post string, lines ...ledger.Range) *ledger.Record {
	r := &ledger.Record{Files: []ledger.File{ledger.NewFile(path, lines, ledger.Attribution{Model: "claude-test", IntentID: "INT-001"})}}
	r.Metadata.Intenthook = ledger.Meta{Seq: seq, Event: ledger.EventPostToolUse, SessionID: session, IntentID: "INT-001", ToolName: "Edit", MutationClass: "AST_REFACTOR", PreHash: ledger.NullString(pre), PostHash: ledger.NullString(post), Success: true}
	return r
}

// A result as audit leaves it for a range of four commits: one adopting
// the rules, a file written twice by one session and committed, then
// edited again and committed, a file an MCP tool wrote (attributed), a
// hand edit (untraced), and a deletion.
func sampleResult() *audit.Result {
	a1, a2, a3 := hash("a1"), hash("a2"), hash("a3")
	sub := write(7, "s2", "src/c.go", "", hash("c"), ledger.Range{StartLine: 1, EndLine: 1, ContentHash: hash("c")})
	sub.Metadata.Intenthook.AgentID = "agent-7"
	mcp := write(8, "s2", "src/m.go", "", hash("m"))
	mcp.Metadata.Intenthook.MutationClass = ledger.Attributed
	mcp.Metadata.Intenthook.ToolName = "mcp__serena__replace"
	denied := &ledger.Record{Files: []ledger.File{}}
	denied.Metadata.Intenthook = ledger.Meta{Seq: 9, Event: ledger.EventPreToolUse, Decision: "deny", Code: "scope_violation", SessionID: "s1"}
	return &audit.Result{
		Range: "main..feature", Commits: 4,
		IDs: []string{id('1'), id('2'), id('3'), id('4')},
		Changes: []audit.Change{
			{Commit: id('2'), Path: "src/a.go", Intent: "INT-001", Digest: a2, Traced: true},
			{Commit: id('2'), Path: "src/m.go", Intent: "INT-001", Digest: hash("m")},
			{Commit: id('3'), Path: "src/a.go", Intent: "INT-001", Digest: a3, Traced: true},
			{Commit: id('3'), Path: "src/c.go", Intent: "INT-001", Digest: hash("c"), Traced: true},
			{Commit: id('4'), Path: "src/b.go", Intent: "", Digest: hash("b")},
			{Commit: id('4'), Path: "src/old.go", Intent: "INT-001", Digest: "", Traced: true},
		},
		Records: []*ledger.Record{
			write(2, "s1", "src/a.go", "", a1, ledger.Range{StartLine: 1, EndLine: 4, ContentHash: hash("l")}),
			write(3, "s1", "src/a.go", a1, a2, ledger.Range{StartLine: 2, EndLine: 2, ContentHash: hash("l2")}),
			write(4, "s1", "src/a.go", a2, a3, ledger.Range{StartLine: 5, EndLine: 6, ContentHash: hash("l3")}),
			write(5, "s1", "src/old.go", hash("old"), ""),
			sub, mcp, denied,
		},
		Head:   ledger.Head{Seq: 9, Hash: hash("head")},
		Heads:  []ledger.FileHead{{File: ".orchestration/ledger/0123456789abcdef/2026-11/000001.jsonl", Records: 9, Seq: 9, Hash: hash("head")}},
		Digest: ledger.HeadsDigest([]ledger.FileHead{{File: ".orchestration/ledger/0123456789abcdef/2026-11/000001.jsonl", Records: 9, Seq: 9, Hash: hash("head")}}),
		Findings: []audit.Finding{
			{Commit: id('4'), Path: "src/b.go", Severity: audit.Error, Code: audit.OutOfScope, Message: "outside"},
			{Commit: id('4'), Path: "src/b.go", Severity: audit.Warning, Code: audit.Untraced, Message: "untraced"},
		},
		Catalog:     []audit.CatalogChange{{Commit: id('1'), Author: "Lead <lead@example.com>", Intent: "INT-001", Change: audit.IntentAdded, Detail: "IN_PROGRESS, owns src/**"}},
		Governance:  []audit.GovernanceChange{{Commit: id('3'), Author: "Dev <dev@example.com>", Path: ".claude/settings.json", Reason: "Claude Code's hooks"}},
		Adopted:     []audit.AdoptedPath{{Commit: id('1')}},
		BeforeRules: []string{},
		Rules:       []audit.RulesCommit{{Commit: id('1'), Author: "Lead <lead@example.com>", Files: []string{".orchestration/active_intents.yaml"}, Widening: true, Adopted: true, Signature: "unsigned"}},
		Intents:     []audit.IntentSummary{{Intent: "INT-001", Name: "Hooks", Files: []string{"src/a.go"}, Changes: 3, Traced: 3, Sessions: []string{"s1"}, Models: []string{"anthropic/claude-test"}, Denials: map[string]int{"scope_violation": 1}, Violations: map[string]int{}, Catalog: []string{"added IN_PROGRESS"}, Findings: 0}},
	}
}

func TestNewPredicate(t *testing.T) {
	p := NewPredicate(sampleResult(), false, "1.2.3")
	if p.Audit != (Outcome{Passed: false, Errors: 1, Warnings: 1}) {
		t.Errorf("audit %+v", p.Audit)
	}
	if p.Findings.ByCode[audit.OutOfScope] != 1 || p.Findings.ByCode[audit.Untraced] != 1 {
		t.Errorf("by code %v", p.Findings.ByCode)
	}
	if len(p.Commits) != 4 || p.Commits[0].Judged != AdoptsRules || p.Commits[1].Judged != JudgedByRules {
		t.Fatalf("commits %+v", p.Commits)
	}
	c2, c3, c4 := p.Commits[1], p.Commits[2], p.Commits[3]
	if c2.Paths != (Counts{Traced: 1, Attributed: 1}) || c3.Paths != (Counts{Traced: 2}) || c4.Paths != (Counts{Traced: 1, Untraced: 1}) {
		t.Errorf("counts %+v %+v %+v", c2.Paths, c3.Paths, c4.Paths)
	}
	// The second commit's a.go is the chain of seq 2 and 3; the third
	// commit's is seq 4 alone (seq 3 is the second commit's).
	seqs := func(f File) (out []int64) {
		for _, w := range f.Writes {
			out = append(out, w.Seq)
		}
		return out
	}
	if got := seqs(c2.Files[0]); !slices.Equal(got, []int64{2, 3}) {
		t.Errorf("commit 2 a.go writes %v", got)
	}
	if got := seqs(c3.Files[0]); !slices.Equal(got, []int64{4}) {
		t.Errorf("commit 3 a.go writes %v", got)
	}
	if w := c3.Files[0].Writes[0]; w.Model != "anthropic/claude-test" || w.Session != "s1" || w.Intent != "INT-001" || len(w.Lines) != 1 || w.Lines[0].Start != 5 || w.Lines[0].End != 6 {
		t.Errorf("a write: %+v", w)
	}
	if f := c2.Files[1]; f.Trace != Attributed || len(f.Writes) != 1 || f.Writes[0].Tool != "mcp__serena__replace" {
		t.Errorf("the MCP tool's file: %+v", f)
	}
	if !slices.Equal(c3.Agents, []string{"agent-7"}) || !slices.Equal(c3.Sessions, []string{"s1", "s2"}) || !slices.Equal(c3.Models, []string{"anthropic/claude-test"}) {
		t.Errorf("commit 3 names %v %v %v", c3.Agents, c3.Sessions, c3.Models)
	}
	if f := c4.Files[1]; f.Path != "src/old.go" || f.Digest != "" || f.Trace != Traced || len(f.Writes) != 1 || f.Writes[0].Seq != 5 {
		t.Errorf("the deletion: %+v", f)
	}
	if !slices.Equal(c4.Intents, []string{"INT-001"}) {
		t.Errorf("commit 4 intents %v", c4.Intents)
	}
}

// A ledger that is only the legacy file has one head, and a digest over it.
func TestPredicateLegacyLedger(t *testing.T) {
	res := sampleResult()
	res.Heads, res.Digest = nil, ""
	p := NewPredicate(res, true, "1")
	if len(p.Ledger.Heads) != 1 || p.Ledger.Heads[0].File != ledger.FileName || p.Ledger.Digest != ledger.HeadsDigest(p.Ledger.Heads) {
		t.Errorf("legacy ledger %+v", p.Ledger)
	}
}

func TestSchema(t *testing.T) {
	p := NewPredicate(sampleResult(), false, "1.2.3")
	body, err := marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := ValidatePredicate(body); err != nil {
		t.Fatalf("the predicate does not validate: %v\n%s", err, body)
	}
	// The schema lets a reader ignore fields it does not know (in-toto's
	// parsing rules), so it cannot catch a field the Go types add on its
	// own: sampleResult sets every field, and each must be one the schema
	// names where it stands.
	var inst, sch any
	if err := json.Unmarshal(body, &inst); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(Schema, &sch); err != nil {
		t.Fatal(err)
	}
	for _, missing := range undeclared(sch.(map[string]any), sch, inst, "predicate") {
		t.Errorf("%s is not in agent-work.v1.schema.json", missing)
	}
	// The schema must be able to fail.
	for what, change := range map[string]func(map[string]any){
		"no commits":        func(m map[string]any) { m["commits"] = []any{} },
		"a short commit id": func(m map[string]any) { m["commits"].([]any)[0].(map[string]any)["commit"] = "abc" },
		"an unknown trace": func(m map[string]any) {
			m["commits"].([]any)[1].(map[string]any)["files"].([]any)[0].(map[string]any)["trace"] = "maybe"
		},
		"a head without a hash": func(m map[string]any) {
			delete(m["ledger"].(map[string]any)["heads"].([]any)[0].(map[string]any), "hash")
		},
		"a negative count": func(m map[string]any) { m["audit"].(map[string]any)["errors"] = -1 },
		"no audit":         func(m map[string]any) { delete(m, "audit") },
	} {
		var c map[string]any
		_ = json.Unmarshal(body, &c)
		change(c)
		b, _ := json.Marshal(c)
		if err := ValidatePredicate(b); err == nil {
			t.Errorf("%s validates", what)
		}
	}
	// A field a later v1 adds is ignored.
	var c map[string]any
	_ = json.Unmarshal(body, &c)
	c["later"] = map[string]any{"x": 1}
	c["commits"].([]any)[0].(map[string]any)["later"] = true
	b, _ := json.Marshal(c)
	if err := ValidatePredicate(b); err != nil {
		t.Errorf("a field this version does not know: %v", err)
	}
	if got := undeclared(sch.(map[string]any), sch, c, "predicate"); len(got) != 2 {
		t.Errorf("undeclared finds %v, want the two added fields", got)
	}
}

// undeclared lists the object keys of inst that the schema node does not
// declare (properties, or a schema for additionalProperties), following
// $ref within root, items and properties.
func undeclared(root map[string]any, node, inst any, at string) []string {
	n, _ := node.(map[string]any)
	if ref, ok := n["$ref"].(string); ok {
		def := root["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")]
		return undeclared(root, def, inst, at)
	}
	var out []string
	switch v := inst.(type) {
	case map[string]any:
		props, _ := n["properties"].(map[string]any)
		extra, hasExtra := n["additionalProperties"].(map[string]any)
		for k, x := range v {
			switch p, ok := props[k]; {
			case ok:
				out = append(out, undeclared(root, p, x, at+"."+k)...)
			case hasExtra:
				out = append(out, undeclared(root, extra, x, at+"."+k)...)
			default:
				out = append(out, at+"."+k)
			}
		}
	case []any:
		for i, x := range v {
			out = append(out, undeclared(root, n["items"], x, fmt.Sprintf("%s[%d]", at, i))...)
		}
	}
	return out
}

// The statement: a gitCommit subject per commit in order, then the files.
func TestStatement(t *testing.T) {
	dir := t.TempDir()
	art := filepath.Join(dir, "app.tar.gz")
	if err := os.WriteFile(art, []byte("artifact"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub, err := FileSubject(art)
	if err != nil {
		t.Fatal(err)
	}
	st, err := NewStatement(NewPredicate(sampleResult(), false, "1"), []Subject{sub})
	if err != nil {
		t.Fatal(err)
	}
	if st.Type != StatementType || st.PredicateType != PredicateType || len(st.Subject) != 5 {
		t.Fatalf("statement %+v", st)
	}
	if got := st.Commits(); !slices.Equal(got, []string{id('1'), id('2'), id('3'), id('4')}) {
		t.Errorf("commits %v", got)
	}
	if st.Subject[4].Digest[SHA256] != strings.TrimPrefix(digest.Bytes([]byte("artifact")), "sha256:") {
		t.Errorf("the file's subject %+v", st.Subject[4])
	}
	if err := hasSubject(st, art); err != nil {
		t.Error(err)
	}
	os.WriteFile(art, []byte("changed"), 0o644)
	if err := hasSubject(st, art); err == nil {
		t.Error("a changed file is still a subject")
	}
}

func TestSameCommits(t *testing.T) {
	a, b, c, x := id('a'), id('b'), id('c'), id('x')
	for _, tt := range []struct {
		attested, now []string
		want          string
	}{
		{[]string{a, b, c}, []string{a, b, c}, ""},
		{[]string{a, b, c}, []string{a, x, c}, "at commit 2 of 3: the attestation names " + b + ", the range r has " + x},
		{[]string{a, b, c}, []string{a, b}, "ends after 2 commit(s): the attestation's commit 3 of 3, " + c},
		{[]string{a, b}, []string{a, b, c}, "the first it does not name is " + c},
	} {
		err := sameCommits(tt.attested, tt.now, "r", "main..HEAD")
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%v against %v: %v, want %q", tt.attested, tt.now, err, tt.want)
		}
	}
}

// gitRepo makes a repository whose one commit holds a ledger of two
// records, and returns it with that commit.
func gitRepo(t *testing.T) (*git.Repo, string) {
	t.Helper()
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Dev", "GIT_AUTHOR_EMAIL=dev@example.com", "GIT_COMMITTER_NAME=Dev", "GIT_COMMITTER_EMAIL=dev@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q", "-b", "main")
	l := &ledger.Ledger{Root: dir}
	if err := l.Append(context.Background(), write(0, "s1", "a.go", "", hash("a")), write(0, "s1", "a.go", hash("a"), hash("b"))); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".orchestration/state/\n"), 0o644)
	run("add", "-A")
	run("commit", "-q", "-m", "ledger")
	return git.Open(dir), run("rev-parse", "HEAD")
}

// The heads an attestation names must be lines of the ledger at the
// range's last commit: a head the ledger does not hold fails, naming it.
func TestHeadsHeld(t *testing.T) {
	g, head := gitRepo(t)
	ctx := context.Background()
	var heads []ledger.FileHead
	rep, err := audit.LedgerAt(ctx, g, head, func([]byte) {})
	if err != nil {
		t.Fatal(err)
	}
	heads = rep.Segments
	if len(heads) != 1 || heads[0].Seq != 2 {
		t.Fatalf("heads %+v", heads)
	}
	if err := headsHeld(ctx, g, head, Ledger{Heads: heads}); err != nil {
		t.Errorf("the commit's own heads: %v", err)
	}
	forged := slices.Clone(heads)
	forged[0].Hash = hash("another line")
	err = headsHeld(ctx, g, head, Ledger{Heads: forged})
	if err == nil || !strings.Contains(err.Error(), "no longer holds the head") || !strings.Contains(err.Error(), "2:"+forged[0].Hash) {
		t.Errorf("a head the ledger does not hold: %v", err)
	}
}

// A statement the key signed whose predicate breaks the schema (a signer's
// mistake, or an older or newer intenthook's predicate) is refused, and so
// is one whose predicate lists other commits than its subjects.
func TestSignedButInvalid(t *testing.T) {
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	k, err := newPEMKey(ed)
	if err != nil {
		t.Fatal(err)
	}
	good, _ := NewStatement(NewPredicate(sampleResult(), false, "1"), nil)
	other := *good
	other.Subject = other.Subject[1:]
	for what, st := range map[string]*Statement{
		"does not match its schema":              {Type: StatementType, PredicateType: PredicateType, Subject: good.Subject, Predicate: json.RawMessage(`{"intenthook":{"version":"1"}}`)},
		"not the commits its predicate lists":    &other,
		"is https://slsa.dev/provenance/v1, not": {Type: StatementType, PredicateType: "https://slsa.dev/provenance/v1", Subject: good.Subject, Predicate: good.Predicate},
	} {
		body, _ := marshal(st)
		sig, keyID, _ := k.sign(context.Background(), PAE(PayloadType, body))
		env, _ := marshal(Envelope{PayloadType: PayloadType, Payload: encode64(body), Signatures: []Signature{{KeyID: keyID, Sig: encode64(sig)}}})
		s, err := checkSignature("att.json", env, k.pub)
		if err != nil {
			t.Fatalf("%s: the signature: %v", what, err)
		}
		if _, _, err := readStatement(s.payload); err == nil || !strings.Contains(err.Error(), what) {
			t.Errorf("%s: %v", what, err)
		}
	}
	body, _ := marshal(good)
	if _, _, err := readStatement(body); err != nil {
		t.Errorf("the good statement: %v", err)
	}
}
